import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAll, parseText } from '../../shared/capture/registry';
import type { Metric, ParsedCapture } from '../../shared/capture/types';
import { expectLinear } from './scaling';

const dir = join(__dirname, '../fixtures/captures/fio');
const fx = (name: string) => readFileSync(join(dir, name), 'utf8');

function get(c: ParsedCapture, name: string, labels: Record<string, string> = {}): Metric | undefined {
  return c.metrics.find((m) => m.name === name && Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
    && Object.keys(m.labels ?? {}).every((k) => k in labels || k === 'direction' || k === 'phase'));
}
function val(c: ParsedCapture, name: string, labels: Record<string, string> = {}): number | undefined {
  return get(c, name, labels)?.value;
}

describe('fio normal output: seed captures (fio 3.7, group_reporting, numjobs 64)', () => {
  const rand = parseText(fx('fio-randwrite-4k-qd64-j64.txt'));
  const seq = parseText(fx('fio-write-4k-qd64-j64.txt'));

  it('detects fio with high confidence', () => {
    expect(rand.kind).toBe('fio');
    expect(rand.confidence).toBeGreaterThanOrEqual(0.9);
    expect(seq.kind).toBe('fio');
    expect(detectAll(fx('fio-randwrite-4k-qd64-j64.txt').split('\n'))[0]!.kind).toBe('fio');
  });

  it('random write: IOPS 2197, BW 8788 KiB/s = 8998912 B/s', () => {
    expect(val(rand, 'iops', { direction: 'write' })).toBe(2197);
    expect(val(rand, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(8998912);
    expect(get(rand, 'iops', { direction: 'write' })!.labels).toEqual({ direction: 'write' });
    expect(val(rand, 'io_bytes', { direction: 'write' })).toBe(173 * 1024 * 1024);
    expect(val(rand, 'runtime_seconds', { direction: 'write' })).toBe(20.176);
  });

  it('sequential write: IOPS 43.0k = 43000, BW 168 MiB/s = 176160768 B/s', () => {
    expect(val(seq, 'iops', { direction: 'write' })).toBe(43000);
    expect(val(seq, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(176160768);
  });

  it('reads slat/clat/lat in nsec/usec/msec with k suffixes, in seconds', () => {
    const w = { direction: 'write' };
    expect(val(rand, 'latency_max_seconds', { ...w, phase: 'slat' })).toBe(1.0052); // 1005.2k usec
    expect(val(rand, 'latency_mean_seconds', { ...w, phase: 'clat' })).toBe(1.7330906);
    expect(val(rand, 'latency_max_seconds', { ...w, phase: 'clat' })).toBe(6.4978);
    expect(val(rand, 'latency_stdev_seconds', { ...w, phase: 'lat' })).toBe(1.07965535);
    expect(val(seq, 'latency_min_seconds', { ...w, phase: 'slat' })).toBe(3.87e-7); // nsec
    expect(val(seq, 'latency_max_seconds', { ...w, phase: 'slat' })).toBe(0.105121); // 105121k nsec
  });

  it('reads clat percentiles with the unit from the header', () => {
    const c = { direction: 'write', phase: 'clat' };
    expect(val(rand, 'latency_p50_seconds', c)).toBe(1.502);
    expect(val(rand, 'latency_p99_seconds', c)).toBe(4.799);
    expect(val(rand, 'latency_p99_9_seconds', c)).toBe(6.007);
    expect(val(rand, 'latency_p99_99_seconds', c)).toBe(6.477);
    expect(val(rand, 'latency_p1_seconds', c)).toBe(0.093);
    expect(get(rand, 'latency_p99_seconds', c)!.lines).toEqual([17, 17]);
    expect(val(seq, 'latency_p99_seconds', c)).toBe(0.207);
  });

  it('reads bw and iops sample lines, cpu, run status and disk stats', () => {
    const w = { direction: 'write' };
    expect(val(rand, 'bandwidth_sample_mean_bytes_per_second', w)).toBe(Math.round(198.23 * 1024));
    expect(val(rand, 'bandwidth_samples', w)).toBe(1623);
    expect(val(rand, 'iops_sample_max', w)).toBe(204);
    expect(val(rand, 'cpu_system_percent')).toBe(0.06);
    expect(val(rand, 'context_switches')).toBe(8199);
    expect(val(rand, 'ios_issued', w)).toBe(44328);
    expect(val(rand, 'group_bandwidth_bytes_per_second', { direction: 'write', group: '0' })).toBe(8998912);
    expect(val(rand, 'group_runtime_max_seconds', { direction: 'write', group: '0' })).toBe(20.176);
    expect(val(rand, 'disk_util_percent', { device: 'vda' })).toBe(100);
    expect(val(seq, 'disk_util_percent', { device: 'vda' })).toBe(99.39);
    expect(val(rand, 'disk_ios', { device: 'vda', direction: 'write' })).toBe(44315);
    expect(val(rand, 'disk_merges', { device: 'vda', direction: 'write' })).toBe(1026);
    expect(val(rand, 'disk_ticks_seconds', { device: 'vda', direction: 'write' })).toBe(5039.515);
  });

  it('reads the last IO depth bucket ">=64=90.9%" as bucket ">=64" (was ">" with no number)', () => {
    const depth = rand.tables!.io_depths!.rows.filter((r) => r[1] === 'depth');
    expect(depth.map((r) => [r[2], r[3]])).toEqual([['1', 0.1], ['2', 0.3], ['4', 0.6], ['8', 1.2], ['16', 2.3], ['32', 4.6], ['>=64', 90.9]]);
    for (const t of Object.values(rand.tables!)) for (const row of t.rows) for (const c of row) if (typeof c === 'number') expect(Number.isFinite(c)).toBe(true);
  });

  it('takes linear time on a percentile line holding a long run of digits (it took seconds; found by fuzzing)', () => {
    const withDigits = (n: number) => {
      const lines = fx('trim-loop.txt').split('\n');
      const i = lines.findIndex((l) => l.includes('99.90th=['));
      expect(i).toBeGreaterThan(0);
      lines[i] = lines[i]!.replace('99.90th', `${'9'.repeat(n)}.${'9'.repeat(n)}.90th`);
      return lines.join('\n');
    };
    expectLinear((n) => parseText(withDigits(n), { kind: 'fio' }), 2_000, 'fio');
    const c = parseText(withDigits(15_000), { kind: 'fio' });
    expect(c.metrics.some((m) => m.name === 'latency_p99_seconds')).toBe(true);
  });

  it('takes command, version and settings from the prompt line and job header', () => {
    expect(rand.command).toMatch(/^fio -filename=\/home\/~\/testfile -iodepth=64 /);
    expect(rand.toolVersion).toBe('fio-3.7');
    expect(rand.settings).toMatchObject({ rw: 'randwrite', bs: '4k', ioengine: 'libaio', iodepth: '64', numjobs: '64', direct: '1', size: '2G', runtime: '20' });
    expect(rand.warnings).toEqual([]);
    expect(seq.warnings).toEqual([]);
  });

  it('findings: latency explodes at iodepth 64 × numjobs 64 (random), device saturated (both)', () => {
    const ids = rand.findings.map((f) => f.id).sort();
    expect(ids).toEqual(['fio.latency-explodes', 'io.device-saturated']);
    const lx = rand.findings.find((f) => f.id === 'fio.latency-explodes')!;
    expect(lx.message).toContain('4.799 s');
    expect(lx.message).toContain('1.502 s');
    expect(lx.message).toContain('4096');
    expect(lx.evidence).toBe('lines 15-17');
    expect(seq.findings.map((f) => f.id)).toEqual(['io.device-saturated']);
    expect(seq.findings[0]!.message).toContain('99.39%');
    expect(seq.findings[0]!.evidence).toBe('line 34');
  });
});

describe('fio normal output generated here (fio 3.33)', () => {
  it('group_reporting, libaio, numjobs 2: IOPS=148k, BW=579MiB/s, clat (nsec) with 4690.0k max', () => {
    const c = parseText(fx('randwrite-libaio-gr.txt'));
    expect(c.kind).toBe('fio');
    expect(c.toolVersion).toBe('fio-3.33');
    expect(val(c, 'iops', { direction: 'write' })).toBe(148000);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(579 * 1024 * 1024);
    expect(val(c, 'latency_max_seconds', { direction: 'write', phase: 'clat' })).toBe(0.00469);
    expect(val(c, 'latency_p99_9_seconds', { direction: 'write', phase: 'clat' })).toBe(0.003589);
    expect(val(c, 'disk_util_percent', { device: 'vda' })).toBe(72.47);
    expect(c.settings).toMatchObject({ rw: 'randwrite', bs: '4096B', ioengine: 'libaio', iodepth: '16', numjobs: '2' });
    expect(c.findings).toEqual([]);
  });

  it('per-job randrw (psync): job/group labels, read and write per job, clones numbered', () => {
    const c = parseText(fx('randrw-psync-perjob.txt'));
    expect(val(c, 'iops', { direction: 'read', job: 'mix', group: '0' })).toBe(23300);
    expect(val(c, 'iops', { direction: 'write', job: 'mix', group: '0' })).toBe(9968);
    expect(val(c, 'iops', { direction: 'write', job: 'mix#2', group: '0' })).toBe(10000);
    expect(val(c, 'latency_p99_99_seconds', { direction: 'read', phase: 'clat', job: 'mix', group: '0' })).toBe(0.001155072);
    expect(val(c, 'group_bandwidth_bytes_per_second', { direction: 'read', group: '0' })).toBe(182 * 1024 * 1024);
    expect(val(c, 'group_bandwidth_min_bytes_per_second', { direction: 'write', group: '0' })).toBe(Math.round(38.9 * 1024 * 1024));
    // psync has no slat
    expect(c.metrics.some((m) => m.labels?.phase === 'slat')).toBe(false);
    expect(c.settings).toMatchObject({ rw: 'randrw', ioengine: 'psync', numjobs: '2' });
  });

  it('randtrim on a loop device: trim direction, "bw (  MiB/s)" sample line, TRIM run status, JSON trim', () => {
    const c = parseText(fx('trim-loop.txt'));
    expect(val(c, 'iops', { direction: 'trim' })).toBe(64600);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'trim' })).toBe(4037 * 1024 * 1024);
    expect(val(c, 'bandwidth_sample_mean_bytes_per_second', { direction: 'trim' })).toBe(Math.round(4021.75 * 1024 * 1024));
    expect(val(c, 'latency_p99_seconds', { direction: 'trim', phase: 'clat' })).toBe(17e-6);
    expect(val(c, 'group_bandwidth_bytes_per_second', { direction: 'trim', group: '0' })).toBe(4037 * 1024 * 1024);
    expect(c.warnings).toEqual([]);
    const j = parseText(fx('trim-loop-json.txt'));
    const doc = JSON.parse(fx('trim-loop-json.txt')) as { jobs: { trim: { iops: number; bw_bytes: number } }[] };
    expect(val(j, 'iops', { direction: 'trim' })).toBe(doc.jobs[0]!.trim.iops);
    expect(val(j, 'bandwidth_bytes_per_second', { direction: 'trim' })).toBe(doc.jobs[0]!.trim.bw_bytes);
  });

  it('failed trim job: no direction metrics, disk line still read, no warnings', () => {
    const c = parseText(fx('trim.txt'));
    expect(c.kind).toBe('fio');
    expect(c.metrics.filter((m) => m.name === 'iops')).toEqual([]);
    expect(val(c, 'errors')).toBe(25);
    expect(c.settings.rw).toBe('randtrim');
    expect(c.settings.bs).toBe('64.0KiB');
    expect(c.warnings).toEqual([]);
  });
});

describe('fio JSON', () => {
  const ref = JSON.parse(fx('read-libaio-json.txt')) as { jobs: { read: Record<string, number> & { clat_ns: { percentile: Record<string, number> } } }[] };
  it('--output-format=json: values straight from the document', () => {
    const c = parseText(fx('read-libaio-json.txt'));
    expect(c.kind).toBe('fio');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.toolVersion).toBe('fio-3.33');
    const r = ref.jobs[0]!.read;
    expect(val(c, 'iops', { direction: 'read' })).toBe(r.iops);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'read' })).toBe(r.bw_bytes);
    expect(val(c, 'io_bytes', { direction: 'read' })).toBe(r.io_bytes);
    expect(val(c, 'latency_p99_seconds', { direction: 'read', phase: 'clat' })).toBe(r.clat_ns.percentile['99.000000']! / 1e9);
    expect(val(c, 'disk_util_percent', { device: 'vda' })).toBe(90.316106);
    expect(c.metrics.some((m) => m.labels?.direction === 'write' && !m.labels.device)).toBe(false);
    expect(c.settings).toMatchObject({ rw: 'read', bs: '64k', ioengine: 'libaio', iodepth: '8', direct: '1', size: '32M', runtime: '2' });
    expect(c.warnings).toEqual([]);
  });

  it('json+ randrw group_reporting: both directions and the latency bins table', () => {
    const c = parseText(fx('randrw-jsonplus.txt'));
    const doc = JSON.parse(fx('randrw-jsonplus.txt')) as { jobs: { read: { iops: number }; write: { iops: number; clat_ns: { bins: Record<string, number> } } }[] };
    expect(val(c, 'iops', { direction: 'read' })).toBe(doc.jobs[0]!.read.iops);
    expect(val(c, 'iops', { direction: 'write' })).toBe(doc.jobs[0]!.write.iops);
    const bins = c.tables?.latency_bins;
    expect(bins?.columns).toEqual(['job', 'direction', 'phase', 'latency_seconds', 'count']);
    expect(bins!.rows.filter((r) => r[1] === 'write').length).toBe(Object.keys(doc.jobs[0]!.write.clat_ns.bins).length);
    expect(c.settings.numjobs).toBe('2');
  });

  it('normal,json printed together: JSON wins, no duplicates, header lines still read', () => {
    const c = parseText(fx('mixed-normal-json.txt'));
    expect(c.kind).toBe('fio');
    expect(c.metrics.filter((m) => m.name === 'iops')).toHaveLength(1);
    expect(val(c, 'iops', { direction: 'read' })).toBe(87982.008996);
    expect(c.settings).toMatchObject({ rw: 'randread', iodepth: '32', ioengine: 'libaio' });
    expect(c.warnings).toEqual([]);
  });

  it('truncated JSON gives a warning, not an exception', () => {
    const text = fx('read-libaio-json.txt').split('\n').slice(0, 60).join('\n');
    const c = parseText(text);
    expect(c.kind).toBe('fio');
    expect(c.warnings.join(' ')).toMatch(/could not read fio JSON/);
  });
});

describe('fio terse', () => {
  it('v3 (--minimal), two jobs: write figures in KiB/s and usec, disk util', () => {
    const c = parseText(fx('write-terse.txt'));
    expect(c.kind).toBe('fio');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.toolVersion).toBe('fio-3.33');
    expect(val(c, 'iops', { direction: 'write', job: 'wt', group: '0' })).toBe(247684);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write', job: 'wt', group: '0' })).toBe(3962954 * 1024);
    expect(val(c, 'io_bytes', { direction: 'write', job: 'wt', group: '0' })).toBe(7929872 * 1024);
    expect(val(c, 'latency_mean_seconds', { direction: 'write', phase: 'clat', job: 'wt', group: '0' })).toBe(2.780353e-6);
    expect(val(c, 'latency_p99_9_seconds', { direction: 'write', phase: 'clat', job: 'wt', group: '0' })).toBe(68e-6);
    expect(val(c, 'iops', { direction: 'write', job: 'wt#2', group: '0' })).toBe(245515);
    expect(val(c, 'cpu_system_percent', { job: 'wt', group: '0' })).toBe(52.05);
    expect(val(c, 'disk_util_percent', { device: 'vda' })).toBe(91.54);
    expect(c.metrics.filter((m) => m.name === 'disk_util_percent')).toHaveLength(1);
    expect(c.warnings).toEqual([]);
  });

  it('v2 (--terse-version=2): no version field, read/write/trim blocks', () => {
    const c = parseText(fx('randrw-terse-v2.txt'));
    expect(c.kind).toBe('fio');
    expect(c.confidence).toBeGreaterThanOrEqual(0.8);
    expect(val(c, 'iops', { direction: 'read' })).toBe(16820);
    expect(val(c, 'iops', { direction: 'write' })).toBe(16846);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(67384 * 1024);
    expect(val(c, 'latency_p99_seconds', { direction: 'read', phase: 'clat' })).toBe(156e-6);
    expect(val(c, 'cpu_user_percent')).toBe(2.4);
    expect(c.metrics.some((m) => m.labels?.direction === 'trim')).toBe(false);
    expect(c.warnings).toEqual([]);
  });
});

describe('fio: more real captures (fio 3.33)', () => {
  it('terse v4 (trim block present) and v5 (bw samples, iops stats)', () => {
    const v4 = parseText(fx('randrw-terse-v4.txt'));
    expect(v4.kind).toBe('fio');
    const f4 = fx('randrw-terse-v4.txt').trim().split(';');
    expect(val(v4, 'iops', { direction: 'read' })).toBe(Number(f4[7]));
    expect(val(v4, 'iops', { direction: 'write' })).toBe(Number(f4[7 + 41]));
    expect(val(v4, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(Number(f4[6 + 41]) * 1024);
    expect(val(v4, 'cpu_user_percent')).toBe(parseFloat(f4[5 + 41 * 3]!));
    expect(val(v4, 'disk_util_percent', { device: 'vda' })).toBe(parseFloat(f4[f4.length - 1]!));
    expect(v4.warnings).toEqual([]);
    const v5 = parseText(fx('randrw-terse-v5.txt'));
    const f5 = fx('randrw-terse-v5.txt').trim().split(';');
    expect(val(v5, 'iops', { direction: 'write' })).toBe(Number(f5[7 + 47]));
    expect(val(v5, 'bandwidth_samples', { direction: 'read' })).toBe(Number(f5[5 + 41]));
    expect(val(v5, 'iops_sample_mean', { direction: 'read' })).toBe(Number(f5[5 + 44]));
    expect(val(v5, 'latency_mean_seconds', { direction: 'read', phase: 'slat' })).toBe(Number(f5[5 + 6]) * 1e-6);
    expect(val(v5, 'cpu_system_percent')).toBe(parseFloat(f5[6 + 47 * 3]!));
    expect(v5.warnings).toEqual([]);
  });

  it('slat/clat/lat percentiles (lat_percentiles=1, slat_percentiles=1) each get their phase', () => {
    const c = parseText(fx('randread-latpct-normal.txt'));
    expect(val(c, 'latency_p99_seconds', { direction: 'read', phase: 'slat' })).toBe(24e-6);
    expect(val(c, 'latency_p99_seconds', { direction: 'read', phase: 'clat' })).toBe(1287e-6);
    expect(val(c, 'latency_p99_seconds', { direction: 'read', phase: 'lat' })).toBe(1319e-6);
    expect(val(c, 'iops', { direction: 'read' })).toBe(33300);
  });

  it('per-job JSON (numjobs 2, no group_reporting): one report per clone, lat percentiles', () => {
    const c = parseText(fx('randread-latpct-perjob-json.txt'));
    const doc = JSON.parse(fx('randread-latpct-perjob-json.txt')) as { jobs: { read: { iops: number; lat_ns: { percentile: Record<string, number> } } }[] };
    expect(val(c, 'iops', { direction: 'read', job: 'lp', group: '0' })).toBe(doc.jobs[0]!.read.iops);
    expect(val(c, 'iops', { direction: 'read', job: 'lp#2', group: '0' })).toBe(doc.jobs[1]!.read.iops);
    expect(val(c, 'latency_p99_9_seconds', { direction: 'read', phase: 'lat', job: 'lp#2', group: '0' })).toBe(doc.jobs[1]!.read.lat_ns.percentile['99.900000']! / 1e9);
    // evidence: each job object's own line range, disk_util its own
    expect(get(c, 'iops', { direction: 'read', job: 'lp', group: '0' })!.lines).toEqual([8, 279]);
    expect(get(c, 'iops', { direction: 'read', job: 'lp#2', group: '0' })!.lines).toEqual([280, 551]);
    expect(get(c, 'disk_util_percent', { device: 'vda' })!.lines).toEqual([552, 565]);
  });

  it('a `script` terminal log: CR progress lines, command from the script header, latency finding', () => {
    const c = parseText(fx('tty-progress.txt'));
    expect(c.kind).toBe('fio');
    expect(c.command).toMatch(/^fio --name=tty /);
    expect(c.settings).toMatchObject({ iodepth: '64', numjobs: '4', rw: 'randwrite' });
    expect(val(c, 'iops', { direction: 'write' })).toBe(111000);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(434 * 1024 * 1024);
    expect(c.warnings).toEqual([]);
    const f = c.findings.find((x) => x.id === 'fio.latency-explodes')!;
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/p99 is 20\.32 ms \(p50 824 µs, 24\.7×\).*iodepth 64 × numjobs 4 = 256/);
  });
});

describe('fio job file with two groups (stonewall), normal,terse', () => {
  it('normal output wins over the terse lines; groups labelled; per-job settings', () => {
    const c = parseText(fx('jobfile-two-groups-normal-terse.txt'));
    expect(c.kind).toBe('fio');
    expect(c.command).toBe('fio /tmp/two-groups.fio --output-format=normal,terse');
    expect(val(c, 'iops', { direction: 'read', job: 'seqread', group: '0' })).toBe(258000);
    expect(val(c, 'iops', { direction: 'write', job: 'randwrite', group: '1' })).toBe(90400);
    expect(c.metrics.filter((m) => m.name === 'iops')).toHaveLength(2);
    expect(val(c, 'group_bandwidth_bytes_per_second', { direction: 'write', group: '1' })).toBe(353 * 1024 * 1024);
    expect(val(c, 'latency_p99_99_seconds', { direction: 'write', phase: 'clat', job: 'randwrite', group: '1' })).toBe(0.01605632);
    expect(c.settings).toMatchObject({ rw: 'read', 'seqread.rw': 'read', 'randwrite.rw': 'randwrite', 'randwrite.ioengine': 'psync', bs: '4096B' });
    expect(c.warnings).toEqual([]);
  });
});

describe('fio messy input', () => {
  const seed = fx('fio-randwrite-4k-qd64-j64.txt');

  it('progress junk glued to the start of the result header is stripped', () => {
    const lines = seed.split('\n');
    const i = lines.findIndex((l) => l.includes('(groupid=0'));
    lines[i] = 'Jobs: 64 (f=64): [w(64)][100.0%][r=0KiB/s,w=8688KiB/s][r=0,w=2172 IOPS][eta 00m:00s]' + lines[i];
    lines.splice(i, 0); // same line count
    const c = parseText(lines.join('\n'));
    expect(val(c, 'iops', { direction: 'write' })).toBe(2197);
    expect(val(c, 'latency_p99_seconds', { direction: 'write', phase: 'clat' })).toBe(4.799);
  });

  it('progress cut off before its [eta] with the result header glued on', () => {
    const lines = seed.split('\n');
    const p = lines.findIndex((l) => l.startsWith('Jobs: 64'));
    const h = lines.findIndex((l) => l.includes('(groupid=0'));
    const cut = lines[p]!.slice(0, lines[p]!.lastIndexOf('2172 IOPS') + 9);
    lines[p] = cut + lines[h]!;
    lines.splice(h, 1);
    const c = parseText(lines.join('\n'));
    expect(val(c, 'iops', { direction: 'write' })).toBe(2197);
    expect(val(c, 'jobs')).toBe(64);
    expect(c.warnings).toEqual([]);
  });

  it('progress printed with lone CRs (terminal capture) and CRLF line ends', () => {
    const text = seed.replace(/Jobs: 64/g, '\rJobs: 64').replace(/\n/g, '\r\n');
    const c = parseText(text);
    expect(val(c, 'iops', { direction: 'write' })).toBe(2197);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(8998912);
    expect(c.warnings).toEqual([]);
  });

  it('ANSI colours are ignored', () => {
    const c = parseText(seed.replace('write: IOPS', '\x1b[1mwrite\x1b[0m: IOPS'));
    expect(val(c, 'iops', { direction: 'write' })).toBe(2197);
  });

  it('truncated in the middle of the direction line: warning, earlier figures kept', () => {
    const cut = seed.slice(0, seed.indexOf('BW=8788') + 5);
    const c = parseText(cut);
    expect(c.kind).toBe('fio');
    expect(c.warnings.some((w) => /line 9: could not read fio direction line/.test(w))).toBe(true);
    expect(c.settings.iodepth).toBe('64');
  });

  it('a capture with only the run status lines still gives bandwidth', () => {
    const tail = seed.slice(seed.indexOf('Run status group'));
    const c = parseText(tail);
    expect(c.kind).toBe('fio');
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write' })).toBe(8998912);
  });

  it('does not claim plain text', () => {
    expect(parseText('hello\nworld\n').kind).not.toBe('fio');
  });
});
