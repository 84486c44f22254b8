/**
 * One parsed capture: what Tunebook read from it. Everything in a capture is untrusted text (a log
 * can contain `<script>`), so it is only ever rendered as React text nodes — never as HTML.
 */
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { CaptureJson, SeriesJson } from '../../../../shared/capture/json';
import type { FactValue, Labels, Metric } from '../../../../shared/capture/types';
import { formatBytes } from '../../../../shared/format';
import { formatQuantity } from '../../../../shared/units';
import {
  factText, formatConfidence, formatScaled, isPrimitiveFact, labelPairs, rawQuantity, scaleFor,
} from './formatCapture';
import type { CaptureEntry } from './parseCaptures';
import { adviceFor } from '../../../../shared/advice';

/** Lists longer than this start collapsed. */
const COLLAPSE_AFTER = 12;
/** Tables longer than this show their first rows and a "Show all" button. */
const TABLE_ROWS = 24;

export function CaptureCard({ entry, onRemove, actions }: { entry: CaptureEntry; onRemove: () => void; actions?: ReactNode }) {
  const headingId = useId();
  const c = entry.capture;
  return (
    <article className={`panel capture-card ${entry.error ? 'capture-failed' : ''}`} aria-labelledby={headingId} data-testid="capture-card"
      tabIndex={-1} data-focus-key={`capture-entry:${entry.key}`} data-focus-group="capture-entries">
      <header className="capture-head">
        <h2 id={headingId} className="capture-name">{entry.name}</h2>
        {c && (
          <>
            <span className={`badge capture-kind ${c.kind === 'text' ? 'capture-kind-text' : ''}`} title="Capture kind (parser)">{c.kind}</span>
            <span className="muted small" title={`Detection confidence ${c.confidence}`}>
              {entry.forcedKind ? 'kind chosen by you' : c.kind === 'text' ? 'not a format Tunebook reads' : `confidence ${formatConfidence(c.confidence)}`}
            </span>
          </>
        )}
        {entry.source === 'paste' && <span className="badge">pasted</span>}
        {actions && <span className="capture-card-actions push-right">{actions}</span>}
        <button type="button" className="btn-icon push-right" aria-label={`Remove ${entry.name}`} title="Remove from the list" onClick={onRemove}>×</button>
      </header>
      {entry.error && (entry.cancelled
        ? <p className="muted capture-error">{entry.error}</p>
        : <p role="alert" className="error-text capture-error">Could not parse: {entry.error}</p>)}
      {c && <CaptureBody capture={c} />}
    </article>
  );
}

/** What a stored capture's view adds to the figures: results taken from them, and jumps to the raw text. */
export interface CaptureBodyActions {
  /** make a figure a result of the experiment (primary or not) */
  onUseAsResult?: (m: Metric, primary: boolean) => void;
  /** the results already taken from this capture, to mark their figures */
  results?: readonly { metric: string; labels?: Labels; primary: boolean; name: string }[];
  /** open the raw text at a line (a finding's evidence, a figure's line); `last` ends a range of lines to mark */
  onShowLine?: (line: number, last?: number) => void;
  /** add a finding's suggestion (shared/advice.ts) as a planned experiment of the study */
  onPlan?: (findingId: string) => void;
}

/** What a finding means and what is usually tried next (shared/advice.ts), folded; its plan one click away. */
function FindingAdvice({ id, onPlan }: { id: string; onPlan: ((id: string) => void) | undefined }) {
  const a = adviceFor(id);
  if (!a) return null;
  return (
    <details className="finding-advice small" data-testid="finding-advice">
      <summary>What it means, what to try</summary>
      <dl>
        <dt>Means</dt><dd>{a.meaning}</dd>
        <dt>Try next</dt><dd>{a.tryNext}</dd>
        <dt>Expected effect</dt><dd>{a.effect}</dd>
        <dt>Risk</dt><dd>{a.risk}</dd>
      </dl>
      {a.plan && onPlan && (
        <button type="button" className="btn btn-small" onClick={() => onPlan(id)}>
          Plan “{a.plan.title}” as an experiment
        </button>
      )}
    </details>
  );
}

/** "lines 5-25" / "line 34" → 5 / 34 */
function firstLine(evidence: string | undefined): number | null {
  const m = /lines?\s+(\d+)/.exec(evidence ?? '');
  return m ? Number(m[1]) : null;
}

/** The last line of evidence such as "lines 15-17" (undefined for one line). */
function lastLine(evidence: string | undefined): number | undefined {
  const m = /lines\s+\d+\s*[-\u2013]\s*(\d+)/.exec(evidence ?? '');
  return m ? Number(m[1]) : undefined;
}

export function CaptureBody({ capture: c, actions = {} }: { capture: CaptureJson; actions?: CaptureBodyActions }) {
  const facts = Object.entries(c.facts);
  const settings = Object.entries(c.settings);
  const empty = !c.metrics.length && !c.series.length && !facts.length && !settings.length && !c.findings.length;
  return (
    <div className="capture-body">
      {(c.command || c.toolVersion || c.context) && (
        <dl className="capture-meta">
          {c.command && (<><dt>Command</dt><dd><code className="capture-command">{c.command}</code></dd></>)}
          {c.toolVersion && (<><dt>Tool version</dt><dd><code>{c.toolVersion}</code></dd></>)}
          {c.context?.started !== undefined && (<><dt>Ran</dt><dd data-testid="capture-ran">{utcSpan(c.context.started, c.context.ended)}</dd></>)}
          {c.context?.run && (
            <><dt>Around</dt><dd data-testid="capture-run"><code className="capture-command">{c.context.run.command}</code> ({utcSpan(c.context.run.started, c.context.run.ended)})</dd></>
          )}
          {c.context?.source && (<><dt>Told by</dt><dd>{c.context.source}</dd></>)}
        </dl>
      )}
      {c.findings.length > 0 && (
        <section aria-label="Findings">
          <h3>Findings</h3>
          <ul className="capture-findings">
            {c.findings.map((f, i) => (
              <li key={`${f.id}-${i}`} className={`finding finding-${f.severity}`} data-testid="capture-finding">
                <span className={`badge severity severity-${f.severity}`}>{f.severity}</span>
                <code className="finding-id">{f.id}</code>
                <span className="finding-message">{f.message}</span>
                {f.evidence && (actions.onShowLine && firstLine(f.evidence) !== null
                  ? <button type="button" className="link-button small finding-evidence" onClick={() => actions.onShowLine!(firstLine(f.evidence)!, lastLine(f.evidence))}>{f.evidence}</button>
                  : <span className="muted small finding-evidence">({f.evidence})</span>)}
                <FindingAdvice id={f.id} onPlan={actions.onPlan} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {c.warnings.length > 0 && (
        <section aria-label="Warnings">
          <h3>Warnings</h3>
          <ul className="capture-warnings">
            {c.warnings.map((w, i) => <li key={i}>{w}</li>)}
          </ul>
        </section>
      )}
      {c.metrics.length > 0 && <MetricsTable metrics={c.metrics} actions={actions} />}
      {c.series.length > 0 && <SeriesTable series={c.series} />}
      {facts.length > 0 && (
        <KeyValueSection title="Facts" count={facts.length}>
          {facts.map(([k, v]) => (
            <KeyValue key={k} name={k}><FactView name={k} value={v} depth={0} /></KeyValue>
          ))}
        </KeyValueSection>
      )}
      {settings.length > 0 && (
        <KeyValueSection title="Settings" count={settings.length}>
          {settings.map(([k, v]) => <KeyValue key={k} name={k}><code>{v}</code></KeyValue>)}
        </KeyValueSection>
      )}
      {empty && !c.warnings.length && <p className="muted small">Nothing was read from this capture.</p>}
    </div>
  );
}

function LabelList({ labels }: { labels: Labels | undefined }) {
  const pairs = labelPairs(labels);
  if (!pairs.length) return null;
  return (
    <span className="capture-labels">
      {pairs.map(([k, v]) => <span key={k} className="capture-label">{k}={v}</span>)}
    </span>
  );
}

function ShowAll({ shown, total, onClick }: { shown: number; total: number; onClick: () => void }) {
  if (shown >= total) return null;
  return (
    <p className="capture-more">
      <button type="button" className="link-button" onClick={onClick}>Show all {total.toLocaleString('en-US')} rows</button>
      <span className="muted small"> ({(total - shown).toLocaleString('en-US')} more)</span>
    </p>
  );
}

/** Text a row is found by: its column, canonical name and labels. */
function rowText(r: { name: string; column?: string; labels?: Labels }): string {
  return [r.column ?? '', r.name, ...labelPairs(r.labels).map(([k, v]) => `${k}=${v}`)].join(' ').toLowerCase();
}

/** A long table gets a filter box; returns the rows to show. */
function useRowFilter<T extends { name: string; column?: string; labels?: Labels }>(rows: T[]) {
  const [query, setQuery] = useState('');
  const [all, setAll] = useState(false);
  const q = query.trim().toLowerCase();
  const matching = q ? rows.filter((r) => rowText(r).includes(q)) : rows;
  // a handful more than the limit is shown whole rather than behind a "1 more" button
  const shown = all || matching.length <= TABLE_ROWS + 8 ? matching : matching.slice(0, TABLE_ROWS);
  return { query, setQuery, matching, shown, showAll: () => setAll(true), filterable: rows.length > TABLE_ROWS };
}

function FilterBox({ label, query, setQuery, matching, total }: { label: string; query: string; setQuery: (q: string) => void; matching: number; total: number }) {
  return (
    <span className="capture-filter">
      <input type="search" aria-label={label} placeholder="Filter (column, name, label)" value={query} onChange={(e) => setQuery(e.target.value)} />
      {query.trim() && <span className="muted small">{matching.toLocaleString('en-US')} of {total.toLocaleString('en-US')}</span>}
    </span>
  );
}

const sameLabels = (a: Labels | undefined, b: Labels | undefined): boolean => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

function MetricsTable({ metrics, actions }: { metrics: Metric[]; actions: CaptureBodyActions }) {
  const f = useRowFilter(metrics);
  const rows = f.shown;
  const resultOf = (m: Metric) => actions.results?.find((r) => r.metric === m.name && sameLabels(r.labels, m.labels));
  return (
    <section aria-label="Metrics">
      <div className="capture-section-head">
        <h3>Metrics <span className="count">{metrics.length}</span></h3>
        {f.filterable && <FilterBox label="Filter metrics" query={f.query} setQuery={f.setQuery} matching={f.matching.length} total={metrics.length} />}
      </div>
      <div className="capture-table-wrap">
        <table className="grid-table capture-table">
          <thead>
            <tr>
              <th scope="col">Metric</th><th scope="col" className="num">Value</th><th scope="col">Labels</th><th scope="col">Name</th>
              {actions.onUseAsResult && <th scope="col">Result</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((m, i) => (
              <tr key={i} data-testid="capture-metric">
                <td>
                  {actions.onShowLine && m.lines
                    ? <button type="button" className="link-button" title={m.lines[1] > m.lines[0] ? `Show lines ${m.lines[0]}–${m.lines[1]}` : `Show line ${m.lines[0]}`} onClick={() => actions.onShowLine!(m.lines![0], m.lines![1])}>{m.column ?? m.name}</button>
                    : m.column ?? m.name}
                </td>
                <td className="num" title={rawQuantity(m.value, m.unit)}>{formatQuantity(m.value, m.unit, m.name)}</td>
                <td><LabelList labels={m.labels} /></td>
                <td className="muted mono small">{m.name}</td>
                {actions.onUseAsResult && (
                  <td className="nowrap">
                    {resultOf(m) ? (
                      <span className="badge badge-primary" title={`Result “${resultOf(m)!.name}” of the experiment`}>{resultOf(m)!.primary ? 'primary result' : 'result'}</span>
                    ) : (
                      <>
                        <button type="button" className="link-button small" aria-label={`Use ${m.column ?? m.name}${labelPairs(m.labels).map(([k, v]) => ` ${k}=${v}`).join('')} as result`} onClick={() => actions.onUseAsResult!(m, false)}>use as result</button>
                        {' · '}
                        <button type="button" className="link-button small" aria-label={`Use ${m.column ?? m.name}${labelPairs(m.labels).map(([k, v]) => ` ${k}=${v}`).join('')} as primary result`} onClick={() => actions.onUseAsResult!(m, true)}>primary</button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowAll shown={rows.length} total={f.matching.length} onClick={f.showAll} />
    </section>
  );
}

/** "2026-12-01 00:31:51–00:31:55 UTC" (the end's day shown only when it differs) */
function utcSpan(from: number, to?: number): string {
  const a = new Date(from).toISOString();
  const start = `${a.slice(0, 10)} ${a.slice(11, 19)}`;
  if (to === undefined) return `${start} UTC`;
  const b = new Date(to).toISOString();
  return `${start}–${b.slice(0, 10) === a.slice(0, 10) ? '' : `${b.slice(0, 10)} `}${b.slice(11, 19)} UTC`;
}

function SeriesTable({ series }: { series: SeriesJson[] }) {
  const f = useRowFilter(series);
  const rows = f.shown;
  const sinceBoot = series.some((s) => s.firstSampleSinceBoot);
  // monitors recorded around a benchmark (a capture kit's): their mean while it ran, beside the whole
  const during = series.some((s) => s.run !== undefined);
  return (
    <section aria-label="Series">
      <div className="capture-section-head">
        <h3>Series <span className="count">{series.length}</span></h3>
        {f.filterable && <FilterBox label="Filter series" query={f.query} setQuery={f.setQuery} matching={f.matching.length} total={series.length} />}
      </div>
      <div className="capture-table-wrap">
        <table className="grid-table capture-table">
          <thead>
            <tr>
              <th scope="col">Column</th><th scope="col">Labels</th><th scope="col" className="num">Samples</th>
              <th scope="col" className="num">Mean</th><th scope="col" className="num">Min</th><th scope="col" className="num">Max</th>
              {during && <th scope="col" className="num" title="Mean of the samples taken while the benchmark ran">Mean during the run</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((s, i) => {
              const scale = scaleFor(s.unit, s.column, Math.max(Math.abs(s.min ?? 0), Math.abs(s.max ?? 0), Math.abs(s.mean ?? 0)));
              return (
                <tr key={i} data-testid="capture-series">
                  <td><span className="mono">{s.column}</span></td>
                  <td><LabelList labels={s.labels} /></td>
                  <td className="num">
                    {s.count.toLocaleString('en-US')}
                    {s.firstSampleSinceBoot && <abbr className="since-boot" title="The first sample covers the time since boot: counted here, left out of mean, min and max">*</abbr>}
                  </td>
                  <td className="num" title={rawQuantity(s.mean, s.unit)}>{formatScaled(s.mean, scale)}</td>
                  <td className="num" title={rawQuantity(s.min, s.unit)}>{formatScaled(s.min, scale)}</td>
                  <td className="num" title={rawQuantity(s.max, s.unit)}>{formatScaled(s.max, scale)}</td>
                  {during && (
                    <td className="num" data-testid="series-run-mean" title={s.run ? `${s.run.count} samples during the run` : 'no samples during the run'}>
                      {s.run ? formatScaled(s.run.mean, scale) : '—'}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ShowAll shown={rows.length} total={f.matching.length} onClick={f.showAll} />
      {sinceBoot && (
        <p className="muted small capture-note">
          * The first report covers the time since boot, not the interval: it is counted in Samples but left out of mean, min and max.
        </p>
      )}
    </section>
  );
}

function KeyValueSection({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  const long = count > COLLAPSE_AFTER;
  return (
    <section aria-label={title}>
      <details className="capture-kv" open={!long}>
        <summary><h3>{title} <span className="count">{count}</span></h3>{long && <span className="muted small"> (click to show)</span>}</summary>
        <dl className="kv-list">{children}</dl>
      </details>
    </section>
  );
}

function KeyValue({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="kv-row">
      <dt className="mono">{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A fact: a number, text, a list, or a nested record (fdisk disks, lscpu caches). */
function FactView({ name, value, depth }: { name: string; value: FactValue; depth: number }) {
  if (isPrimitiveFact(value)) {
    if (typeof value === 'number' && /_bytes$/.test(name) && Number.isInteger(value) && value >= 1024) {
      const short = formatBytes(value);
      if (short !== `${value} B`) return <span title={`${value} bytes`}>{short} <span className="muted small">({value.toLocaleString('en-US')} B)</span></span>;
    }
    return <span>{factText(value)}</span>;
  }
  if (depth > 3) return <code className="small">{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.every(isPrimitiveFact)) return <span>{value.map((v) => factText(v)).join(', ')}</span>;
    return (
      <ol className="fact-items">
        {value.map((v, i) => <li key={i}><FactView name={name} value={v} depth={depth + 1} /></li>)}
      </ol>
    );
  }
  return (
    <dl className="kv-list nested">
      {Object.entries(value).map(([k, v]) => (
        <KeyValue key={k} name={k}><FactView name={k} value={v} depth={depth + 1} /></KeyValue>
      ))}
    </dl>
  );
}
