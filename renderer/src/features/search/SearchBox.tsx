import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { SearchHit } from '../../../../shared/model';
import { describeError } from '../../api';
import { useApp } from '../../app/AppContext';
import { Highlight } from '../../components/Highlight/Highlight';
import { shortcutText } from '../../app/shortcuts';

const KIND_LABEL: Record<SearchHit['kind'], string> = { study: 'study', experiment: 'experiment', config: 'config', profile: 'profile', capture: 'capture' };

/**
 * Full-text search over studies, experiments, config changes, profiles and stored captures (by
 * name, kind, metric, value and finding); each hit says which study it belongs to. Ctrl+K (⌘K) or "/"
 * focuses it (app/shortcuts.ts); arrows move through the results; Enter or a click goes there.
 */
export function SearchBox() {
  const { api, navigate, revision, onDataChange, route } = useApp();
  const [query, setQuery] = useState('');
  // the hits of a search left open follow the notebook's changes
  const [changes, setChanges] = useState(0);
  useEffect(() => onDataChange(() => setChanges((n) => n + 1)), [onDataChange]);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const q = query.trim();
    if (!q) { setHits([]); setError(null); return; }
    let live = true;
    const timer = setTimeout(() => {
      api.search(q).then(
        (h) => { if (live) { setHits(h); setError(null); setActive(0); } },
        (e) => { if (live) { setHits([]); setError(describeError(e).message); } },
      );
    }, 120);
    return () => { live = false; clearTimeout(timer); };
  }, [api, query, revision, changes]);

  const go = (hit: SearchHit) => {
    if (hit.kind === 'profile' && hit.profileId !== null) navigate({ name: 'profiles', profileId: hit.profileId });
    else if (hit.kind === 'capture' && hit.captureId !== null) navigate({ name: 'capture', captureId: hit.captureId, experimentId: hit.experimentId });
    else if (hit.studyId !== null) navigate({ name: 'study', studyId: hit.studyId, experimentId: hit.experimentId });
    setOpen(false);
    inputRef.current?.blur();
  };

  /** Put the hit's experiment side by side: as B when A is already chosen, else as A. */
  const compare = (hit: SearchHit) => {
    if (hit.experimentId === null) return;
    if (route.name === 'compare' && route.a !== null && route.a !== hit.experimentId) navigate({ name: 'compare', a: route.a, b: hit.experimentId });
    else navigate({ name: 'compare', a: hit.experimentId, b: route.name === 'compare' ? route.b : null });
    setOpen(false);
    inputRef.current?.blur();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') { setOpen(false); inputRef.current?.blur(); return; }
    if (!hits.length) return;
    if (e.key === 'ArrowDown') { e.preventDefault(); setOpen(true); setActive((a) => (a + 1) % hits.length); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => (a - 1 + hits.length) % hits.length); }
    else if (e.key === 'Enter') { e.preventDefault(); const h = hits[active]; if (h) { if (e.altKey) compare(h); else go(h); } }
  };

  const showResults = open && query.trim() !== '';
  return (
    <div
      className="search"
      ref={boxRef}
      onBlur={(e) => { if (!boxRef.current?.contains(e.relatedTarget as Node | null)) setOpen(false); }}
    >
      <input
        ref={inputRef}
        type="search"
        role="combobox"
        aria-label="Search notebook"
        data-focus-key="search"
        aria-expanded={showResults}
        aria-controls="search-results"
        aria-activedescendant={showResults && hits[active] ? `search-hit-${active}` : undefined}
        aria-autocomplete="list"
        placeholder={`Search  (${shortcutText('search')})`}
        value={query}
        onChange={(e) => { setQuery(e.target.value); setOpen(true); }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {showResults && (
        <div className="search-results">
          {error && <p role="alert" className="error-text">{error}</p>}
          {!error && hits.length === 0 && <p className="muted small search-empty">No matches.</p>}
          <ul id="search-results" role="listbox" aria-label="Search results">
            {hits.map((h, i) => (
              <li
                key={`${h.kind}-${h.studyId}-${h.experimentId}-${h.profileId}-${i}`}
                id={`search-hit-${i}`}
                role="option"
                aria-selected={i === active}
                className={`search-hit ${i === active ? 'active' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => go(h)}
              >
                <span className={`badge kind-${h.kind}`}>{KIND_LABEL[h.kind]}</span>
                <span className="hit-title" title={h.title}>{h.title}</span>
                {h.studyTitle && h.kind !== 'study' && <span className="hit-study muted small">in {h.studyTitle}</span>}
                <span className="hit-snippet"><Highlight snippet={h.snippet} /></span>
                {h.experimentId !== null && (
                  <button type="button" className="link-button small hit-compare" tabIndex={-1} title="Put this experiment side by side with another (Alt+Enter)"
                    onClick={(e) => { e.stopPropagation(); compare(h); }}>compare…</button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
