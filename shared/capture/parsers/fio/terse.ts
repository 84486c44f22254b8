/**
 * fio terse output (--minimal, --output-format=terse), versions 2, 3, 4, 5 (fio HOWTO "Terse output",
 * stat.c show_thread_status_terse_all):
 *   v2:  2;jobname;groupid;error;READ;WRITE;TRIM;CPU;…          (fio 3.x; no fio version field)
 *   v3:  3;fio-x;jobname;groupid;error;READ;WRITE;CPU;…;disk util
 *   v4:  4;fio-x;jobname;groupid;error;READ;WRITE;TRIM;CPU;…;disk util
 *   v5:  as v4, each direction with bw samples and iops min/max/mean/stdev/samples
 * Per direction: io KiB; bw KiB/s; iops; runtime ms; slat min/max/mean/dev (usec); clat ×4; 20
 * "pct%=usec" fields; lat ×4; bw min/max/agg%/mean/dev (KiB/s). Very old fio 1.x/2.0 v2 lacks
 * iops (3 status fields) and possibly the percentiles: detected from where the first "%=" field sits.
 */
import type { Metric } from '../../types';
import type { JobReport } from './fioUtil';
import { fioMetric, pctName, push } from './fioUtil';

export interface TerseResult {
  version?: string;
  job: JobReport;
  disks: Metric[];
}

const LAT = ['slat', 'clat', 'lat'] as const;

export function readTerse(line: string, lineNo: number): TerseResult | string {
  const f = line.split(';');
  const ver = Number(f[0]);
  if (!(ver >= 2 && ver <= 5)) return 'unknown terse version';
  let i = 0;
  let version: string | undefined;
  if (ver === 2) i = 1; else { version = f[1]; i = 2; }
  const name = f[i] ?? '';
  const group = f[i + 1] ?? '0';
  const error = Number(f[i + 2]);
  i += 3;
  const lines = [lineNo, lineNo] as const;
  const job: JobReport = { name, group, metrics: [], first: lineNo, last: lineNo };
  const m = job.metrics;
  push(m, fioMetric('errors', error, 'count', { column: 'error', lines: lineNo }));
  // layout of a direction block: status fields S (3 or 4), then slat4 clat4 [pct20] lat4 bw5 [v5: 6]
  const firstPct = f.findIndex((x, k) => k >= i && x.includes('%='));
  const hasPct = firstPct >= 0;
  const S = hasPct ? firstPct - i - 8 : 3;
  if (S !== 3 && S !== 4) return 'unexpected field layout';
  const block = S + 8 + (hasPct ? 20 : 0) + 4 + 5 + (ver === 5 ? 6 : 0);
  const dirs = ver === 3 ? ['read', 'write'] : ['read', 'write', 'trim'];
  if (f.length < i + block * 2 + 5) return `only ${f.length} fields`;
  for (const dir of dirs) {
    if (i + block > f.length) break;
    const x = (k: number) => Number(f[i + k]);
    const L = { direction: dir };
    const ioKiB = x(0);
    const bw = x(1);
    const iops = S === 4 ? x(2) : NaN;
    const run = x(S - 1);
    if (ioKiB > 0 || run > 0) {
      push(m, fioMetric('iops', iops, '1/s', { labels: L, column: 'iops', lines }));
      push(m, fioMetric('bandwidth_bytes_per_second', bw * 1024, 'B/s', { labels: L, column: 'bw', lines }));
      push(m, fioMetric('io_bytes', ioKiB * 1024, 'B', { labels: L, column: 'io', lines }));
      push(m, fioMetric('runtime_seconds', run / 1000, 's', { labels: L, column: 'runtime', lines }));
      let k = S;
      const lat = (phase: string, at: number) => {
        const PL = { direction: dir, phase };
        if (x(at + 1) === 0 && x(at + 2) === 0) return;
        push(m, fioMetric('latency_min_seconds', x(at) * 1e-6, 's', { labels: PL, column: phase + ' min', lines }));
        push(m, fioMetric('latency_max_seconds', x(at + 1) * 1e-6, 's', { labels: PL, column: phase + ' max', lines }));
        push(m, fioMetric('latency_mean_seconds', x(at + 2) * 1e-6, 's', { labels: PL, column: phase + ' mean', lines }));
        push(m, fioMetric('latency_stdev_seconds', x(at + 3) * 1e-6, 's', { labels: PL, column: phase + ' stdev', lines }));
      };
      lat(LAT[0], k); k += 4;
      lat(LAT[1], k); k += 4;
      if (hasPct) {
        for (let p = 0; p < 20; p++) {
          const cell = f[i + k + p] ?? '';
          const pm = /^(\d+(?:\.\d+)?)%=(\d+)$/.exec(cell);
          if (!pm || Number(pm[1]) <= 0) continue;
          push(m, fioMetric(`latency_${pctName(Number(pm[1]))}_seconds`, Number(pm[2]) * 1e-6, 's', { labels: { direction: dir, phase: 'clat' }, column: cell.split('=')[0], lines }));
        }
        k += 20;
      }
      lat(LAT[2], k); k += 4;
      push(m, fioMetric('bandwidth_sample_min_bytes_per_second', x(k) * 1024, 'B/s', { labels: L, column: 'bw min', lines }));
      push(m, fioMetric('bandwidth_sample_max_bytes_per_second', x(k + 1) * 1024, 'B/s', { labels: L, column: 'bw max', lines }));
      push(m, fioMetric('bandwidth_share_percent', Number((f[i + k + 2] ?? '').replace('%', '')), '%', { labels: L, column: 'bw agg', lines }));
      push(m, fioMetric('bandwidth_sample_mean_bytes_per_second', x(k + 3) * 1024, 'B/s', { labels: L, column: 'bw mean', lines }));
      push(m, fioMetric('bandwidth_sample_stdev_bytes_per_second', x(k + 4) * 1024, 'B/s', { labels: L, column: 'bw dev', lines }));
      if (ver === 5) {
        push(m, fioMetric('bandwidth_samples', x(k + 5), 'count', { labels: L, column: 'bw samples', lines }));
        push(m, fioMetric('iops_sample_min', x(k + 6), '1/s', { labels: L, column: 'iops min', lines }));
        push(m, fioMetric('iops_sample_max', x(k + 7), '1/s', { labels: L, column: 'iops max', lines }));
        push(m, fioMetric('iops_sample_mean', x(k + 8), '1/s', { labels: L, column: 'iops mean', lines }));
        push(m, fioMetric('iops_sample_stdev', x(k + 9), '1/s', { labels: L, column: 'iops stdev', lines }));
        push(m, fioMetric('iops_samples', x(k + 10), 'count', { labels: L, column: 'iops samples', lines }));
      }
    }
    i += block;
  }
  // CPU
  const pc = (k: number) => Number((f[i + k] ?? '').replace('%', ''));
  push(m, fioMetric('cpu_user_percent', pc(0), '%', { column: 'usr', lines }));
  push(m, fioMetric('cpu_system_percent', pc(1), '%', { column: 'sys', lines }));
  push(m, fioMetric('context_switches', pc(2), 'count', { column: 'ctx', lines }));
  push(m, fioMetric('major_faults', pc(3), 'count', { column: 'majf', lines }));
  push(m, fioMetric('minor_faults', pc(4), 'count', { column: 'minf', lines }));
  i += 5 + 7 + 10 + 12; // cpu, IO depths, usec latency buckets, msec latency buckets
  // disk util: groups of 9 (name;rios;wios;rmerge;wmerge;rticks;wticks;in_queue;util%), v3+
  const disks: Metric[] = [];
  while (i + 9 <= f.length && /^[A-Za-z]/.test(f[i] ?? '') && /%$/.test(f[i + 8] ?? '')) {
    const dev = f[i]!;
    const y = (k: number) => Number(f[i + k]);
    push(disks, fioMetric('disk_util_percent', Number(f[i + 8]!.replace('%', '')), '%', { labels: { device: dev }, column: 'util', lines }));
    push(disks, fioMetric('disk_ios', y(1), 'count', { labels: { device: dev, direction: 'read' }, column: 'read ios', lines }));
    push(disks, fioMetric('disk_ios', y(2), 'count', { labels: { device: dev, direction: 'write' }, column: 'write ios', lines }));
    push(disks, fioMetric('disk_merges', y(3), 'count', { labels: { device: dev, direction: 'read' }, column: 'read merges', lines }));
    push(disks, fioMetric('disk_merges', y(4), 'count', { labels: { device: dev, direction: 'write' }, column: 'write merges', lines }));
    push(disks, fioMetric('disk_ticks_seconds', y(5) / 1000, 's', { labels: { device: dev, direction: 'read' }, column: 'read ticks', lines }));
    push(disks, fioMetric('disk_ticks_seconds', y(6) / 1000, 's', { labels: { device: dev, direction: 'write' }, column: 'write ticks', lines }));
    push(disks, fioMetric('disk_in_queue_seconds', y(7) / 1000, 's', { labels: { device: dev }, column: 'in_queue', lines }));
    i += 9;
    // md aggregate stats follow an md device as 9 more numeric fields; skip them
    if (i + 9 <= f.length && /^\d/.test(f[i] ?? '') && /%$/.test(f[i + 8] ?? '')) i += 9;
  }
  const res: TerseResult = { job, disks };
  if (version !== undefined) res.version = version;
  return res;
}
