import { describe, expect, it } from 'vitest';
import { chainChart, MANY_POINTS, metricChart, thinSeries, type ChartSeries } from '../../shared/chartData';
import { computeComparison } from '../../shared/timeline';
import type { MeasuredExperiment } from '../../shared/timeline';

/** A study of `n` kept steps measuring requests_per_second, with a reverted attempt now and then. */
function longStudy(n: number): MeasuredExperiment[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1, position: i, title: `step ${i}`, status: i % 17 === 5 ? 'reverted' as const : 'kept' as const,
    metrics: [{ id: i + 1, name: 'requests_per_second', value: 1000 + ((i * 7919) % 5000) + (i === 4321 ? 90_000 : 0), unit: '1/s', better: 'higher' as const, primary: true, source: null }],
  }));
}

describe('thinSeries: a long study drawn at the pixels it has', () => {
  const comparison = computeComparison(longStudy(10_000), []);
  const chart = chainChart(comparison, [], [])!;
  const line = chart.series[0]!;

  it('keeps at most two points a pixel, each with its own step, value and hover text, and never loses the peak', () => {
    expect(line.x).toHaveLength(10_000);
    const thin = thinSeries(line, null, 1000);
    expect(thin.x.length).toBeLessThanOrEqual(2000);
    expect(thin.x.length).toBeGreaterThan(1000);
    // every point kept is a point of the series, with the hover of that very step
    for (let k = 0; k < thin.x.length; k++) {
      const i = line.x.indexOf(thin.x[k]!);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(thin.y[k]).toBe(line.y[i]);
      expect(thin.hover![k]).toBe(line.hover![i]);
    }
    expect(Math.max(...thin.y.filter((v): v is number => v !== null))).toBe(Math.max(...line.y.filter((v): v is number => v !== null)));
  });

  it('draws every measured step of the range zoomed to once it fits (the line joins across the others)', () => {
    const zoomed = thinSeries(line, [4300, 4340], 1000);
    expect(zoomed.x).toEqual(line.x.filter((x, i) => (x as number) >= 4300 && (x as number) <= 4340 && line.y[i] !== null));
    expect(zoomed.x.length).toBeGreaterThan(35);
  });

  it('leaves short series and labelled (category) series whole', () => {
    const short: ChartSeries = { name: 's', x: [1, 2, 3], y: [1, null, 3], mode: 'line' };
    expect(thinSeries(short, null, 10)).toBe(short);
    const labelled: ChartSeries = { name: 'l', x: Array.from({ length: MANY_POINTS + 1 }, (_, i) => `${i}. step`), y: Array.from({ length: MANY_POINTS + 1 }, () => 1), mode: 'line' };
    expect(thinSeries(labelled, null, 10)).toBe(labelled);
  });
});

describe('attempts set apart on every chart, and never the step that meets the goal', () => {
  // kept baseline (fails), a reverted attempt that would meet everything, then a kept step that meets it
  const m = (id: number, name: string, value: number, unit: string, better: 'higher' | 'lower', primary = false) =>
    ({ id, name, value, unit, better, primary, source: null });
  const steps: MeasuredExperiment[] = [
    { id: 1, position: 0, title: 'baseline', status: 'kept', metrics: [m(1, 'requests_per_second', 900, '1/s', 'higher', true), m(2, 'cpu_percent', 90, '%', 'lower')] },
    { id: 2, position: 1, title: 'failed try', status: 'failed', metrics: [m(3, 'requests_per_second', 950, '1/s', 'higher', true), m(4, 'cpu_percent', 99, '%', 'lower')] },
    { id: 3, position: 2, title: 'reverted tweak', status: 'reverted', metrics: [m(5, 'requests_per_second', 1500, '1/s', 'higher', true), m(6, 'cpu_percent', 30, '%', 'lower')] },
    { id: 4, position: 3, title: 'kept tuning', status: 'kept', metrics: [m(7, 'requests_per_second', 1200, '1/s', 'higher', true), m(8, 'cpu_percent', 65, '%', 'lower')] },
  ];
  const requirements = [
    { id: 1, studyId: 1, metric: 'requests_per_second', comparator: '>=' as const, threshold: 1000, unit: '1/s', position: 0 },
    { id: 2, studyId: 1, metric: 'cpu_percent', comparator: '<=' as const, threshold: 70, unit: '%', position: 1 },
  ];
  const c = computeComparison(steps, requirements as never);

  it('the first experiment meeting every requirement is a kept one, not the reverted attempt that met them first', () => {
    expect(c.rows[2]!.requirements.every((q) => q.met)).toBe(true);
    expect(c.firstMeetingAll).toBe(4);
  });

  it('another metric\'s chart joins only the kept steps; the failed and reverted values are points of their own', () => {
    const chart = metricChart(c, 'cpu_percent', [], [])!;
    expect(chart.series.map((s) => [s.name, s.mode, s.y])).toEqual([
      ['cpu_percent', 'line', [90, null, null, 65]],
      ['failed or reverted (set apart)', 'points', [null, 99, 30, null]],
    ]);
  });
});
