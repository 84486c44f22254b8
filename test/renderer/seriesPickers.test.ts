/**
 * The chart's dimension pickers narrow progressively (issue 6): each dimension offers the values of
 * the series matching the choices before it, one none of them has is not shown, a pick that is no
 * longer available falls back to the default, and a column with series always draws one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { SeriesJson } from '../../shared/capture/json';
import { ALL, narrowDimensions } from '../../renderer/src/features/evidence/seriesPickers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'captures');
/** the series of one column of a fixture, as the chart gets them */
function column(file: string, name: string): SeriesJson[] {
  const c = parseText(readFileSync(path.join(FIXTURES, file), 'utf8')) as unknown as { series: SeriesJson[] };
  return c.series.filter((s) => s.name === name);
}
const labelsOf = (chosen: { labels?: Readonly<Record<string, string>> }[]) => chosen.map((s) => s.labels);

describe('series pickers', () => {
  it('locust history: the Aggregated row (no method) is drawn by default, and method shows only where it exists', () => {
    const rps = column('locust/stats_history.csv', 'requests_per_second');
    expect(rps.length).toBeGreaterThan(1);
    const first = narrowDimensions(rps, {});
    expect(first.dims.map((d) => [d.key, d.choice])).toEqual([['endpoint', 'Aggregated']]);
    expect(labelsOf(first.chosen)).toEqual([{ endpoint: 'Aggregated' }]);

    const other = rps.find((s) => s.labels?.method)!.labels!;
    const picked = narrowDimensions(rps, { endpoint: other.endpoint! });
    expect(picked.dims.map((d) => [d.key, d.choice])).toEqual([['endpoint', other.endpoint], ['method', other.method]]);
    expect(picked.chosen).toHaveLength(1);

    // every endpoint: method offers "all" too, as the Aggregated row has none
    const every = narrowDimensions(rps, { endpoint: ALL, method: ALL });
    expect(every.dims[1]).toMatchObject({ key: 'method', missing: true, choice: ALL });
    expect(every.chosen).toHaveLength(rps.length);
    // the pick of a method goes back to Aggregated's default when Aggregated is chosen again
    expect(labelsOf(narrowDimensions(rps, { endpoint: 'Aggregated', method: 'GET' }).chosen)).toEqual([{ endpoint: 'Aggregated' }]);
  });

  it('pidstat: command comes before pid, and picking a command narrows the pids to its own', () => {
    const cpu = column('pidstat/u-1-2.txt', 'cpu_percent');
    const byDefault = narrowDimensions(cpu, {});
    expect(byDefault.dims.map((d) => d.key)).toEqual(['command', 'pid']);
    expect(byDefault.chosen).toHaveLength(1);

    const nginx = cpu.filter((s) => s.labels?.command === 'nginx');
    // a pid picked for another process is not nginx's: it falls back to nginx's first pid
    const otherPid = cpu.find((s) => s.labels?.command !== 'nginx')!.labels!.pid!;
    const r = narrowDimensions(cpu, { pid: otherPid, command: 'nginx' });
    expect(r.dims.find((d) => d.key === 'pid')!.values).toEqual(nginx.map((s) => s.labels!.pid));
    expect(labelsOf(r.chosen)).toEqual([nginx[0]!.labels]);
  });

  it('mpstat-like: the whole machine ("all") is the default; a pick no longer there falls back; never nothing', () => {
    const s = (labels: Record<string, string>) => ({ labels });
    const series = [s({ node: 'a', cpu: '0' }), s({ node: 'a', cpu: 'all' }), s({ node: 'b', cpu: '1' }), s({})];
    const d = narrowDimensions(series, {});
    expect(d.dims.map((x) => [x.key, x.values, x.choice])).toEqual([['node', ['a', 'b'], 'a'], ['cpu', ['0', 'all'], 'all']]);
    expect(labelsOf(d.chosen)).toEqual([{ node: 'a', cpu: 'all' }]);
    // cpu 0 is picked, then node b: cpu 0 is not on it, cpu 1 (its only value) is shown
    expect(labelsOf(narrowDimensions(series, { cpu: '0', node: 'b' }).chosen)).toEqual([{ node: 'b', cpu: '1' }]);
    // a value that does not exist at all, an "all" with one value left: defaults, still one series
    expect(narrowDimensions(series, { node: 'zzz', cpu: 'nope' }).chosen).toHaveLength(1);
    expect(labelsOf(narrowDimensions(series, { node: 'b', cpu: ALL }).chosen)).toEqual([{ node: 'b', cpu: '1' }]);
    // no labels at all: every series, no picker
    expect(narrowDimensions([s({}), s({})], {})).toMatchObject({ dims: [], chosen: [{}, {}] });
  });
});
