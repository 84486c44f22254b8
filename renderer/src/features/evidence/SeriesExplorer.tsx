/**
 * The time series of a stored capture on a chart: choose the column (w/s, %util, cs …) and, for
 * each dimension the capture has (device, CPU, process …), one value or all of them. Points come
 * downsampled for the screen; zooming fetches the zoomed stretch in full detail.
 *
 * The dimension pickers narrow progressively (narrowDimensions): each offers the values of the
 * series that match the choices before it, so a chart always has a series to draw.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SeriesJson } from '../../../../shared/capture/json';
import type { CaptureRun } from '../../../../shared/capture/types';
import type { SeriesPoints } from '../../../../shared/model';
import { displayScale, formatNumber } from '../../../../shared/units';
import { describeError } from '../../api';
import { useApp } from '../../app/AppContext';
import { SeriesChart } from '../../components/Chart/SeriesChart';
import type { SeriesTrace } from '../../components/Chart/SeriesChart';
import { ALL, MAX_TRACES, narrowDimensions } from './seriesPickers';
import { labelsText } from '../../../../shared/format';

const POINTS = 1500;

const columnKey = (s: SeriesJson) => `${s.name}\u0001${s.column}`;

export function SeriesExplorer({ captureId, name, series, run }: { captureId: number; name: string; series: SeriesJson[]; run?: CaptureRun }) {
  const { api } = useApp();
  const columns = useMemo(() => {
    const seen = new Map<string, { key: string; label: string }>();
    for (const s of series) if (!seen.has(columnKey(s))) seen.set(columnKey(s), { key: columnKey(s), label: s.column === s.name ? s.column : `${s.column} (${s.name})` });
    return [...seen.values()];
  }, [series]);
  // start with a column that moves (not rrqm/s at zero throughout)
  const [pickedColumn, setColumn] = useState(() => {
    const moving = series.find((x) => x.min !== null && x.max !== null && x.max !== x.min) ?? series[0];
    return moving ? columnKey(moving) : '';
  });
  const column = columns.some((c) => c.key === pickedColumn) ? pickedColumn : columns[0]?.key ?? '';
  const inColumn = useMemo(() => series.map((s, index) => ({ s, index, labels: s.labels })).filter((x) => columnKey(x.s) === column), [series, column]);
  // what the user picked, per dimension; kept when the column changes (a pick not available falls back)
  const [picked, setPicked] = useState<Record<string, string>>({});
  const { dims, chosen } = useMemo(() => narrowDimensions(inColumn, picked), [inColumn, picked]);
  const chosenKey = chosen.map((c) => c.index).join(',');

  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [points, setPoints] = useState<SeriesPoints[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => { setRange(null); }, [chosenKey]);
  useEffect(() => {
    let live = true;
    const indices = chosenKey ? chosenKey.split(',').map(Number) : [];
    Promise.all(indices.map((i) => api.captureSeries(captureId, i, range, POINTS))).then(
      (r) => { if (live) { setPoints(r); setError(null); } },
      (e) => { if (live) setError(describeError(e).message); },
    );
    return () => { live = false; };
  }, [api, captureId, chosenKey, range]);

  const first = points[0];
  const scale = displayScale(first?.unit ?? '', Math.max(0, ...points.flatMap((p) => p.y.map((v) => Math.abs(v ?? 0)))), first?.name);
  const traces = useMemo<SeriesTrace[]>(() => points.map((p) => ({
    name: labelsText(p.labels) || p.column,
    x: p.x,
    y: p.y.map((v) => (v === null ? null : v * scale.factor)),
  })), [points, scale.factor]);
  const shown = points.reduce((n, p) => n + p.y.length, 0);
  const total = points.reduce((n, p) => n + p.total, 0);

  if (!series.length) return <p className="muted">This capture has no time series.</p>;
  return (
    <div className="series-explorer">
      <div className="series-controls">
        <label className="field inline">
          <span>Column</span>
          <select value={column} onChange={(e) => setColumn(e.target.value)}>
            {columns.map((c) => <option key={c.key} value={c.key}>{c.label}</option>)}
          </select>
        </label>
        {dims.map((d) => (
          <label key={d.key} className="field inline">
            <span>{d.key}</span>
            <select value={d.choice} onChange={(e) => setPicked((p) => ({ ...p, [d.key]: e.target.value }))}>
              {(d.values.length > 1 || d.missing) && <option value={ALL}>all ({d.values.length > MAX_TRACES ? `first ${MAX_TRACES}` : d.values.length}{d.missing ? ` + without ${d.key}` : ''})</option>}
              {d.values.map((v) => <option key={v} value={v}>{v}</option>)}
            </select>
          </label>
        ))}
        {range && <button type="button" className="btn btn-small" onClick={() => setRange(null)}>Whole series</button>}
      </div>
      {error && <p role="alert" className="error-text">{error}</p>}
      {first && (
        <SeriesChart
          traces={traces}
          xIsTime={first.xIsTime}
          xTitle={first.xIsTime ? 'time' : 'sample'}
          yTitle={`${first.column}${scale.label && !(scale.label === '/s' && /\/s(ec)?$/i.test(first.column)) ? ` (${scale.label})` : ''}`}
          ariaLabel={`Chart of ${first.column} over ${first.xIsTime ? 'time' : 'samples'}`}
          onRange={setRange}
          exportName={`${name.split('/').pop()} - ${first.column}`}
          {...(run ? { band: { from: run.started, to: run.ended, label: `run: ${run.command.length > 60 ? `${run.command.slice(0, 59)}…` : run.command}` } } : {})}
        />
      )}
      <p className="muted small" data-testid="series-points">
        {shown < total ? `${formatNumber(shown)} of ${formatNumber(total)} points shown (zoom in for every point)` : `${formatNumber(total)} points`}
        {series.some((s) => s.firstSampleSinceBoot) && ' · the since-boot first report is left out'}
      </p>
    </div>
  );
}
