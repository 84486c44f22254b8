/**
 * A stored capture's raw text with line numbers. Only the lines in view are fetched from the
 * notebook (pages of 500) and drawn (@tanstack/react-virtual), so a 1 GB log scrolls like a small
 * one. A browser cannot lay out more than a few million pixels, so very long captures are shown
 * in windows of WINDOW lines, moved by Go to line, a search hit, or the buttons at the ends.
 * Text from a capture is only ever a React text node, never HTML.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { CaptureMatches } from '../../../../shared/model';
import { formatNumber } from '../../../../shared/units';
import { describeError } from '../../api';
import { useApp } from '../../app/AppContext';

const PAGE = 500;
const ROW = 18;
/** lines laid out at once: 400,000 × 18 px stays under every browser's element height limit */
export const WINDOW = 400_000;

/** Inclusive 1-based lines marked in the text: a finding's evidence, a search hit, a line gone to. */
interface Marked { first: number; last: number }

export function RawText({ captureId, total, line, lastLine, onLine }: {
  captureId: number;
  total: number;
  /** the line to show (1-based), e.g. a finding's evidence */
  line: number | null;
  /** the evidence's last line when it is a range ("lines 15-17"): every line from `line` to it is marked */
  lastLine?: number | null;
  onLine?: (line: number) => void;
}) {
  const { api } = useApp();
  const scroller = useRef<HTMLDivElement>(null);
  const pages = useRef(new Map<number, string[] | 'loading'>());
  const [, setTick] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState<Marked | null>(line === null ? null : { first: line, last: Math.max(line, lastLine ?? line) });
  // the window of lines laid out: [base + 1, base + count]
  const [base, setBase] = useState(() => windowStart(line ?? 1, total));
  const count = Math.min(WINDOW, Math.max(0, total - base));

  const virtual = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 30 });
  const items = virtual.getVirtualItems();

  // fetch the pages the visible rows are on
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (!items.length) return;
    const from = Math.floor((base + first) / PAGE);
    const to = Math.floor((base + last) / PAGE);
    for (let p = from; p <= to; p++) {
      if (pages.current.has(p)) continue;
      pages.current.set(p, 'loading');
      api.captureLines(captureId, p * PAGE + 1, PAGE).then(
        (r) => { pages.current.set(p, r.lines); setTick((t) => t + 1); },
        (e) => { pages.current.delete(p); setError(describeError(e).message); },
      );
    }
  }, [api, captureId, base, first, last, items.length]);

  // go to a line (or a range of lines): move the window when its first line is outside, then
  // scroll the range into the middle (a range taller than the view: its first line at the top)
  const goTo = useCallback((n: number, end?: number | null) => {
    const clamp = (x: number) => Math.min(Math.max(1, Math.round(x)), Math.max(1, total));
    const l = clamp(n);
    setTarget({ first: l, last: Math.max(l, clamp(end ?? l)) });
    onLine?.(l);
    if (l - 1 < base || l - 1 >= base + WINDOW) setBase(windowStart(l, total));
  }, [base, total, onLine]);
  // a new line or range from outside (a finding, a search hit of the page): go there
  useEffect(() => { if (line !== null) goTo(line, lastLine); }, [line, lastLine]);
  useEffect(() => {
    if (target === null || target.first - 1 < base || target.first - 1 >= base + count) return;
    const tall = target.last - target.first + 1 > (scroller.current?.clientHeight ?? 0) / ROW - 2;
    if (tall) virtual.scrollToIndex(target.first - 1 - base, { align: 'start' });
    else virtual.scrollToIndex(Math.min(base + count, Math.floor((target.first + target.last) / 2)) - 1 - base, { align: 'center' });
  }, [target, base, count, virtual]);

  const textOf = (n: number): string | null => {
    const page = pages.current.get(Math.floor((n - 1) / PAGE));
    return Array.isArray(page) ? page[(n - 1) % PAGE] ?? '' : null;
  };

  return (
    <div className="raw-text">
      <RawTextTools captureId={captureId} total={total} onGo={goTo} />
      {error && <p role="alert" className="error-text">{error}</p>}
      {base > 0 && (
        <button type="button" className="link-button small" onClick={() => goTo(Math.max(1, base - WINDOW + 1))}>
          Show lines {formatNumber(Math.max(1, base - WINDOW + 1))}–{formatNumber(base)}
        </button>
      )}
      <div ref={scroller} className="raw-scroll" tabIndex={0} role="region" aria-label={`Raw text, lines ${formatNumber(base + 1)} to ${formatNumber(base + count)} of ${formatNumber(total)}`}>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((it) => {
            const n = base + it.index + 1;
            const text = textOf(n);
            return (
              <div key={it.key} className={`raw-line ${target && n >= target.first && n <= target.last ? 'target' : ''}`} data-line={n}
                style={{ position: 'absolute', top: 0, left: 0, transform: `translateY(${it.start}px)`, height: ROW }}>
                <span className="raw-no" aria-hidden="true">{n}</span>
                <span className="raw-content">{text ?? '\u00a0'}</span>
              </div>
            );
          })}
        </div>
      </div>
      {base + count < total && (
        <button type="button" className="link-button small" onClick={() => goTo(base + WINDOW + 1)}>
          Show lines {formatNumber(base + WINDOW + 1)}–{formatNumber(Math.min(total, base + 2 * WINDOW))}
        </button>
      )}
    </div>
  );
}

/** The window that puts `line` well inside it. */
function windowStart(line: number, total: number): number {
  if (total <= WINDOW) return 0;
  return Math.max(0, Math.min(line - 1 - WINDOW / 2, total - WINDOW));
}

/** matches fetched at once; stepping past the last one fetched fetches the next page */
export const FIND_PAGE = 1000;

/**
 * Search within the capture (all of it, in the back end) and Go to line. Matches come a page at a
 * time: ↓ past the last one fetched asks for the next page, from the line after it, so every match
 * can be reached; while more may follow the count says so ("1,001 of 2,000+").
 */
function RawTextTools({ captureId, total, onGo }: { captureId: number; total: number; onGo: (line: number) => void }) {
  const { api } = useApp();
  const [query, setQuery] = useState('');
  // the matches of every page fetched so far; `truncated`: more follow the last of them
  const [result, setResult] = useState<CaptureMatches | null>(null);
  const current = useRef(result);
  useEffect(() => { current.current = result; }, [result]);
  const [at, setAt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [lineText, setLineText] = useState('');

  const find = async (e?: FormEvent) => {
    e?.preventDefault();
    const q = query.trim();
    if (!q) { setResult(null); return; }
    if (result && result.query === q && result.matches.length) { step(1); return; }
    setBusy(true);
    setError(null);
    try {
      const r = await api.findInCapture(captureId, q, FIND_PAGE);
      setResult(r);
      setAt(0);
      if (r.matches[0]) onGo(r.matches[0].line);
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setBusy(false);
    }
  };
  const step = (d: number) => {
    if (!result?.matches.length || busy) return;
    const n = result.matches.length;
    if (at + d >= n && result.truncated) { void more(result); return; }
    // while more may follow, the last match is unknown: ↑ stays on the first rather than wrap
    if (at + d < 0 && result.truncated) return;
    const next = (at + d + n) % n;
    setAt(next);
    onGo(result.matches[next]!.line);
  };
  // the next page, from the line after the last match fetched; its first match is the one shown
  const more = async (r: CaptureMatches) => {
    setBusy(true);
    setError(null);
    try {
      const page = await api.findInCapture(captureId, r.query, FIND_PAGE, r.matches[r.matches.length - 1]!.line + 1);
      if (current.current !== r) return; // the query changed meanwhile
      const next = page.matches.length ? r.matches.length : 0;
      const all = [...r.matches, ...page.matches];
      setResult({ query: r.query, matches: all, truncated: page.truncated });
      setAt(next);
      onGo(all[next]!.line);
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setBusy(false);
    }
  };
  const go = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(lineText.replace(/[,\s]/g, ''));
    if (Number.isFinite(n) && n >= 1) onGo(n);
  };

  return (
    <div className="raw-tools">
      <form role="search" aria-label="Find in capture" className="inline-form" onSubmit={(e) => void find(e)}>
        <input type="search" aria-label="Find in capture" placeholder="Find in capture" value={query}
          onChange={(e) => { setQuery(e.target.value); if (result && result.query !== e.target.value.trim()) setResult(null); }}
          onKeyDown={(e) => { if (e.key === 'Enter' && e.shiftKey) { e.preventDefault(); step(-1); } }} />
        <button type="submit" className="btn btn-small" disabled={busy}>{busy ? 'Finding…' : 'Find'}</button>
        {result && result.matches.length > 0 && (
          <>
            {/* aria-disabled, not disabled: the button keeps the focus while a page loads or at the first match */}
            <button type="button" className="btn btn-small" aria-label="Previous match" aria-disabled={busy || (at === 0 && result.truncated)}
              title={at === 0 && result.truncated ? 'The first match; the last is not known until every page is fetched' : undefined} onClick={() => step(-1)}>↑</button>
            <button type="button" className="btn btn-small" aria-label="Next match" aria-disabled={busy} onClick={() => step(1)}>↓</button>
          </>
        )}
        <span className="muted small" role="status" data-testid="find-status">
          {result && (result.matches.length === 0 ? 'no match' : `${formatNumber(at + 1)} of ${formatNumber(result.matches.length)}${result.truncated ? '+' : ''} (line ${formatNumber(result.matches[at]!.line)})`)}
        </span>
      </form>
      <form className="inline-form" aria-label="Go to line" onSubmit={go}>
        <input aria-label="Line number" className="short num" inputMode="numeric" placeholder="line" value={lineText} onChange={(e) => setLineText(e.target.value)} />
        <button type="submit" className="btn btn-small">Go</button>
        <span className="muted small">{formatNumber(total)} lines</span>
      </form>
      {error && <p role="alert" className="error-text small">{error}</p>}
    </div>
  );
}
