import { describe, expect, it } from 'vitest';
import type { Experiment, ExperimentStatus, Requirement } from '../../shared/model';
import { computeComparison, computeTimeline, percentChange } from '../../shared/timeline';

let nextId = 1;
function exp(title: string, status: ExperimentStatus, metric?: { name: string; value: number; unit?: string }): Experiment {
  const id = nextId++;
  return {
    id, studyId: 1, position: id, title, profileId: null, date: '2026-11-29', notes: '', status, configChanges: [],
    metrics: metric ? [{ id, name: metric.name, value: metric.value, unit: metric.unit ?? '1/s', better: 'higher', primary: true, source: null }] : [],
    captures: [], createdAt: '', updatedAt: '',
  };
}

/** An experiment with several results: [name, value, unit, better?] (the first is primary; repeated names are runs). */
function measured(title: string, status: ExperimentStatus, results: [string, number, string, ('higher' | 'lower')?][]): Experiment {
  const e = exp(title, status);
  e.metrics = results.map(([name, value, unit, better], i) => ({ id: nextId++, name, value, unit, better: better ?? 'higher', primary: i === 0, source: null }));
  return e;
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

  it('judges every requirement on every experiment (case study B: four of five failing, then all five met)', () => {
    const reqs: Requirement[] = [
      { id: 1, metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: '1/s', label: 'QPS' },
      { id: 2, metric: 'db_load_percent', comparator: '<=', threshold: 50, unit: '%', label: 'database load' },
      { id: 3, metric: 'cpu_util_percent', comparator: '<=', threshold: 70, unit: '%', label: 'server load' },
      { id: 4, metric: 'latency_mean_seconds', comparator: '<=', threshold: 0.07, unit: 's', label: 'each request' },
      { id: 5, metric: 'error_ratio', comparator: '<=', threshold: 5, unit: '%', label: 'errors' },
    ];
    const c = computeComparison([
      measured('queue in Redis', 'kept', [['requests_per_second', 6000, '1/s'], ['db_load_percent', 100, '%', 'lower'], ['cpu_util_percent', 65, '%', 'lower'], ['latency_mean_seconds', 0.16, 's', 'lower'], ['error_ratio', 0.3, 'ratio', 'lower']]),
      measured('configs cached', 'kept', [['requests_per_second', 20000, '1/s'], ['cpu_util_percent', 85, '%', 'lower']]),
      measured('ulimit -n 100001', 'kept', [['requests_per_second', 22000, '1/s']]),
      measured('TIME_WAIT sysctls', 'kept', [['requests_per_second', 50000, '1/s'], ['db_load_percent', 30, '%', 'lower'], ['cpu_util_percent', 70, '%', 'lower'], ['latency_mean_seconds', 0.06, 's', 'lower'], ['error_ratio', 0, '%', 'lower']]),
      measured('next idea', 'planned', [['requests_per_second', 60000, '1/s']]),
    ], reqs);
    const met = c.rows.map((r) => r.requirements.map((q) => q.met));
    expect(met[0]).toEqual([false, false, true, false, false]);
    expect(met[1]).toEqual([false, null, false, null, null]);
    expect(met[3]).toEqual([true, true, true, true, true]);
    expect(met[4]).toEqual([null, null, null, null, null]); // planned: not judged
    // a step with CPU at 85 % against ≤ 70 % does not meet the goal
    expect(c.rows.map((r) => r.meetsGoal)).toEqual([false, false, false, true, null]);
    expect(c.rows[0]!.requirements[4]).toMatchObject({ value: 30, unit: '%' }); // 0.3 ratio judged as 30 %
    expect(c.firstMeetingAll).toBe(c.rows[3]!.experimentId);
    // the planned step is not on the line and has no change
    expect(c.rows[4]).toMatchObject({ inChain: false, stepChangePercent: null, value: 60000 });
    // shares of the gain 6,000 → 50,000: 14,000, 2,000 and 28,000 of 44,000
    expect(c.rows.map((r) => r.shareOfGainPercent)).toEqual([null, 31.8, 4.5, 63.6, null]);
    // every metric across the study, the primary first, each in its own unit
    expect(c.metrics.map((m) => [m.name, m.unit, m.primary])).toEqual([
      ['requests_per_second', '1/s', true], ['db_load_percent', '%', false], ['cpu_util_percent', '%', false],
      ['latency_mean_seconds', 's', false], ['error_ratio', 'ratio', false],
    ]);
    expect(c.metrics[2]!.value).toEqual([65, 85, null, 70, null]);
    expect(c.metrics[4]!.value).toEqual([0.3, null, null, 0, null]); // 0 % shown as a 0 ratio
    expect(c.metrics[0]!.value[4]).toBeNull(); // planned: not drawn
  });

  it('takes the median of repeated runs, and marks a step within the run-to-run spread as not significant', () => {
    const rows = computeTimeline([
      measured('baseline ×3', 'kept', [['requests_per_second', 140, '1/s'], ['requests_per_second', 150, '1/s'], ['requests_per_second', 138, '1/s']]),
      measured('noise ×3', 'kept', [['requests_per_second', 146, '1/s'], ['requests_per_second', 141, '1/s'], ['requests_per_second', 152, '1/s']]),
      measured('opcache ×2', 'kept', [['requests_per_second', 205, '1/s'], ['requests_per_second', 199, '1/s']]),
      measured('one run', 'kept', [['requests_per_second', 210, '1/s']]),
    ], []);
    expect(rows.map((r) => [r.value, r.runs])).toEqual([[140, 3], [146, 3], [202, 2], [210, 1]]);
    expect(rows[1]).toMatchObject({ spread: { min: 141, max: 152 }, significant: false, stepChangePercent: 4.3 });
    expect(rows[2]!.significant).toBe(true);
    expect(rows[3]!.significant).toBe(true); // one run at 210, above the 199–205 range before it
  });
});
