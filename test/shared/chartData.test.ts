import { describe, expect, it } from 'vitest';
import { chainChart, MANY_POINTS, thinSeries, type ChartSeries } from '../../shared/chartData';
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
