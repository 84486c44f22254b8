/**
 * fio: normal output (fio 2.x and 3.x), --output-format=json / json+, terse (--minimal, v2–v5),
 * and several of them printed together (normal,json …). One parser id for all of them.
 * See docs/parsers/fio.md for what is emitted.
 */
import type { CaptureParser, LineSink, Metric, ParseOutput, Table } from '../../types';
import { commandLine, commandWord, headCommand, textRecord } from '../kit';
import type { JobReport } from './fioUtil';
import { DIRS, TIME_UNIT, commandOptions, fioCount, fioMetric, fioSize, finishJobs, kvPairs, pctName, push } from './fioUtil';
import { readFioJson } from './json';
import { readTerse } from './terse';

const JOB_HEADER = /: \(g=\d+\): rw=/;
const RESULT_HEADER = /: \(groupid=\d+, jobs=\d+\): err=\s*-?\d+/;
const PROGRESS = /^Jobs: \d+ \(f=\d+\)/;
const TERSE = /^[2-5];[^;]*;[^;]*;[^;]*;/;
const FIO = ['fio'];

function detect(head: readonly string[]): number {
  let best = 0;
  const n = Math.min(head.length, 2000);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (l.length > 20000 && !TERSE.test(l)) continue;
    if (JOB_HEADER.test(l) || RESULT_HEADER.test(l)) return 0.97;
    if (/^\s*"fio version"\s*:/.test(l)) return 0.97;
    if (/^[345];fio-\d/.test(l)) return 0.96;
    if (TERSE.test(l) && countSemis(l) >= 60 && /;\d+(\.\d+)?%=\d+;/.test(l)) best = Math.max(best, 0.85);
    if (/^Run status group \d+ \(all jobs\):/.test(l)) best = Math.max(best, 0.9);
    if (/Jobs: \d+ \(f=\d+\): \[/.test(l)) best = Math.max(best, 0.8);
    if (/^fio-\d+\.\d+/.test(l.trim())) best = Math.max(best, 0.6);
    if (/^\s+(read|write|trim)\s*: IOPS=[\d.]+[kM]?, BW=/.test(l)) best = Math.max(best, 0.9);
  }
  if (headCommand(head, FIO) !== undefined) best = Math.max(best, 0.5);
  return best;
}

function countSemis(l: string): number {
  let c = 0;
  for (let i = 0; i < l.length; i++) if (l.charCodeAt(i) === 59) c++;
  return c;
}

interface Section { source: 'normal' | 'json' | 'terse' }

class FioSink implements LineSink {
  private command: string | undefined;
  private toolVersion: string | undefined;
  private readonly warnings: string[] = [];
  private readonly cmdSettings: Record<string, string> = textRecord();
  private readonly jsonSettings: Record<string, string> = textRecord();
  private readonly headerSettings: Record<string, string> = textRecord();
  private jobDefs = 0;
  private readonly jobNames = new Set<string>();
  private readonly perJobSettings: Record<string, string> = textRecord();
  private processes = NaN;
  private readonly tables: Record<string, Table> = {};

  // results per source; at the end json wins over normal wins over terse (when printed together)
  private readonly jobs: Record<Section['source'], JobReport[]> = { normal: [], json: [], terse: [] };
  private readonly disks: Record<Section['source'], Metric[]> = { normal: [], json: [], terse: [] };
  private readonly groupMetrics: Metric[] = [];

  // normal-format state
  private cur: JobReport | null = null;
  private dir: string | null = null;
  private pct: { phase: string; mult: number; labels: Record<string, string> } | null = null;
  private runGroup: string | null = null;
  private inDisk = false;
  private lineCount = 0;
  private readonly latDist: (string | number)[][] = [];
  private readonly depths: (string | number)[][] = [];

  // json accumulation
  private json: string[] | null = null;
  private jsonDepth = 0;
  private jsonFirst = 0;
  private inString = false;
  private jsonLines: string[] = [];

  line(raw: string, lineNo: number): void {
    this.lineCount = lineNo;
    if (this.json) { this.jsonLine(raw, lineNo); return; }
    // progress lines ("Jobs: 64 (f=64): [w(64)][15.0%][…][eta 00m:00s]") may be glued to each other,
    // to the end of the line before, and to the start of the next real line
    const j = raw.indexOf('Jobs: ');
    if (j >= 0 && PROGRESS.test(raw.slice(j, j + 40))) {
      const before = raw.slice(0, j);
      const e = raw.lastIndexOf('[eta ');
      const close = e >= 0 ? raw.indexOf(']', e) : -1;
      const rest = close >= 0 ? raw.slice(close + 1) : this.afterProgress(raw.slice(j));
      if (before.trim()) this.real(before, lineNo);
      if (rest.trim()) this.line(rest, lineNo);
      return;
    }
    this.real(raw, lineNo);
  }

  /**
   * A progress line cut off before its "[eta …]" with a real line glued on
   * ("…[r=0,w=2172 IOPStest: (groupid=0, jobs=64): err= 0: …"): find where the real line starts.
   */
  private afterProgress(s: string): string {
    const g = s.search(/: \(groupid=\d+, jobs=\d+\): err=/);
    if (g >= 0) {
      for (const name of this.jobNames) if (name && s.slice(Math.max(0, g - name.length), g) === name) return s.slice(g - name.length);
      const b = s.lastIndexOf(']', g);
      const iops = s.lastIndexOf(' IOPS', g);
      const start = Math.max(b + 1, iops >= 0 ? iops + 5 : 0);
      return s.slice(start);
    }
    for (const re of [/Run status group \d+ \(all jobs\):/, /Disk stats \(read\/write\):/]) {
      const k = s.search(re);
      if (k >= 0) return s.slice(k);
    }
    return '';
  }

  private warn(lineNo: number, what: string, text: string): void {
    this.warnings.push(`line ${lineNo}: could not read ${what}: ${text.trim().slice(0, 80)}`);
  }

  private real(l: string, lineNo: number): void {
    const t = l.trim();
    if (t === '') { this.pct = null; return; }
    if (this.command === undefined && lineNo <= 20) {
      // `script` logs: Script started on … [COMMAND="fio …" …]
      const sc = /^Script started on .*\[COMMAND="(.*?)"/.exec(t);
      const c = commandLine(l, FIO, { bare: true }) ?? (sc && commandWord(sc[1]!) === 'fio' ? sc[1] : undefined);
      if (c) { this.setCommand(c); return; }
    }
    if (/^fio[- ]v?\d+\.\d+\S*$/.test(t)) { this.toolVersion = t.replace(/^fio /, 'fio-'); return; }
    if (t === '{' || (t.startsWith('{') && !t.includes('}'))) {
      this.json = [];
      this.jsonDepth = 0;
      this.inString = false;
      this.jsonFirst = lineNo;
      this.jsonLine(t, lineNo);
      return;
    }
    if (TERSE.test(t) && countSemis(t) >= 40) { this.terse(t, lineNo); return; }

    // percentile rows
    if (t.startsWith('|') && this.pct) { this.pctRow(t, lineNo); return; }
    this.pct = null;

    if (JOB_HEADER.test(l)) { this.jobHeader(t); return; }
    let m = /^Starting (\d+) (process|processes|thread|threads)\b/.exec(t);
    if (m) { this.processes = Number(m[1]); return; }
    if (RESULT_HEADER.test(l)) { this.resultHeader(t, lineNo); return; }
    m = /^Run status group (\d+) \(all jobs\):/.exec(t);
    if (m) { this.runGroup = m[1]!; this.cur = null; this.inDisk = false; return; }
    if (/^Disk stats \(read\/write\):/.test(t)) { this.inDisk = true; this.cur = null; this.runGroup = null; return; }

    if (this.inDisk) {
      const d = /^(\S+?): ios=(.*)$/.exec(t);
      if (d) { this.diskLine(d[1]!, 'ios=' + d[2]!, lineNo); return; }
    }
    if (this.runGroup !== null) {
      const g = /^(READ|WRITE|TRIM|MIXED): (.*)$/.exec(t);
      if (g) { this.groupLine(g[1]!.toLowerCase(), g[2]!, lineNo); return; }
    }
    if (this.cur) { this.jobLine(l, t, lineNo); return; }
  }

  /** The command line (a prompt line, or told by a capture kit's manifest): its options are the job's settings. */
  setCommand(c: string): void {
    this.command = c;
    for (const [k, v] of commandOptions(c)) {
      const key = k === 'readwrite' ? 'rw' : k === 'blocksize' ? 'bs' : k;
      this.cmdSettings[key] = v;
    }
  }

  private jobHeader(t: string): void {
    this.jobDefs++;
    const at = t.indexOf(': (g=');
    this.jobNames.add(t.slice(0, at));
    const rest = t.slice(at + 2);
    const name = t.slice(0, at);
    const own: Record<string, string> = {};
    const rw = /rw=(\w+)/.exec(rest);
    if (rw) own.rw = rw[1]!;
    const bs = /bs=\(R\) ([\d.]+\w*?)-([\d.]+\w*?),/.exec(rest) ?? /bs=([\d.]+\w*?)-([\d.]+\w*?)[/,]/.exec(rest);
    if (bs) own.bs = bs[1] === bs[2] ? bs[1]! : `${bs[1]}-${bs[2]}`;
    const eng = /ioengine=([^,\s]+)/.exec(rest);
    if (eng) own.ioengine = eng[1]!;
    const qd = /iodepth=(\d+)/.exec(rest);
    if (qd) own.iodepth = qd[1]!;
    // the first job sets the plain keys; with several job definitions each also gets "<job>.<key>"
    for (const [k, v] of Object.entries(own)) {
      this.headerSettings[k] ??= v;
      this.perJobSettings[`${name}.${k}`] = v;
    }
  }

  private resultHeader(t: string, lineNo: number): void {
    const at = t.search(/: \(groupid=/);
    const name = t.slice(0, at);
    const g = /groupid=(\d+), jobs=(\d+)\): err=\s*(-?\d+)/.exec(t);
    this.cur = { name, group: g ? g[1]! : '0', metrics: [], first: lineNo, last: lineNo };
    this.jobs.normal.push(this.cur);
    this.dir = null;
    this.runGroup = null;
    this.inDisk = false;
    if (g) {
      push(this.cur.metrics, fioMetric('jobs', Number(g[2]), 'count', { column: 'jobs', lines: lineNo }));
      push(this.cur.metrics, fioMetric('errors', Number(g[3]), 'count', { column: 'err', lines: lineNo }));
    }
  }

  private add(m: Metric | null, lineNo: number): void {
    if (!m || !this.cur) return;
    this.cur.metrics.push(m);
    this.cur.last = lineNo;
  }

  private jobLine(l: string, t: string, lineNo: number): void {
    const cur = this.cur!;
    const L1: [number, number] = [lineNo, lineNo];
    // direction summary, fio 3.x: "write: IOPS=2197, BW=8788KiB/s (8999kB/s)(173MiB/20176msec)"
    let m = /^(read|write|trim|mixed)\s*: (IOPS=.*)$/.exec(t);
    if (m) {
      const dir = m[1]!;
      this.dir = dir;
      const body = m[2]!;
      const x = /^IOPS=([\d.]+[kMG]?), BW=([\d.]+[A-Za-z]*\/s)(?: \(([\d.]+[A-Za-z]*\/s)\))?(?:\(([\d.]+[A-Za-z]*)\/(\d+)msec\))?/.exec(body);
      if (!x) { this.warn(lineNo, 'fio direction line', t); return; }
      const L = { direction: dir };
      this.add(fioMetric('iops', fioCount(x[1]), '1/s', { labels: L, column: 'IOPS', lines: L1 }), lineNo);
      this.add(fioMetric('bandwidth_bytes_per_second', fioSize(x[2]), 'B/s', { labels: L, column: 'BW', lines: L1 }), lineNo);
      if (x[4] !== undefined) this.add(fioMetric('io_bytes', fioSize(x[4]), 'B', { labels: L, column: 'io', lines: L1 }), lineNo);
      if (x[5] !== undefined) this.add(fioMetric('runtime_seconds', Number(x[5]) / 1000, 's', { labels: L, column: 'msec', lines: L1 }), lineNo);
      return;
    }
    // fio 2.x: "write: io=173MB, bw=8788KB/s, iops=2197, runt= 20176msec"
    m = /^(read|write|trim|mixed)\s*: (io=.*)$/.exec(t);
    if (m) {
      const dir = m[1]!;
      this.dir = dir;
      const kv = kvPairs(m[2]!);
      const L = { direction: dir };
      const iops = fioCount(kv.get('iops'));
      const bw = fioSize(kv.get('bw'), true);
      if (!Number.isFinite(iops) && !Number.isFinite(bw)) { this.warn(lineNo, 'fio direction line', t); return; }
      this.add(fioMetric('iops', iops, '1/s', { labels: L, column: 'iops', lines: L1 }), lineNo);
      this.add(fioMetric('bandwidth_bytes_per_second', bw, 'B/s', { labels: L, column: 'bw', lines: L1 }), lineNo);
      this.add(fioMetric('io_bytes', fioSize(kv.get('io'), true), 'B', { labels: L, column: 'io', lines: L1 }), lineNo);
      const runt = /^(\d+)\s*msec$/.exec(kv.get('runt') ?? '');
      if (runt) this.add(fioMetric('runtime_seconds', Number(runt[1]) / 1000, 's', { labels: L, column: 'runt', lines: L1 }), lineNo);
      return;
    }
    // "slat (usec): min=3, max=1005.2k, avg=28669.67, stdev=143372.07"
    m = /^(slat|clat|lat)\s*\((nsec|usec|msec|sec)\)\s*:\s*(min=.*)$/.exec(t);
    if (m) {
      const phase = m[1]!;
      const mult = TIME_UNIT[m[2]!]!;
      const kv = kvPairs(m[3]!);
      const L = { direction: this.dir ?? 'unknown', phase };
      const col = `${phase} (${m[2]})`;
      const v = (k: string) => fioCount(kv.get(k)) * mult;
      const min = v('min');
      const avg = v('avg');
      if (!Number.isFinite(min) || !Number.isFinite(avg)) { this.warn(lineNo, 'fio latency line', t); return; }
      this.add(fioMetric('latency_min_seconds', min, 's', { labels: L, column: col + ' min', lines: L1 }), lineNo);
      this.add(fioMetric('latency_max_seconds', v('max'), 's', { labels: L, column: col + ' max', lines: L1 }), lineNo);
      this.add(fioMetric('latency_mean_seconds', avg, 's', { labels: L, column: col + ' avg', lines: L1 }), lineNo);
      this.add(fioMetric('latency_stdev_seconds', kv.has('stdev') ? v('stdev') : v('dev'), 's', { labels: L, column: col + ' stdev', lines: L1 }), lineNo);
      return;
    }
    // "clat percentiles (msec):" (also "lat percentiles", "slat percentiles")
    m = /^(slat|clat|lat) percentiles \((nsec|usec|msec|sec)\):/.exec(t);
    if (m) {
      this.pct = { phase: m[1]!, mult: TIME_UNIT[m[2]!]!, labels: { direction: this.dir ?? 'unknown', phase: m[1]! } };
      return;
    }
    // "bw (  KiB/s): min=7, max=816, per=2.26%, avg=198.23, stdev=185.14, samples=1623" (fio 2.x: "bw (KB  /s)")
    m = /^bw\s*\(\s*([A-Za-z]+)\s*\/\s*s\s*\)\s*:\s*(.*)$/.exec(t);
    if (m) {
      const unit = fioSize('1' + m[1]!, m[1] === 'KB' || m[1] === 'MB' || m[1] === 'GB');
      const kv = kvPairs(m[2]!);
      const L = { direction: this.dir ?? 'unknown' };
      const col = `bw (${m[1]}/s)`;
      const v = (k: string) => fioCount(kv.get(k)) * unit;
      if (!Number.isFinite(v('min'))) { this.warn(lineNo, 'fio bw line', t); return; }
      this.add(fioMetric('bandwidth_sample_min_bytes_per_second', v('min'), 'B/s', { labels: L, column: col + ' min', lines: L1 }), lineNo);
      this.add(fioMetric('bandwidth_sample_max_bytes_per_second', v('max'), 'B/s', { labels: L, column: col + ' max', lines: L1 }), lineNo);
      this.add(fioMetric('bandwidth_share_percent', Number((kv.get('per') ?? '').replace('%', '')), '%', { labels: L, column: col + ' per', lines: L1 }), lineNo);
      this.add(fioMetric('bandwidth_sample_mean_bytes_per_second', v('avg'), 'B/s', { labels: L, column: col + ' avg', lines: L1 }), lineNo);
      this.add(fioMetric('bandwidth_sample_stdev_bytes_per_second', kv.has('stdev') ? v('stdev') : v('dev'), 'B/s', { labels: L, column: col + ' stdev', lines: L1 }), lineNo);
      if (kv.has('samples')) this.add(fioMetric('bandwidth_samples', Number(kv.get('samples')), 'count', { labels: L, column: col + ' samples', lines: L1 }), lineNo);
      return;
    }
    // "iops        : min=    1, max=  204, avg=49.51, stdev=46.30, samples=1623"
    m = /^iops\s*:\s*(min=.*)$/.exec(t);
    if (m) {
      const kv = kvPairs(m[1]!);
      const L = { direction: this.dir ?? 'unknown' };
      this.add(fioMetric('iops_sample_min', fioCount(kv.get('min')), '1/s', { labels: L, column: 'iops min', lines: L1 }), lineNo);
      this.add(fioMetric('iops_sample_max', fioCount(kv.get('max')), '1/s', { labels: L, column: 'iops max', lines: L1 }), lineNo);
      this.add(fioMetric('iops_sample_mean', fioCount(kv.get('avg')), '1/s', { labels: L, column: 'iops avg', lines: L1 }), lineNo);
      this.add(fioMetric('iops_sample_stdev', fioCount(kv.get('stdev')), '1/s', { labels: L, column: 'iops stdev', lines: L1 }), lineNo);
      if (kv.has('samples')) this.add(fioMetric('iops_samples', Number(kv.get('samples')), 'count', { labels: L, column: 'iops samples', lines: L1 }), lineNo);
      return;
    }
    // "lat (msec)   : 2=0.02%, 4=0.16%" latency distribution
    m = /^lat \((nsec|usec|msec)\)\s*:\s*(.*)$/.exec(t);
    if (m) {
      for (const [k, v] of kvPairs(m[2]!)) this.latDist.push([cur.name, m[1]!, k, Number(v.replace('%', ''))]);
      return;
    }
    // "cpu          : usr=0.01%, sys=0.06%, ctx=8199, majf=0, minf=1967"
    m = /^cpu\s*:\s*(usr=.*)$/.exec(t);
    if (m) {
      const kv = kvPairs(m[1]!);
      const p = (k: string) => Number((kv.get(k) ?? '').replace('%', ''));
      this.add(fioMetric('cpu_user_percent', p('usr'), '%', { column: 'usr', lines: L1 }), lineNo);
      this.add(fioMetric('cpu_system_percent', p('sys'), '%', { column: 'sys', lines: L1 }), lineNo);
      this.add(fioMetric('context_switches', p('ctx'), 'count', { column: 'ctx', lines: L1 }), lineNo);
      this.add(fioMetric('major_faults', p('majf'), 'count', { column: 'majf', lines: L1 }), lineNo);
      this.add(fioMetric('minor_faults', p('minf'), 'count', { column: 'minf', lines: L1 }), lineNo);
      return;
    }
    // "IO depths    : 1=0.1%, …", "submit    : …", "complete  : …"
    m = /^(IO depths|submit|complete)\s*:\s*(.*)$/.exec(t);
    if (m) {
      const kind = m[1] === 'IO depths' ? 'depth' : m[1]!;
      for (const [k, v] of kvPairs(m[2]!)) this.depths.push([cur.name, kind, k, Number(v.replace('%', ''))]);
      return;
    }
    // "issued rwts: total=0,44328,0,0 short=0,0,0,0 dropped=0,0,0,0" (fio 2.x: "issued    : total=r=0/w=44328/d=0, short=…")
    m = /^issued[\w ]*:\s*total=(\S+)/.exec(t);
    if (m) {
      const parts = m[1]!.replace(/,$/, '').split(/[,/]/).map((s) => Number(s.replace(/^[a-z]=/, '')));
      parts.forEach((v, i) => { if (i < 3) this.add(fioMetric('ios_issued', v, 'count', { labels: { direction: DIRS[i]! }, column: 'issued total', lines: L1 }), lineNo); });
      return;
    }
    // other per-job lines fio prints (latency target, errors, prio stats, steady state …): known, not needed
  }

  private pctRow(t: string, lineNo: number): void {
    const pct = this.pct!;
    // (?<!\d): a percentile starts where no digit precedes it, else a long run of digits takes quadratic time
    const re = /(?<!\d)(\d+(?:\.\d+)?)th=\[\s*(\d+(?:\.\d+)?)([kKM]?)\]/g;
    let m: RegExpExecArray | null;
    let any = false;
    while ((m = re.exec(t))) {
      any = true;
      const p = Number(m[1]);
      const v = fioCount(m[2]! + m[3]!) * pct.mult;
      this.add(fioMetric(`latency_${pctName(p)}_seconds`, v, 's', { labels: pct.labels, column: `${pct.phase} percentiles ${m[1]}th`, lines: lineNo }), lineNo);
    }
    if (!any) this.warn(lineNo, 'fio percentile row', t);
  }

  private groupLine(dir: string, body: string, lineNo: number): void {
    const L = { direction: dir, group: this.runGroup ?? '0' };
    const L1: [number, number] = [lineNo, lineNo];
    const g = this.groupMetrics;
    const before = g.length;
    if (body.startsWith('bw=')) {
      // fio 3: "bw=8788KiB/s (8999kB/s), 8788KiB/s-8788KiB/s (8999kB/s-8999kB/s), io=173MiB (182MB), run=20176-20176msec"
      const x = /^bw=([\d.]+[A-Za-z]*\/s)(?: \([^)]*\))?, ([\d.]+[A-Za-z]*\/s)-([\d.]+[A-Za-z]*\/s)(?: \([^)]*\))?, io=([\d.]+[A-Za-z]*)(?: \([^)]*\))?, run=(\d+)-(\d+)msec/.exec(body);
      if (x) {
        push(g, fioMetric('group_bandwidth_bytes_per_second', fioSize(x[1]), 'B/s', { labels: L, column: 'bw', lines: L1 }));
        push(g, fioMetric('group_bandwidth_min_bytes_per_second', fioSize(x[2]), 'B/s', { labels: L, column: 'bw min', lines: L1 }));
        push(g, fioMetric('group_bandwidth_max_bytes_per_second', fioSize(x[3]), 'B/s', { labels: L, column: 'bw max', lines: L1 }));
        push(g, fioMetric('group_io_bytes', fioSize(x[4]), 'B', { labels: L, column: 'io', lines: L1 }));
        push(g, fioMetric('group_runtime_min_seconds', Number(x[5]) / 1000, 's', { labels: L, column: 'run min', lines: L1 }));
        push(g, fioMetric('group_runtime_max_seconds', Number(x[6]) / 1000, 's', { labels: L, column: 'run max', lines: L1 }));
      }
    } else if (body.startsWith('io=')) {
      // fio 2: "io=173MB, aggrb=8788KB/s, minb=8788KB/s, maxb=8788KB/s, mint=20176msec, maxt=20176msec"
      const kv = kvPairs(body);
      push(g, fioMetric('group_bandwidth_bytes_per_second', fioSize(kv.get('aggrb'), true), 'B/s', { labels: L, column: 'aggrb', lines: L1 }));
      push(g, fioMetric('group_bandwidth_min_bytes_per_second', fioSize(kv.get('minb'), true), 'B/s', { labels: L, column: 'minb', lines: L1 }));
      push(g, fioMetric('group_bandwidth_max_bytes_per_second', fioSize(kv.get('maxb'), true), 'B/s', { labels: L, column: 'maxb', lines: L1 }));
      push(g, fioMetric('group_io_bytes', fioSize(kv.get('io'), true), 'B', { labels: L, column: 'io', lines: L1 }));
      push(g, fioMetric('group_runtime_min_seconds', parseFloat(kv.get('mint') ?? '') / 1000, 's', { labels: L, column: 'mint', lines: L1 }));
      push(g, fioMetric('group_runtime_max_seconds', parseFloat(kv.get('maxt') ?? '') / 1000, 's', { labels: L, column: 'maxt', lines: L1 }));
    }
    if (g.length === before) this.warn(lineNo, 'fio run status line', body);
  }

  private diskLine(dev: string, body: string, lineNo: number): void {
    const kv = kvPairs(body);
    const L1: [number, number] = [lineNo, lineNo];
    const out = this.disks.normal;
    const util = Number((kv.get('util') ?? '').replace('%', ''));
    if (!Number.isFinite(util) || !kv.has('ios')) { this.warn(lineNo, 'fio disk stats line', dev + ': ' + body); return; }
    push(out, fioMetric('disk_util_percent', util, '%', { labels: { device: dev }, column: 'util', lines: L1 }));
    const pair = (k: string, name: string, scale: number, unit: string) => {
      const v = kv.get(k);
      if (!v) return;
      const [r, w] = v.split('/');
      push(out, fioMetric(name, Number(r) * scale, unit, { labels: { device: dev, direction: 'read' }, column: k, lines: L1 }));
      push(out, fioMetric(name, Number(w) * scale, unit, { labels: { device: dev, direction: 'write' }, column: k, lines: L1 }));
    };
    pair('ios', 'disk_ios', 1, 'count');
    pair('merge', 'disk_merges', 1, 'count');
    pair('sectors', 'disk_sectors', 1, 'count');
    pair('ticks', 'disk_ticks_seconds', 1e-3, 's');
    const q = Number(kv.get('in_queue'));
    push(out, fioMetric('disk_in_queue_seconds', q / 1000, 's', { labels: { device: dev }, column: 'in_queue', lines: L1 }));
    if (kv.has('aggrutil')) push(out, fioMetric('disk_aggregate_util_percent', Number((kv.get('aggrutil') ?? '').replace('%', '')), '%', { labels: { device: dev }, column: 'aggrutil', lines: L1 }));
  }

  private terse(t: string, lineNo: number): void {
    const r = readTerse(t, lineNo);
    if (typeof r === 'string') { this.warn(lineNo, `fio terse line (${r})`, t); return; }
    if (r.version && !this.toolVersion) this.toolVersion = r.version;
    this.jobs.terse.push(r.job);
    // every terse line repeats the disk stats: keep the last set
    if (r.disks.length) this.disks.terse = r.disks;
  }

  private jsonLine(t: string, lineNo: number): void {
    const buf = this.json!;
    buf.push(t);
    // track brace depth outside strings
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (this.inString) {
        if (c === 92) i++; else if (c === 34) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.jsonDepth++;
      else if (c === 125 || c === 93) this.jsonDepth--;
    }
    this.inString = false; // a string never spans lines in fio JSON
    if (this.jsonDepth <= 0) this.finishJson(lineNo);
  }

  private finishJson(lineNo: number): void {
    const text = this.json!.join('\n');
    this.jsonLines = this.json!;
    this.json = null;
    let doc: unknown;
    try { doc = JSON.parse(text); } catch {
      this.warnings.push(`line ${this.jsonFirst}: could not read fio JSON output (lines ${this.jsonFirst}-${lineNo}): not valid JSON`);
      return;
    }
    // line ranges of each job object and of disk_util, for evidence
    const starts: number[] = [];
    let disk = -1;
    this.jsonLines.forEach((l, i) => {
      if (/^\s*"jobname"\s*:/.test(l)) starts.push(this.jsonFirst + i);
      else if (/^\s*"disk_util"\s*:/.test(l)) disk = this.jsonFirst + i;
    });
    const jobEnd = disk > 0 ? disk - 1 : lineNo;
    const jobLines = starts.map((st, k) => [st, (starts[k + 1] ?? jobEnd + 1) - 1] as const);
    const r = readFioJson(doc, this.jsonFirst, lineNo, jobLines, disk > 0 ? [disk, lineNo] : undefined);
    if (r.version) this.toolVersion ??= r.version;
    for (const [k, v] of Object.entries(r.settings)) this.jsonSettings[k] ??= v;
    this.jobs.json.push(...r.jobs);
    this.disks.json.push(...r.disks);
    if (r.bins) this.tables.latency_bins = r.bins;
    this.jsonLines = [];
  }

  end(): ParseOutput {
    if (this.json) {
      if (this.json.length) this.finishJson(this.lineCount);
      this.json = null;
    }
    const src: Section['source'] = this.jobs.json.length ? 'json' : this.jobs.normal.length ? 'normal' : 'terse';
    const metrics = finishJobs(this.jobs[src]);
    // disk stats: from the chosen source, else any
    const disks = this.disks[src].length ? this.disks[src] : this.disks.normal.length ? this.disks.normal : this.disks.json.length ? this.disks.json : this.disks.terse;
    // headline fallback: a truncated capture may only have the run status lines
    const haveBw = new Set<string>();
    for (const x of metrics) if (x.name === 'bandwidth_bytes_per_second') haveBw.add(x.labels?.direction ?? '');
    for (const gm of this.groupMetrics) {
      const dir = gm.labels?.direction ?? '';
      if (gm.name === 'group_bandwidth_bytes_per_second' && !haveBw.has(dir)) {
        haveBw.add(dir);
        metrics.push({ ...gm, name: 'bandwidth_bytes_per_second', labels: { direction: dir } });
      }
    }
    metrics.push(...this.groupMetrics, ...disks);

    const settings = Object.assign(textRecord<string>(), this.headerSettings, this.jsonSettings, this.cmdSettings);
    if (this.jobNames.size > 1) Object.assign(settings, this.perJobSettings);
    if (settings.numjobs === undefined && this.jobDefs === 1 && Number.isFinite(this.processes)) settings.numjobs = String(this.processes);
    if (Number.isFinite(this.processes)) settings.processes ??= String(this.processes);
    const out: ParseOutput = { metrics, series: [], facts: {}, settings, warnings: this.warnings };
    if (!metrics.length && !Object.keys(settings).length && !Object.keys(this.tables).length && !this.warnings.length) {
      this.warnings.push(`no fio results found (${this.lineCount} lines)`);
    }
    if (this.command !== undefined) out.command = this.command;
    if (this.toolVersion !== undefined) out.toolVersion = this.toolVersion;
    if (this.latDist.length && src === 'normal') this.tables.latency_distribution = { columns: ['job', 'unit', 'bucket', 'percent'], rows: this.latDist };
    if (this.depths.length && src === 'normal') this.tables.io_depths = { columns: ['job', 'kind', 'bucket', 'percent'], rows: this.depths };
    if (Object.keys(this.tables).length) out.tables = this.tables;
    return out;
  }
}

export const fioParser: CaptureParser = {
  id: 'fio',
  title: 'fio (normal, json, json+, terse)',
  commands: [{ program: 'fio' }],
  detect,
  open: () => new FioSink(),
};
