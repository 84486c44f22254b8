import { describe, expect, it } from 'vitest';
import type { Experiment, ExperimentStatus, Requirement } from '../../shared/model';
import { computeTimeline, percentChange } from '../../shared/timeline';

let nextId = 1;
function exp(title: string, status: ExperimentStatus, metric?: { name: string; value: number; unit?: string }): Experiment {
  const id = nextId++;
  return {
    id, studyId: 1, position: id, title, profileId: null, date: '2026-11-29', notes: '', status, configChanges: [],
    metrics: metric ? [{ id, name: metric.name, value: metric.value, unit: metric.unit ?? '1/s', better: 'higher', primary: true, source: null }] : [],
    captures: [], createdAt: '', updatedAt: '',
  };
}
const rps = (value: number) => ({ name: 'requests_per_second', value });

describe('timeline', () => {
  it('rounds percent changes to 0.1 % and refuses a zero baseline', () => {
    expect(percentChange(140, 205)).toBe(46.4);
    expect(percentChange(205, 286)).toBe(39.5);
    expect(percentChange(140, 286)).toBe(104.3);
    expect(percentChange(0, 5)).toBeNull();
  });

  it('compares a step with the last kept step, not with a reverted or failed attempt', () => {
    const rows = computeTimeline([
      exp('baseline', 'kept', rps(140)),
      exp('opcache', 'kept', rps(205)),
      exp('pm.max_children 200', 'reverted', rps(190)),
      exp('broken build', 'failed', rps(20)),
      exp('phpredis', 'kept', rps(286)),
    ], []);
    expect(rows.map((r) => r.stepChangePercent)).toEqual([null, 46.4, -7.3, -90.2, 39.5]);
    expect(rows.map((r) => r.cumulativeChangePercent)).toEqual([null, 46.4, 35.7, -85.7, 104.3]);
  });

  it('leaves experiments without a primary metric blank and compares like with like', () => {
    const rows = computeTimeline([
      exp('baseline', 'kept', rps(6000)),
      exp('planned: sysctl', 'planned'),
      exp('latency run', 'kept', { name: 'latency_mean_seconds', value: 0.06 }),
      exp('sysctl', 'kept', rps(50000)),
    ], []);
    expect(rows.map((r) => r.value)).toEqual([6000, null, 0.06, 50000]);
    expect(rows[2]!.stepChangePercent).toBeNull();
    expect(rows[3]!.stepChangePercent).toBe(733.3);
  });

  it('checks every requirement on the metric (case study B: QPS ≥ 30,000)', () => {
    const reqs: Requirement[] = [
      { id: 1, metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: '1/s', label: 'QPS' },
      { id: 2, metric: 'latency_mean_seconds', comparator: '<=', threshold: 0.07, unit: 's', label: 'each request' },
    ];
    const rows = computeTimeline([exp('queue', 'kept', rps(6000)), exp('cache', 'kept', rps(20000)), exp('ulimit', 'kept', rps(22000)), exp('sysctl', 'kept', rps(50000))], reqs);
    expect(rows.map((r) => r.meetsGoal)).toEqual([false, false, false, true]);
  });

  it('computes changes on base values and never a percentage across units that differ (case study C)', () => {
    const bw = (v: number, unit = 'B/s') => ({ name: 'bandwidth_bytes_per_second', value: v, unit });
    const reqs: Requirement[] = [{ id: 1, metric: 'bandwidth_bytes_per_second', comparator: '>=', threshold: 100 * 2 ** 20, unit: 'B/s', label: '' }];
    const rows = computeTimeline([
      exp('random 4k', 'kept', bw(8788 * 1024)),
      exp('sequential 4k', 'kept', bw(168 * 2 ** 20)),
      exp('typed in IOPS by mistake', 'kept', bw(43000, '1/s')),
    ], reqs);
    // 8,788 KiB/s → 168 MiB/s is a gain, not −98.1 %
    expect(rows[1]!.stepChangePercent).toBe(1857.6);
    expect(rows.map((r) => r.meetsGoal)).toEqual([false, true, null]);
    expect(rows[2]).toMatchObject({ stepChangePercent: null, stepNotComparable: true, cumulativeChangePercent: null, cumulativeNotComparable: true });
    expect(rows[1]).toMatchObject({ stepNotComparable: false, cumulativeNotComparable: false });
  });

  it('compares a percent with a ratio in the same terms (errors ≤ 5 %)', () => {
    const reqs: Requirement[] = [{ id: 1, metric: 'error_ratio', comparator: '<=', threshold: 5, unit: '%', label: 'errors' }];
    const rows = computeTimeline([
      exp('502s', 'kept', { name: 'error_ratio', value: 0.3, unit: 'ratio' }),
      exp('fixed', 'kept', { name: 'error_ratio', value: 0, unit: '%' }),
    ], reqs);
    expect(rows.map((r) => r.meetsGoal)).toEqual([false, true]);
    expect(rows[1]!.stepChangePercent).toBe(-100);
  });
});
