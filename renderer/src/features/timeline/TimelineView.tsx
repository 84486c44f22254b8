import { useMemo } from 'react';
import type { Requirement, TimelineRow } from '../../../../shared/model';
import { useQuery } from '../../app/useQuery';
import { LineChart } from '../../components/Chart/LineChart';
import type { ChartSeries, GoalLine } from '../../components/Chart/LineChart';
import { StatusBadge } from '../../components/StatusBadge/StatusBadge';
import { COMPARATOR_LABELS, formatPercent } from '../../lib/format';
import { comparableUnits, convertValue, displayScale, formatQuantity } from '../../../../shared/units';

/** Is a change in this direction an improvement for this metric? */
function tone(p: number | null, better: TimelineRow['better']): string {
  if (p === null || better === null || Math.abs(p) < 0.05) return '';
  return (p > 0) === (better === 'higher') ? 'good' : 'bad';
}

/**
 * The story of the study: each experiment's primary metric with the step change and the cumulative
 * change from the baseline (computed by the back end's timeline()), and a chart with the goal lines.
 */
export function TimelineView({ studyId, requirements, onSelect }: {
  studyId: number;
  requirements: Requirement[];
  onSelect: (experimentId: number) => void;
}) {
  const timeline = useQuery(`timeline:${studyId}`, (api) => api.timeline(studyId));
  const rows = timeline.data ?? [];

  // The chart shows the metric most experiments have as primary (normally the study's one metric).
  const metric = useMemo(() => {
    const counts = new Map<string, number>();
    for (const r of rows) if (r.metric) counts.set(r.metric, (counts.get(r.metric) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  }, [rows]);
  // the chart's unit: the first value's; values in a unit it cannot be compared with are left off
  const { series, goals, scale } = useMemo(() => {
    const unit = rows.find((r) => r.metric === metric)?.unit ?? '';
    const inUnit = (r: TimelineRow): number | null => (r.metric === metric && r.value !== null ? convertValue(r.value, r.unit ?? '', unit) : null);
    const scale = displayScale(unit, Math.max(0, ...rows.map((r) => Math.abs(inUnit(r) ?? 0))), metric ?? undefined);
    const series: ChartSeries[] = metric ? [{
      name: metric,
      x: rows.map((r, i) => `${i === 0 ? 'B' : i}. ${r.title.length > 26 ? `${r.title.slice(0, 25)}…` : r.title}`),
      y: rows.map((r) => { const v = inUnit(r); return v === null ? null : v * scale.factor; }),
      text: rows.map((r) => (inUnit(r) !== null ? formatQuantity(r.value!, r.unit ?? '', metric) : '')),
    }] : [];
    const goals: GoalLine[] = requirements
      .filter((q) => q.metric === metric && comparableUnits(q.unit, unit))
      .map((q) => ({
        value: convertValue(q.threshold, q.unit, unit)! * scale.factor,
        label: `${q.label || q.metric} ${COMPARATOR_LABELS[q.comparator]} ${formatQuantity(q.threshold, q.unit, q.metric)}`,
      }));
    return { series, goals, scale };
  }, [rows, metric, requirements]);

  return (
    <section className="panel timeline" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      {timeline.error && <p role="alert" className="error-text">{timeline.error}</p>}
      {rows.length === 0 ? <p className="muted small">No experiments yet.</p> : (
        <div className="timeline-body">
          <table className="grid-table timeline-table">
            <thead>
              <tr>
                <th>#</th><th>Experiment</th><th>Status</th><th>Primary metric</th>
                <th className="num">Value</th><th className="num">Step</th><th className="num">Cumulative</th><th>Goal</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.experimentId} data-testid="timeline-row" className={`status-row-${r.status}`}>
                  <td className="muted">{i === 0 ? 'B' : i}</td>
                  <td><button type="button" className="link-button" onClick={() => onSelect(r.experimentId)}>{r.title}</button></td>
                  <td><StatusBadge status={r.status} /></td>
                  <td className="mono small">{r.metric ?? <span className="muted">no primary metric</span>}</td>
                  <td className="num" data-testid="timeline-value">{r.value === null ? '—' : formatQuantity(r.value, r.unit ?? '', r.metric ?? undefined)}</td>
                  <td className={`num ${tone(r.stepChangePercent, r.better)}`} data-testid="timeline-step">{r.stepNotComparable ? <NotComparable /> : formatPercent(r.stepChangePercent)}</td>
                  <td className={`num ${tone(r.cumulativeChangePercent, r.better)}`} data-testid="timeline-cumulative">{r.cumulativeNotComparable ? <NotComparable /> : formatPercent(r.cumulativeChangePercent)}</td>
                  <td data-testid="timeline-goal">
                    {r.meetsGoal === null ? <span className="muted">—</span>
                      : r.meetsGoal ? <span className="badge goal-met">✓ meets goal</span>
                      : <span className="badge goal-missed">✗ misses goal</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {metric && <LineChart series={series} goals={goals} yTitle={`${metric}${scale.label ? ` (${scale.label})` : ''}`} ariaLabel={`Chart of ${metric} across experiments`} />}
        </div>
      )}
    </section>
  );
}

/** A change between values in units that measure different things: never a percentage. */
function NotComparable() {
  return <span className="muted small" title="The values are in units that cannot be compared (e.g. IOPS and MiB/s)">not comparable</span>;
}
