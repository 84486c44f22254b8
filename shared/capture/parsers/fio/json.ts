/** fio --output-format=json / json+ (fio 2.x and 3.x) → job reports, disk metrics, settings. */
import type { Metric, Table } from '../../types';
import type { JobReport } from './fioUtil';
import { textRecord } from '../kit';
import { DIRS, fioMetric, pctName, push } from './fioUtil';

type J = Record<string, unknown>;

function obj(v: unknown): J | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as J) : undefined;
}
function n(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

export interface JsonResult {
  version?: string;
  jobs: JobReport[];
  disks: Metric[];
  settings: Record<string, string>;
  bins: Table | undefined;
}

/** Read one parsed fio JSON document. `first`/`last` are the document's line range. */
export function readFioJson(doc: unknown, first: number, last: number, jobLines: readonly (readonly [number, number])[] = [], diskLines?: readonly [number, number]): JsonResult {
  let lines: readonly [number, number];
  const res: JsonResult = { jobs: [], disks: [], settings: textRecord(), bins: undefined };
  const root = obj(doc);
  if (!root) return res;
  if (typeof root['fio version'] === 'string') res.version = root['fio version'];
  const glob = obj(root['global options']);
  if (glob) for (const [k, v] of Object.entries(glob)) if (typeof v === 'string') res.settings[k] = v;
  const binRows: (string | number)[][] = [];
  const jobs = Array.isArray(root.jobs) ? root.jobs : Array.isArray(root.client_stats) ? root.client_stats : [];
  for (const [ji, jv] of jobs.entries()) {
    const job = obj(jv);
    if (!job) continue;
    lines = jobLines[ji] ?? [first, last];
    const name = typeof job.jobname === 'string' ? job.jobname : '';
    if (name === 'All clients') continue;
    const rep: JobReport = { name, group: String(n(job.groupid) || 0), metrics: [], first, last };
    const opts = obj(job['job options']);
    if (opts) for (const [k, v] of Object.entries(opts)) if (typeof v === 'string' && !(k in res.settings)) res.settings[k] = v;
    for (const dir of [...DIRS, 'mixed'] as const) {
      const d = obj(job[dir]);
      if (!d) continue;
      // fio 3: io_bytes in bytes, bw_bytes in B/s, latencies in *_ns; fio 2: io_bytes in KiB, bw in KiB/s, latencies in usec
      const modern = 'io_kbytes' in d || 'bw_bytes' in d || 'clat_ns' in d;
      const ios = n(d.total_ios);
      const ioBytes = modern ? n(d.io_bytes) : n(d.io_bytes) * 1024;
      const runtimeMs = n(d.runtime);
      if (!(ioBytes > 0) && !(ios > 0) && !(runtimeMs > 0)) continue; // direction not used
      const L = { direction: dir };
      const m = rep.metrics;
      push(m, fioMetric('iops', n(d.iops), '1/s', { labels: L, column: 'iops', lines }));
      push(m, fioMetric('bandwidth_bytes_per_second', 'bw_bytes' in d ? n(d.bw_bytes) : n(d.bw) * 1024, 'B/s', { labels: L, column: 'bw_bytes' in d ? 'bw_bytes' : 'bw', lines }));
      push(m, fioMetric('io_bytes', ioBytes, 'B', { labels: L, column: 'io_bytes', lines }));
      push(m, fioMetric('runtime_seconds', runtimeMs / 1000, 's', { labels: L, column: 'runtime', lines }));
      push(m, fioMetric('ios_total', ios, 'count', { labels: L, column: 'total_ios', lines }));
      for (const phase of ['slat', 'clat', 'lat'] as const) {
        const ns = obj(d[phase + '_ns']);
        const st = ns ?? obj(d[phase]);
        if (!st) continue;
        const mult = ns ? 1e-9 : 1e-6;
        const col = phase + (ns ? '_ns' : '');
        const PL = { direction: dir, phase };
        if (!(n(st.N) > 0) && n(st.max) === 0) continue; // phase not measured (e.g. slat for psync)
        push(m, fioMetric('latency_min_seconds', n(st.min) * mult, 's', { labels: PL, column: col + '.min', lines }));
        push(m, fioMetric('latency_max_seconds', n(st.max) * mult, 's', { labels: PL, column: col + '.max', lines }));
        push(m, fioMetric('latency_mean_seconds', n(st.mean) * mult, 's', { labels: PL, column: col + '.mean', lines }));
        push(m, fioMetric('latency_stdev_seconds', n(st.stddev) * mult, 's', { labels: PL, column: col + '.stddev', lines }));
        const pct = obj(st.percentile);
        if (pct) {
          for (const [k, v] of Object.entries(pct)) {
            const p = Number(k);
            if (!(p > 0)) continue;
            push(m, fioMetric(`latency_${pctName(p)}_seconds`, n(v) * mult, 's', { labels: PL, column: `${col}.percentile.${k}`, lines }));
          }
        }
        const bins = obj(st.bins);
        if (bins) for (const [k, v] of Object.entries(bins)) binRows.push([name, dir, phase, Number(k) * mult, n(v)]);
      }
      push(m, fioMetric('bandwidth_sample_min_bytes_per_second', n(d.bw_min) * 1024, 'B/s', { labels: L, column: 'bw_min', lines }));
      push(m, fioMetric('bandwidth_sample_max_bytes_per_second', n(d.bw_max) * 1024, 'B/s', { labels: L, column: 'bw_max', lines }));
      push(m, fioMetric('bandwidth_sample_mean_bytes_per_second', n(d.bw_mean) * 1024, 'B/s', { labels: L, column: 'bw_mean', lines }));
      push(m, fioMetric('bandwidth_sample_stdev_bytes_per_second', n(d.bw_dev) * 1024, 'B/s', { labels: L, column: 'bw_dev', lines }));
      push(m, fioMetric('bandwidth_share_percent', n(d.bw_agg), '%', { labels: L, column: 'bw_agg', lines }));
      push(m, fioMetric('bandwidth_samples', n(d.bw_samples), 'count', { labels: L, column: 'bw_samples', lines }));
      push(m, fioMetric('iops_sample_min', n(d.iops_min), '1/s', { labels: L, column: 'iops_min', lines }));
      push(m, fioMetric('iops_sample_max', n(d.iops_max), '1/s', { labels: L, column: 'iops_max', lines }));
      push(m, fioMetric('iops_sample_mean', n(d.iops_mean), '1/s', { labels: L, column: 'iops_mean', lines }));
      push(m, fioMetric('iops_sample_stdev', n(d.iops_stddev), '1/s', { labels: L, column: 'iops_stddev', lines }));
      push(m, fioMetric('iops_samples', n(d.iops_samples), 'count', { labels: L, column: 'iops_samples', lines }));
    }
    const m = rep.metrics;
    push(m, fioMetric('errors', n(job.error), 'count', { column: 'error', lines }));
    push(m, fioMetric('cpu_user_percent', n(job.usr_cpu), '%', { column: 'usr_cpu', lines }));
    push(m, fioMetric('cpu_system_percent', n(job.sys_cpu), '%', { column: 'sys_cpu', lines }));
    push(m, fioMetric('context_switches', n(job.ctx), 'count', { column: 'ctx', lines }));
    push(m, fioMetric('major_faults', n(job.majf), 'count', { column: 'majf', lines }));
    push(m, fioMetric('minor_faults', n(job.minf), 'count', { column: 'minf', lines }));
    res.jobs.push(rep);
  }
  lines = diskLines ?? [first, last];
  const disks = Array.isArray(root.disk_util) ? root.disk_util : [];
  for (const dv of disks) {
    const d = obj(dv);
    if (!d || typeof d.name !== 'string') continue;
    const dev = d.name;
    push(res.disks, fioMetric('disk_util_percent', n(d.util), '%', { labels: { device: dev }, column: 'util', lines }));
    for (const [i, dir] of ['read', 'write'].entries()) {
      const L = { device: dev, direction: dir };
      push(res.disks, fioMetric('disk_ios', n(d[dir + '_ios']), 'count', { labels: L, column: dir + '_ios', lines }));
      push(res.disks, fioMetric('disk_merges', n(d[dir + '_merges']), 'count', { labels: L, column: dir + '_merges', lines }));
      push(res.disks, fioMetric('disk_ticks_seconds', n(d[dir + '_ticks']) / 1000, 's', { labels: L, column: dir + '_ticks', lines }));
      void i;
    }
    push(res.disks, fioMetric('disk_in_queue_seconds', n(d.in_queue) / 1000, 's', { labels: { device: dev }, column: 'in_queue', lines }));
  }
  if (binRows.length) res.bins = { title: 'json+ latency bins (upper edge in seconds, count)', columns: ['job', 'direction', 'phase', 'latency_seconds', 'count'], rows: binRows };
  return res;
}
