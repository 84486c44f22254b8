/**
 * Two experiments side by side, from any studies or machines: their metrics' deltas (in units, and
 * in percent), as bars; the config changes each records and the settings snapshots they share; the
 * hardware profiles field by field (all, or only what differs); and the series of captures of the
 * same kind on both, overlaid on one chart.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ExperimentComparison, ExperimentRef, SeriesPoints } from '../../../../shared/model';
import type { FieldDiff } from '../../../../shared/sideBySide';
import { metricInfo } from '../../../../shared/metrics';
import { displayScale, formatNumber, formatQuantity } from '../../../../shared/units';
import { describeError } from '../../api';
import { useApp } from '../../app/AppContext';
import { experimentChanged, profilesChanged, studiesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { BarChart } from '../../components/Chart/BarChart';
import { SeriesChart } from '../../components/Chart/SeriesChart';
import { formatPercent, labelsText } from '../../../../shared/format';
import './comparison.css';

export function CompareView({ a, b }: { a: number | null; b: number | null }) {
  const { navigate } = useApp();
  const index = useQuery('experiment-index', (api) => api.experimentIndex(), { on: studiesChanged });
  const cmp = useQuery(a !== null && b !== null ? `compare:${a}:${b}` : null, (api) => api.compareExperiments(a!, b!), { on: (c) => experimentChanged(a)(c) || experimentChanged(b)(c) || profilesChanged(c) });
  const set = (side: 'a' | 'b', id: number | null) => navigate({ name: 'compare', a: side === 'a' ? id : a, b: side === 'b' ? id : b });
  const c = cmp.data;
  return (
    <div className="view compare-view">
      <h1>Side by side</h1>
      <div className="pickers">
        <ExperimentPicker label="A" value={a} options={index.data ?? []} onChange={(id) => set('a', id)} />
        <ExperimentPicker label="B" value={b} options={index.data ?? []} onChange={(id) => set('b', id)} />
      </div>
      {cmp.error && <p role="alert" className="error-text">{cmp.error}</p>}
      {(a === null || b === null) && <p className="muted">Choose two experiments — from any studies — to compare them.</p>}
      {c && (
        <>
          <Metrics c={c} />
          <Differences title="Config changes" rows={c.config} c={c} empty="Neither experiment records a config change." testId="config-diff" />
          {c.settings.map((s) => <SettingsDiff key={`${s.kind}-${s.scope}`} s={s} c={c} />)}
          <Differences title="Hardware" rows={c.a.profile || c.b.profile ? c.profile : []} c={c} empty="Neither experiment has a hardware profile." testId="profile-diff" />
          {c.series.length > 0 && <Overlay c={c} />}
        </>
      )}
    </div>
  );
}

function ExperimentPicker({ label, value, options, onChange }: { label: 'A' | 'B'; value: number | null; options: ExperimentRef[]; onChange: (id: number | null) => void }) {
  const studies = useMemo(() => {
    const m = new Map<number, { title: string; items: ExperimentRef[] }>();
    for (const o of options) {
      const g = m.get(o.studyId) ?? { title: o.studyTitle, items: [] };
      g.items.push(o);
      m.set(o.studyId, g);
    }
    return [...m.entries()];
  }, [options]);
  return (
    <label className="field">
      <span className={`side-${label.toLowerCase()}`}>Experiment {label}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">— choose —</option>
        {studies.map(([id, g]) => (
          <optgroup key={id} label={g.title}>
            {g.items.map((o, i) => <option key={o.id} value={o.id}>{i === 0 ? 'Baseline' : `Step ${i}`} · {o.title}</option>)}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

const sideTitle = (c: ExperimentComparison, side: 'a' | 'b') => `${c[side].experiment.title}${c.a.studyTitle !== c.b.studyTitle ? ` (${c[side].studyTitle})` : ''}`;

function Metrics({ c }: { c: ExperimentComparison }) {
  const shared = c.metrics.filter((m) => m.a !== null && m.b !== null);
  return (
    <section className="panel" aria-labelledby="cmp-metrics">
      <h2 id="cmp-metrics">Metrics</h2>
      {c.metrics.length === 0 ? <p className="muted">Neither experiment has results.</p> : (
        <div className="table-scroll">
          <table className="grid-table compare-table" data-testid="metric-deltas">
            <thead><tr><th>Metric</th><th className="num side-a">A · {sideTitle(c, 'a')}</th><th className="num side-b">B · {sideTitle(c, 'b')}</th><th className="num">B − A</th><th className="num">Change</th></tr></thead>
            <tbody>
              {c.metrics.map((m) => (
                <tr key={m.name} data-testid="metric-delta">
                  <td className="mono">{m.name}</td>
                  <td className="num">{m.a === null ? '—' : formatQuantity(m.a, m.unit, m.name)}{m.aRuns > 1 && <span className="muted small"> (median of {m.aRuns})</span>}</td>
                  <td className="num">{m.b === null ? (m.comparable ? '—' : <span className="muted small">not comparable</span>) : formatQuantity(m.b, m.unit, m.name)}{m.bRuns > 1 && <span className="muted small"> (median of {m.bRuns})</span>}</td>
                  <td className="num" data-testid="delta-abs">{m.delta === null ? '—' : `${m.delta > 0 ? '+' : m.delta < 0 ? '\u2212' : ''}${formatQuantity(Math.abs(m.delta), m.unit, m.name)}`}</td>
                  <td className="num" data-testid="delta-percent">{formatPercent(m.deltaPercent)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shared.length > 0 && (
        <div className="bars-grid">
          {shared.map((m) => {
            const scale = displayScale(m.unit, Math.max(Math.abs(m.a!), Math.abs(m.b!)), m.name);
            return (
              <BarChart
                key={m.name}
                bars={[
                  // the experiments by name, so an exported chart says what A and B were
                  { label: `A · ${shortTitle(c.a.experiment.title)}`, value: m.a! * scale.factor, text: formatQuantity(m.a!, m.unit, m.name), tone: 'a' },
                  { label: `B · ${shortTitle(c.b.experiment.title)}`, value: m.b! * scale.factor, text: formatQuantity(m.b!, m.unit, m.name), tone: 'b' },
                ]}
                title={`${metricInfo(m.name).label} · ${m.name}`}
                yTitle={scale.label}
                ariaLabel={`${m.name}: A against B`}
                exportName={`${c.a.experiment.title} vs ${c.b.experiment.title} - ${m.name}`}
              />
            );
          })}
        </div>
      )}
    </section>
  );
}

/** Field-by-field differences (config changes, hardware) with an "only what differs" toggle. */
function Differences({ title, rows, c, empty, testId }: { title: string; rows: FieldDiff[]; c: ExperimentComparison; empty: string; testId: string }) {
  const [onlyDiff, setOnlyDiff] = useState(true);
  const shown = onlyDiff ? rows.filter((r) => !r.same) : rows;
  const id = `cmp-${testId}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="title-row">
        <h2 id={id}>{title}</h2>
        <label className="small"><input type="checkbox" checked={onlyDiff} onChange={(e) => setOnlyDiff(e.target.checked)} /> Only what differs</label>
      </div>
      {rows.length === 0 ? <p className="muted">{empty}</p> : shown.length === 0 ? <p className="muted">No differences.</p> : (
        <table className="grid-table compare-table" data-testid={testId}>
          <thead><tr><th />
            <th className="side-a">A · {sideTitle(c, 'a')}</th><th className="side-b">B · {sideTitle(c, 'b')}</th></tr></thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.key} className={r.same ? 'same' : 'differs'} data-testid={`${testId}-row`}>
                <td className="mono small">{r.label}</td>
                <td className="mono small">{r.a ?? <span className="muted">—</span>}</td>
                <td className="mono small">{r.b ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function SettingsDiff({ s, c }: { s: ExperimentComparison['settings'][number]; c: ExperimentComparison }) {
  return (
    <Differences
      title={`Settings: ${s.scope} (${s.aName} against ${s.bName})`}
      rows={s.changes.map((x) => ({ key: x.key, label: x.key, a: x.before, b: x.after, same: false }))}
      c={c}
      empty=""
      testId={`settings-${s.kind}`}
    />
  );
}

/** Series of captures of the same kind on both sides, on one chart (time from each capture's start). */
function Overlay({ c }: { c: ExperimentComparison }) {
  const { api } = useApp();
  const [kind, setKind] = useState(c.series[0]!.kind);
  const pair = c.series.find((s) => s.kind === kind) ?? c.series[0]!;
  const capA = useQuery(`capture:${pair.a.captureId}:`, (x) => x.getCapture(pair.a.captureId));
  const capB = useQuery(`capture:${pair.b.captureId}:`, (x) => x.getCapture(pair.b.captureId));
  const columns = useMemo(() => [...new Set((capA.data?.parsed.series ?? []).map((s) => s.column))], [capA.data]);
  const [column, setColumn] = useState<string | null>(null);
  const col = column ?? (columns.includes('w/s') ? 'w/s' : columns[0] ?? null);
  // the column's series on A (one per device, CPU, process …): which one to overlay
  const variants = useMemo(() => (capA.data?.parsed.series ?? []).filter((s) => s.column === col).map((s) => labelsText(s.labels)), [capA.data, col]);
  const [variant, setVariant] = useState<string | null>(null);
  const chosen = variant !== null && variants.includes(variant) ? variant : variants.includes('cpu=all') ? 'cpu=all' : variants[0] ?? '';
  const [points, setPoints] = useState<SeriesPoints[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!capA.data || !capB.data || col === null) return;
    // the same column on both sides; the same labels (device, cpu …) where B has them
    const ia = capA.data.parsed.series.findIndex((s) => s.column === col && labelsText(s.labels) === chosen);
    const sa = capA.data.parsed.series[ia];
    const sameLabels = capB.data.parsed.series.findIndex((s) => s.column === col && JSON.stringify(s.labels ?? {}) === JSON.stringify(sa?.labels ?? {}));
    const ib = sameLabels >= 0 ? sameLabels : capB.data.parsed.series.findIndex((s) => s.column === col);
    if (ia < 0 || ib < 0) { setPoints([]); return; }
    let live = true;
    Promise.all([api.captureSeries(pair.a.captureId, ia), api.captureSeries(pair.b.captureId, ib)]).then(
      (r) => { if (live) { setPoints(r); setError(null); } },
      (e) => { if (live) setError(describeError(e).message); },
    );
    return () => { live = false; };
  }, [api, capA.data, capB.data, col, chosen, pair.a.captureId, pair.b.captureId]);

  const chart = useMemo(() => {
    if (!points || points.length < 2) return null;
    const scale = displayScale(points[0]!.unit, Math.max(0, ...points.flatMap((p) => p.y.map((v) => Math.abs(v ?? 0)))), points[0]!.name);
    const time = points.every((p) => p.xIsTime);
    const traces = points.map((p, i) => ({
      name: `${i === 0 ? 'A' : 'B'} · ${i === 0 ? c.a.experiment.title : c.b.experiment.title}${p.labels ? ` (${Object.values(p.labels).join(' ')})` : ''}`,
      // from each capture's own start, so runs taken at different times line up
      x: p.x.map((x) => (time ? (x - (p.x[0] ?? 0)) / 1000 : x)),
      y: p.y.map((v) => (v === null ? null : v * scale.factor)),
    }));
    return { traces, time, yTitle: `${points[0]!.column}${scale.label && scale.label !== '/s' ? ` (${scale.label})` : ''}` };
  }, [points, c]);

  return (
    <section className="panel" aria-labelledby="cmp-series">
      <h2 id="cmp-series">Series, overlaid</h2>
      <div className="series-controls">
        {c.series.length > 1 && (
          <label className="field inline"><span>Captures</span>
            <select value={kind} onChange={(e) => { setKind(e.target.value); setColumn(null); }}>
              {c.series.map((s) => <option key={s.kind} value={s.kind}>{s.kind}: {s.a.name} / {s.b.name}</option>)}
            </select>
          </label>
        )}
        <label className="field inline"><span>Column</span>
          <select value={col ?? ''} onChange={(e) => setColumn(e.target.value)}>
            {columns.map((x) => <option key={x} value={x}>{x}</option>)}
          </select>
        </label>
        {variants.length > 1 && (
          <label className="field inline"><span>Of</span>
            <select aria-label="Series of the column" value={chosen} onChange={(e) => setVariant(e.target.value)}>
              {variants.map((x) => <option key={x} value={x}>{x || '(whole)'}</option>)}
            </select>
          </label>
        )}
        <span className="muted small">{pair.a.name} (A) and {pair.b.name} (B)</span>
      </div>
      {error && <p role="alert" className="error-text">{error}</p>}
      {points && points.length === 0 && <p className="muted">B has no series of that column.</p>}
      {chart && (
        <SeriesChart traces={chart.traces} xIsTime={false} xTitle={chart.time ? 'seconds from the start' : 'sample'} yTitle={chart.yTitle}
          ariaLabel={`${col} of A and B overlaid`} exportName={`${c.a.experiment.title} vs ${c.b.experiment.title} - ${col}`} />
      )}
      {points && points.length === 2 && (
        <p className="muted small" data-testid="overlay-points">{formatNumber(points[0]!.total)} and {formatNumber(points[1]!.total)} samples</p>
      )}
    </section>
  );
}

/** An experiment's title shortened for a bar's label (the full title is the chart's hover and the view's header). */
function shortTitle(title: string): string {
  return title.length > 28 ? `${title.slice(0, 27)}…` : title;
}
