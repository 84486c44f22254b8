import { describe, expect, it } from 'vitest';
import type { Experiment, ExperimentStatus, Requirement } from '../../shared/model';
import { computeTimeline, percentChange } from '../../shared/timeline';

let nextId = 1;
function exp(title: string, status: ExperimentStatus, metric?: { name: string; value: number }): Experiment {
  const id = nextId++;
  return {
    id, studyId: 1, position: id, title, profileId: null, date: '2026-11-29', notes: '', status, configChanges: [],
    metrics: metric ? [{ id, name: metric.name, value: metric.value, unit: '1/s', better: 'higher', primary: true }] : [],
    createdAt: '', updatedAt: '',
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
});
