/**
 * File › Export… (and the study's Export button): choose the format and the experiments, see the
 * report as it will read, export it. The preview is the very HTML file the export writes, shown in
 * a sandboxed frame that runs no script and loads nothing (the report's own policy forbids both).
 * The desktop app then asks where to save; browser mode downloads the file. The HTML report may
 * carry interactive charts too (plotly.js inline: it says how much that adds); the preview shows
 * the static charts, which the interactive file keeps.
 */
import { Fragment, useId, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import type { ReportFormat } from '../../../../shared/model';
import { formatNumber, formatQuantity } from '../../../../shared/units';
import { INTERACTIVE_EXTRA_BYTES } from '../../../../shared/report/interactive';
import { studyChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { useStudyOutline } from '../studies/useStudyData';
import { useWindowedRows } from '../../hooks/useWindowedRows';
import { Dialog } from '../../components/Dialog/Dialog';
import { useImport } from '../evidence/useImport';
import './reports.css';

const FORMATS: { id: ReportFormat; label: string; about: string }[] = [
  { id: 'html', label: 'HTML report', about: 'One self-contained file that opens offline in any browser: charts, verdicts, every step and its evidence.' },
  { id: 'md', label: 'Markdown', about: 'The same story as text for a wiki or a blog, with the charts as SVG images beside it.' },
  { id: 'pdf', label: 'PDF', about: 'The report on A4 pages, for printing or attaching.' },
  { id: 'eln', label: 'Bundle (.eln)', about: 'Everything, raw captures byte for byte: another Tunebook imports it with nothing lost, and lab notebooks such as eLabFTW read it.' },
];

export function ExportDialog({ studyId, onClose }: { studyId: number; onClose: () => void }) {
  const { exportStudy, busy } = useImport();
  const outline = useStudyOutline(studyId);
  const experiments = useMemo(() => outline.data?.experiments ?? [], [outline.data]);
  const [format, setFormat] = useState<ReportFormat>('html');
  // opt-in: plotly.js inline makes the file some thirty times larger
  const [interactive, setInteractive] = useState(false);
  // the study in full only for a bundle: its summary counts the distinct captures and their bytes
  const detail = useQuery(format === 'eln' ? `study-full:${studyId}` : null, (api) => api.getStudy(studyId), { on: studyChanged(studyId) });
  const rows = useWindowedRows(experiments.length, 22);
  // unticked experiments (so experiments added meanwhile are in by default)
  const [left, setLeft] = useState<Set<number>>(new Set());
  const chosen = experiments.filter((e) => !left.has(e.id));
  const subset = chosen.length < experiments.length ? chosen.map((e) => e.id) : null;
  const previewKey = chosen.length ? `report-preview:${studyId}:${subset?.join(',') ?? 'all'}` : null;
  const preview = useQuery(previewKey, (api) => api.reportPreview(studyId, subset));
  const chosenIds = new Set(chosen.map((e) => e.id));
  const captures = new Map((detail.data?.experiments ?? []).filter((e) => chosenIds.has(e.id)).flatMap((e) => e.captures.map((c) => [c.sha256, c.bytes] as const)));
  const ids = { formats: useId(), experiments: useId() };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await exportStudy(studyId, { format, experimentIds: subset, ...(format === 'html' && interactive ? { interactive: true } : {}) });
    if (r) onClose();
  };
  const toggle = (id: number, on: boolean) => setLeft((s) => { const n = new Set(s); if (on) n.delete(id); else n.add(id); return n; });

  return (
    <Dialog title={`Export “${outline.data?.study.title ?? '…'}”`} onClose={onClose} wide>
      <form className="form export-form" aria-label="Export" onSubmit={(e) => void submit(e)}>
        <div className="export-columns">
          <div className="export-options">
            <fieldset className="field">
              <legend id={ids.formats}>Format</legend>
              {FORMATS.map((f) => (
                <Fragment key={f.id}>
                  <label className="export-format">
                    <input type="radio" name="format" value={f.id} checked={format === f.id} onChange={() => setFormat(f.id)} />
                    <span><strong>{f.label}</strong><span className="muted small"> {f.about}</span></span>
                  </label>
                  {f.id === 'html' && format === 'html' && (
                    <label className="export-format export-interactive">
                      <input type="checkbox" checked={interactive} onChange={(ev) => setInteractive(ev.target.checked)} />
                      <span>
                        <strong>Interactive charts</strong>
                        <span className="muted small"> Each chart gets a button that draws it with zoom and hover. Adds plotly.js to the file, about {formatQuantity(INTERACTIVE_EXTRA_BYTES, 'B')}; the file still loads nothing, and only its own two scripts may run.</span>
                      </span>
                    </label>
                  )}
                </Fragment>
              ))}
            </fieldset>
            <fieldset className="field export-experiments">
              <legend id={ids.experiments}>Experiments <span className="muted small">({formatNumber(chosen.length)} of {formatNumber(experiments.length)})</span></legend>
              <div className="export-experiment-actions">
                <button type="button" className="btn btn-small" onClick={() => setLeft(new Set())}>All</button>
                <button type="button" className="btn btn-small" onClick={() => setLeft(new Set(experiments.map((x) => x.id)))}>None</button>
              </div>
              {/* a study of thousands: only the rows in view are drawn */}
              <div ref={rows.scrollRef} className="export-experiment-list">
                <div className="export-experiment-rows" style={rows.windowed ? { paddingTop: rows.padTop, paddingBottom: rows.padBottom } : undefined}>
                {rows.indices.map((i) => {
                  const x = experiments[i]!;
                  return (
                    <label key={x.id} className="small">
                      <input type="checkbox" checked={!left.has(x.id)} onChange={(ev) => toggle(x.id, ev.target.checked)} />
                      {' '}{i === 0 ? 'B' : i}. {x.title}
                    </label>
                  );
                })}
                </div>
              </div>
            </fieldset>
          </div>
          <div className="export-preview">
            {format === 'eln' && (
              <p className="small" data-testid="bundle-contents">
                The bundle holds {chosen.length} experiment{chosen.length === 1 ? '' : 's'} and {captures.size} capture{captures.size === 1 ? '' : 's'}
                {' '}({formatQuantity([...captures.values()].reduce((n, b) => n + b, 0), 'B')} of raw text), with the study&apos;s requirements and hardware profiles.
              </p>
            )}
            {!chosen.length ? <p className="muted">Choose at least one experiment.</p>
              : preview.error ? <p role="alert" className="error-text">{preview.error}</p>
                : preview.data ? <iframe className="report-preview" title="Report preview" sandbox="" srcDoc={preview.data} data-testid="report-preview" />
                  : <p className="muted">Preparing the preview…</p>}
          </div>
        </div>
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>Close</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !chosen.length}>Export {FORMATS.find((f) => f.id === format)!.label}</button>
        </div>
      </form>
    </Dialog>
  );
}
