/**
 * One stored capture: what Tunebook read from it (figures in readable units, findings, facts and
 * settings), its raw text, and its time series; the experiments it is on and the results taken
 * from it, both ways. A figure becomes a result in one action.
 */
import { useState } from 'react';
import type { Metric } from '../../../../shared/capture/types';
import { resultFromMetric } from '../../../../shared/evidence';
import { formatNumber, formatQuantity } from '../../../../shared/units';
import { useApp } from '../../app/AppContext';
import type { CaptureTab } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { never } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { CaptureBody } from '../captures/CaptureCard';
import '../captures/captures.css';
import { RawText } from './RawText';
import { SeriesExplorer } from './SeriesExplorer';
import { adviceFor } from '../../../../shared/advice';

const TABS: { id: CaptureTab; label: string }[] = [
  { id: 'figures', label: 'Figures' },
  { id: 'raw', label: 'Raw text' },
  { id: 'charts', label: 'Charts' },
];

export function CaptureView({ captureId, experimentId, line, tab }: { captureId: number; experimentId: number | null; line: number | null; tab: CaptureTab }) {
  const { navigate } = useApp();
  const run = useAction();
  const q = useQuery(`capture:${captureId}:${experimentId ?? ''}`, (api) => api.getCapture(captureId, experimentId ?? undefined));
  const kinds = useQuery('capture-kinds', (api) => api.captureKinds(), { on: never });
  const [shownLine, setShownLine] = useState<number | null>(line);
  // the lines a finding's evidence or a figure spans ("lines 15-17"): all of them are marked in the raw text
  const [span, setSpan] = useState<{ first: number; last: number } | null>(null);
  const go = (next: { tab?: CaptureTab; line?: number }) => navigate({ name: 'capture', captureId, experimentId, tab: next.tab ?? tab, ...(next.line ? { line: next.line } : {}) });

  if (q.error) return <div className="view"><p role="alert" className="error-text">{q.error}</p></div>;
  const c = q.data;
  if (!c) return <div className="view"><p className="muted">Loading…</p></div>;
  const here = c.links.find((l) => l.experimentId === experimentId) ?? null;
  const tabs = TABS.filter((t) => t.id !== 'charts' || c.parsed.series.length > 0);

  // a finding's suggestion as a planned experiment at the end of the study, its config changes filled in
  const plan = (findingId: string) => {
    const p = adviceFor(findingId)?.plan;
    if (!here || !p) return;
    void run(async (api) => {
      const e = await api.createExperiment(here.studyId, { title: p.title, status: 'planned', notes: `Suggested by ${findingId} in ${c.name}.` });
      for (const change of p.changes) await api.addConfigChange(e.id, change);
      navigate({ name: 'study', studyId: here.studyId, experimentId: e.id });
    });
  };

  const useAsResult = (m: Metric, primary: boolean) => {
    if (!here) return;
    const cand = resultFromMetric(m, c.id, c.parsed.metrics);
    void run((api) => api.addResultMetric(here.experimentId, { name: cand.name, value: cand.value, unit: cand.unit, better: cand.better, primary, source: cand.source }));
  };

  return (
    <div className="view capture-view">
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        {here ? (
          <button type="button" className="link-button" onClick={() => navigate({ name: 'study', studyId: here.studyId, experimentId: here.experimentId })}>
            {here.studyTitle} › {here.experimentTitle}
          </button>
        ) : <span className="muted">Stored capture</span>}
      </nav>
      <header className="title-row">
        <h1 className="capture-title" title={c.name}>{c.name}</h1>
        <span className={`badge capture-kind ${c.kind === 'text' ? 'capture-kind-text' : ''}`}>{c.kind}</span>
        <label className="field inline small">
          <span>Read as</span>
          <select aria-label="Read as" value={c.forcedKind ?? ''} onChange={(e) => void run((api) => api.setCaptureKind(c.id, e.target.value || null))}>
            <option value="">detected ({c.forcedKind ? 'detect again' : `${Math.round(c.confidence * 100)} %`})</option>
            {(kinds.data ?? []).map((k) => <option key={k.id} value={k.id}>{k.id}</option>)}
            <option value="text">text (not parsed)</option>
          </select>
        </label>
      </header>
      <p className="muted small capture-facts">
        {formatQuantity(c.bytes, 'B')} · {formatNumber(c.lines)} lines · <span title={c.sha256}>sha256 {c.sha256.slice(0, 12)}…</span>
      </p>
      {c.links.length > 0 && (
        <p className="small capture-used">
          On {c.links.map((l, i) => (
            <span key={l.linkId}>{i > 0 && ', '}
              <button type="button" className="link-button" onClick={() => navigate({ name: 'study', studyId: l.studyId, experimentId: l.experimentId })}>{l.studyTitle} › {l.experimentTitle}</button>
            </span>
          ))}
          {c.results.length > 0 && <> · results taken from it: {c.results.map((r) => `${r.name}${r.primary ? ' (primary)' : ''}`).join(', ')}</>}
        </p>
      )}
      {here?.note && <p className="capture-link-note">{here.note}</p>}

      <div role="tablist" aria-label="Capture views" className="tabs" onKeyDown={(e) => {
        // arrows move between the tabs (the ARIA tabs pattern); the selected tab is the one in the Tab order
        const i = tabs.findIndex((t) => t.id === tab);
        const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i - 1 + tabs.length) % tabs.length] : null;
        if (!next) return;
        e.preventDefault();
        go({ tab: next.id, ...(shownLine ? { line: shownLine } : {}) });
        requestAnimationFrame(() => document.getElementById(`tab-${next.id}`)?.focus());
      }}>
        {tabs.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`tab ${tab === t.id ? 'active' : ''}`} onClick={() => go({ tab: t.id, ...(shownLine ? { line: shownLine } : {}) })}>{t.label}</button>
        ))}
      </div>
      <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="panel capture-panel">
        {tab === 'figures' && (
          <CaptureBody capture={c.parsed} actions={{
            ...(here ? { onUseAsResult: useAsResult, onPlan: plan } : {}),
            results: c.results.filter((r) => r.experimentId === experimentId),
            onShowLine: (n, last) => { setSpan(last !== undefined && last > n ? { first: n, last } : null); go({ tab: 'raw', line: n }); },
          }} />
        )}
        {tab === 'raw' && <RawText captureId={c.id} total={c.lines} line={line} lastLine={span && span.first === line ? span.last : null} onLine={setShownLine} />}
        {tab === 'charts' && <SeriesExplorer captureId={c.id} name={c.name} series={c.parsed.series} {...(c.parsed.context?.run ? { run: c.parsed.context.run } : {})} />}
      </section>
    </div>
  );
}
