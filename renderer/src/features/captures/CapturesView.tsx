/**
 * Captures: drop, choose or paste tool output (ab, wrk, fio, iostat, vmstat, top, strace, perf,
 * sysctl …) and see what Tunebook reads from it — kind, headline metrics, series summaries, facts,
 * settings, findings, warnings — then store it on an experiment ("Store on experiment…").
 * Dropping straight onto an experiment stores without this preview. Below the previews: the
 * captures stored in the notebook, newest first, each one click from its stored view. Previews
 * not stored yet are kept while the window is open, and leaving the page (browser mode) asks first.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useApp } from '../../app/AppContext';
import { never } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { CaptureCard } from './CaptureCard';
import { plural } from '../../../../shared/format';
import { formatQuantity } from '../../../../shared/units';
import type { StoredCaptureList } from '../../../../shared/model';
import { setUnsavedWork } from '../../hooks/useDraft';
import { MAX_TEXT_BYTES, parseFiles, parsePasted } from './parseCaptures';
import type { CaptureEntry, ParseProgress } from './parseCaptures';
import './captures.css';
import { useFileDrop } from '../../hooks/useFileDrop';
import { focusAfterRemoval, focusWhenShown } from '../../lib/focus';
import { DropZone } from '../../components/DropZone/DropZone';
import { AttachDialog } from '../evidence/AttachDialog';
import type { Intake } from '../evidence/useImport';

interface Job { id: number; label: string; progress: ParseProgress | null }

let nextJob = 1;
let pasteCount = 0;
/** Results survive a visit to another view (for the life of the window). */
let keptEntries: CaptureEntry[] = [];
/** previews stored on an experiment (their keys): no longer unsaved work */
const storedKeys = new Set<string>();
/** stored captures listed at a time */
const STORED_PAGE = 50;


export function CapturesView() {
  const { api } = useApp();
  const kinds = useQuery('capture-kinds', (a) => a.captureKinds(), { on: never });
  const [kind, setKind] = useState('');
  const [entries, setEntries] = useState<CaptureEntry[]>(() => keptEntries);
  useEffect(() => { keptEntries = entries; }, [entries]);
  // previews not stored yet are work a reload would lose: leaving the page asks first
  useEffect(() => {
    setUnsavedWork('capture-previews', entries.some((e) => e.origin && !e.cancelled && !e.error && !storedKeys.has(e.key)));
  }, [entries]);
  const [storedLimit, setStoredLimit] = useState(STORED_PAGE);
  const stored = useQuery(`stored-captures:${storedLimit}`, (a) => a.listStoredCaptures(0, storedLimit));
  const mounted = useRef(true);
  useEffect(() => { mounted.current = true; return () => { mounted.current = false; }; }, []);
  const [jobs, setJobs] = useState<Job[]>([]);
  // bytes read by the back end's parse under way (large files), for a percentage
  const [bytes, setBytes] = useState<{ read: number; total: number } | null>(null);
  useEffect(() => api.on('onDidProgressParse', setBytes), [api]);
  useEffect(() => { if (jobs.length === 0) setBytes(null); }, [jobs.length]);
  const cancel = () => { void api.cancelCaptureParsing(); };
  const fileInput = useRef<HTMLInputElement>(null);
  const [pasteName, setPasteName] = useState('');
  const [pasteText, setPasteText] = useState('');
  const [pasteError, setPasteError] = useState<string | null>(null);
  const hintId = useId();
  const kindId = useId();
  const nameId = useId();
  const textId = useId();

  /** Runs one parse job, shows its progress, and puts its results at the top of the list. */
  const run = useCallback(async (label: string, work: (progress: (p: ParseProgress) => void) => Promise<CaptureEntry[]>): Promise<CaptureEntry[]> => {
    const id = nextJob++;
    setJobs((js) => [...js, { id, label, progress: null }]);
    try {
      const result = await work((p) => setJobs((js) => js.map((j) => (j.id === id ? { ...j, progress: p } : j))));
      if (mounted.current) {
        setEntries((es) => [...result, ...es]);
        // the first result is focused once drawn
        if (result[0]) focusWhenShown(`capture-entry:${result[0].key}`);
      }
      else keptEntries = [...result, ...keptEntries]; // finished after the user left the view: keep it for the return
      return result;
    } finally {
      setJobs((js) => js.filter((j) => j.id !== id));
    }
  }, []);

  const parseFileList = useCallback((files: File[]) => {
    if (!files.length) return;
    const forced = kind || undefined;
    void run(`Parsing ${plural(files.length, 'file')}…`, async (progress) => {
      const entries = await parseFiles(api, files, forced, progress);
      const job = `job-${nextJob}`;
      return entries.map((e) => (e.origin ? e : { ...e, origin: { files }, shared: job }));
    });
  }, [api, kind, run]);

  // "Store on experiment…": one entry, or every entry (a folder dropped in Electron is stored as the folder)
  const [attach, setAttach] = useState<{ intakes: Intake[]; what: string; keys: string[] } | null>(null);
  const markStored = (keys: readonly string[]) => {
    for (const k of keys) storedKeys.add(k);
    setEntries((es) => [...es]); // look again at what is unsaved
  };
  const attachAll = () => {
    const seen = new Set<unknown>();
    const files: File[] = [];
    const paths: string[] = [];
    const intakes: Intake[] = [];
    for (const e of entries) {
      if (!e.origin || e.cancelled) continue;
      const key = e.shared ?? e.key;
      if (seen.has(key)) continue;
      seen.add(key);
      // files and paths go in one import each (one progress bar, one message); pasted texts one by one
      if ('files' in e.origin) files.push(...e.origin.files);
      else if ('paths' in e.origin) paths.push(...e.origin.paths);
      else intakes.push(e.origin);
    }
    if (paths.length) intakes.unshift({ paths });
    if (files.length) intakes.unshift({ files });
    const keys = entries.filter((e) => e.origin && !e.cancelled).map((e) => e.key);
    if (intakes.length) setAttach({ intakes, what: plural(keys.length, 'capture'), keys });
  };

  const openChooser = () => fileInput.current?.click();


  // Drops anywhere on the view are taken (so a near miss never makes the window open the file).
  const { dragging, handlers: dropHandlers } = useFileDrop(parseFileList);

  const submitPaste = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!pasteText.trim()) { setPasteError('Paste the output of a tool first.'); return; }
    if (new Blob([pasteText]).size > MAX_TEXT_BYTES) { setPasteError('That is more than 64 MiB of text; drop it as a file instead.'); return; }
    setPasteError(null);
    const name = pasteName.trim() || `pasted-${++pasteCount}.txt`;
    const result = await run(`Parsing ${name}…`, () => parsePasted(api, name, pasteText, kind || undefined));
    if (result.length && result.every((r) => !r.error)) { setPasteText(''); setPasteName(''); }
  };

  const kindList = kinds.data ?? [];

  return (
    <div className="view captures-view" {...dropHandlers}>
      <header className="title-row">
        <h1>Captures</h1>
        <span className="muted small">See what Tunebook reads from tool output, then store it on an experiment.</span>
      </header>

      <section className="panel capture-intake" aria-label="Add captures">
        <div className="intake-files">
          <DropZone
            className={`drop-zone ${dragging ? 'dragging' : ''}`}
            titleClassName="drop-title"
            label="Drop capture files here, or press Enter to choose files"
            title={dragging ? 'Release to parse' : 'Drop capture files here'}
            hint="Several at once, or a folder — ab, wrk, fio, iostat, vmstat, top, strace, perf, sysctl, ss, lscpu… Press Enter to choose files."
            hintId={hintId}
            onChoose={openChooser}
          />
          <div className="intake-controls">
            <button type="button" className="btn" onClick={openChooser}>Choose files…</button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              aria-label="Capture files"
              onChange={(e) => {
                const files = Array.from(e.currentTarget.files ?? []);
                e.currentTarget.value = ''; // choosing the same file again still fires change
                parseFileList(files);
              }}
            />
            <div className="field">
              <label htmlFor={kindId}>Kind</label>
              <select id={kindId} value={kind} onChange={(e) => setKind(e.target.value)}>
                <option value="">Auto-detect</option>
                {kindList.map((k) => <option key={k.id} value={k.id}>{k.title === k.id ? k.id : `${k.title} — ${k.id}`}</option>)}
                {kinds.data && !kindList.some((k) => k.id === 'text') && <option value="text">Plain text — text</option>}
              </select>
            </div>
            {kinds.error && <span className="error-text small" role="alert">Could not load the capture kinds: {kinds.error}</span>}
          </div>
        </div>

        <form className="paste-form" aria-label="Paste capture" onSubmit={(e) => void submitPaste(e)}>
          {/* labels point at their controls (not wrap them): a wrapping label would put the pasted text in the textarea's name */}
          <div className="field paste-name">
            <label htmlFor={nameId}>Name</label>
            <input id={nameId} value={pasteName} onChange={(e) => setPasteName(e.target.value)} placeholder="e.g. vmstat-1.txt" maxLength={1000} />
          </div>
          <div className="field paste-text">
            <label htmlFor={textId}>Paste capture</label>
            <textarea
              id={textId}
              data-focus-key="capture-paste"
              rows={5}
              value={pasteText}
              spellCheck={false}
              placeholder="Paste the output of a tool here (Ctrl+Enter to parse)"
              aria-invalid={pasteError ? true : undefined}
              onChange={(e) => setPasteText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void submitPaste(); }
              }}
            />
          </div>
          <div className="form-actions start">
            <button type="submit" className="btn btn-primary">Parse</button>
            {pasteError && <span role="alert" className="error-text small">{pasteError}</span>}
          </div>
        </form>
      </section>

      <div role="status" aria-live="polite" className="capture-status">
        {jobs.map((j) => (
          <p key={j.id} className="capture-progress">
            <span className="spinner" aria-hidden="true" />
            {j.label}
            {j.progress && j.progress.total > 1 && <span className="muted small"> ({j.progress.done} of {j.progress.total} done)</span>}
          </p>
        ))}
        {jobs.length > 0 && bytes && bytes.total > 0 && bytes.read < bytes.total && (
          <p className="muted small" data-testid="parse-bytes">{Math.floor((bytes.read / bytes.total) * 100)} % read</p>
        )}
      </div>
      {jobs.length > 0 && (
        <p className="capture-progress-actions">
          <button type="button" className="btn btn-small" onClick={cancel}>Cancel parsing</button>
        </p>
      )}

      {entries.length > 0 && (
        <section className="capture-results" aria-label="Parsed captures">
          <div className="title-row">
            <h2>Results <span className="count">{entries.length}</span></h2>
            <span className="row-actions">
              <button type="button" className="btn btn-small btn-primary" onClick={attachAll}>Store all on experiment…</button>
              <button type="button" className="btn btn-small" onClick={() => setEntries([])}>Clear results</button>
            </span>
          </div>
          {entries.map((entry) => (
            <CaptureCard
              key={entry.key}
              entry={entry}
              onRemove={() => {
                const refocus = focusAfterRemoval(`capture-entry:${entry.key}`, 'capture-paste');
                setEntries((es) => es.filter((x) => x.key !== entry.key));
                refocus();
              }}
              actions={entry.origin && !entry.shared && !entry.cancelled ? (
                <button type="button" className="btn btn-small" onClick={() => setAttach({ intakes: [entry.origin!], what: entry.name, keys: [entry.key] })}>
                  {storedKeys.has(entry.key) ? 'Store again…' : 'Store on experiment…'}
                </button>
              ) : undefined}
            />
          ))}
        </section>
      )}
      {attach && <AttachDialog intakes={attach.intakes} what={attach.what} onClose={() => setAttach(null)} onDone={() => markStored(attach.keys)} />}
      {entries.length === 0 && jobs.length === 0 && (
        <p className="muted">
          {stored.data?.total ? 'Nothing previewed. ' : 'No captures yet. '}Drop files above, choose them, or paste a tool&apos;s output
          {' '}to see what Tunebook reads from it; a preview is kept until the window closes, stored only once you store it on an experiment.
        </p>
      )}
      <StoredCaptures list={stored.data} error={stored.error} onMore={() => setStoredLimit((n) => n + STORED_PAGE)} />
    </div>
  );
}

/** The captures stored in the notebook, newest first: name, kind, size, and the experiments that use it. */
function StoredCaptures({ list, error, onMore }: { list: StoredCaptureList | undefined; error: string | null; onMore: () => void }) {
  const { navigate } = useApp();
  if (error) return <p role="alert" className="error-text">Could not list the stored captures: {error}</p>;
  if (!list || list.total === 0) return null;
  return (
    <section className="capture-results stored-captures" aria-label="Stored captures">
      <div className="title-row">
        <h2>Stored in this notebook <span className="count">{list.total.toLocaleString('en-US')}</span></h2>
      </div>
      <ul className="stored-capture-list">
        {list.items.map((c) => {
          const first = c.links[0];
          return (
            <li key={c.id} data-testid="stored-capture">
              <button type="button" className="link-button stored-capture-name" title={c.name}
                onClick={() => navigate({ name: 'capture', captureId: c.id, experimentId: first?.experimentId ?? null, tab: 'figures' })}>
                {c.name}
              </button>
              <span className={`badge capture-kind ${c.kind === 'text' ? 'capture-kind-text' : ''}`}>{c.kind}</span>
              <span className="muted small">{formatQuantity(c.bytes, 'B')} · {plural(c.lines, 'line')}</span>
              {first && (
                <span className="small stored-capture-where">
                  on <button type="button" className="link-button" onClick={() => navigate({ name: 'study', studyId: first.studyId, experimentId: first.experimentId })}>
                    {first.studyTitle} › {first.experimentTitle}
                  </button>
                  {c.links.length > 1 && <span className="muted"> and {plural(c.links.length - 1, 'other experiment')}</span>}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {list.items.length < list.total && (
        <p><button type="button" className="btn btn-small" onClick={onMore}>Show {Math.min(STORED_PAGE, list.total - list.items.length)} more</button></p>
      )}
    </section>
  );
}
