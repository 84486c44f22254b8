/**
 * sadf (sysstat): `sadf -d` (kind `sadf-csv`: "hostname;interval;timestamp;…" records under a
 * "# hostname;interval;timestamp;<columns>" header per activity, or all activities on one line with
 * -h; timestamps as printed by default, -t or -U) and `sadf -j` (kind `sadf-json`). Both give the
 * same series as sar (SAR_COLUMNS names and units, labels cpu / device / iface …); restart and
 * comment records (-C) go to tables.records like sar's.
 */
import type { CaptureParser, FactValue, LineSink, ParseOutput, SinkOptions, Table } from '../../types';
import { emptyOutput, lookupTable, textRecord } from '../kit';
import { Collector, isNumTok, numAt } from './common';
import { INTERRUPTS, SAR_COLUMNS, SAR_SPEC } from './sar';
import { genericSpec, type ColSpec } from './timeTable';

const MAX_WARN = 500;

function specOf(col: string): ColSpec {
  return SAR_COLUMNS[col] ?? genericSpec(col);
}

/** "2026-11-30 22:45:16 UTC", "2026-11-30 22:45:16" (-t: local, read as UTC like sar's clocks), "1796078716" (-U) */
export function sadfTime(t: string): number | null {
  if (/^\d{9,11}$/.test(t)) return Number(t) * 1000;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?: UTC)?$/.exec(t);
  if (!m) return null;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

// ---------------------------------------------------------------------------------------------
// sadf -d

interface Segment {
  cols: string[]; specs: (ColSpec | null)[]; keyLabel: (string | null)[]; repeat: boolean; numericKey: boolean;
  /** -I: "INTR;CPU*", one value per CPU after the key (all, then 0, 1 … as -P chose them) */
  wildcard?: boolean;
}

interface CsvHeader { segments: Segment[]; sample: number; sampleTime: string | null; seen: Set<string> }

/** names of block devices and network interfaces, to split a sadf -d -h line between their lists */
const NAME_CLASS = lookupTable<RegExp>({
  device: /^(?:[shv]d[a-z]|xvd|nvme|dm-|dev\d|md\d|loop|zram|mmcblk|sr\d|nbd|rbd|ram\d|drbd|bcache|emcpower|cciss|scd)/,
  iface: /^(?:lo$|eth|en[opsx]|wl|ww|ib|ifb|br|bond|team|veth|docker|virbr|vnet|tun|tap|vlan|vxlan|flannel|cni|cali|wg|ppp|sit|gre|ip6|dummy|macvlan|ovs|can\d|usb|rmnet)/,
});

const CSV_HEAD = /^#\s*hostname;interval;timestamp;/;

class SadfCsvSink implements LineSink {
  private readonly out: ParseOutput = emptyOutput();
  private readonly col: Collector;
  private readonly headers = new Map<string, CsvHeader>();
  private header: CsvHeader | null = null;
  private readonly events: (string | number | null)[][] = [];
  private warnCount = 0;
  private rows = 0;

  constructor(opts: SinkOptions = {}) {
    this.col = Collector.open(opts);
  }

  private warn(lineNo: number, t: string, why = 'could not read'): void {
    if (this.warnCount++ < MAX_WARN) this.out.warnings.push(`line ${lineNo}: ${why} "${t.length > 80 ? t.slice(0, 80) + '…' : t}"`);
  }

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    if (CSV_HEAD.test(t)) { this.setHeader(t.slice(t.indexOf('timestamp;') + 10).split(';')); return; }
    const f = t.split(';');
    if (f.length < 4) { this.warn(lineNo, t); return; }
    if (this.out.facts.hostname === undefined && f[0] !== '') this.out.facts.hostname = f[0]!;
    const time = sadfTime(f[2]!);
    // interval -1: "LINUX-RESTART\t(2 CPU)" or "COM text"
    if (f[1] === '-1') {
      const rest = f.slice(3).join(';');
      if (rest.startsWith('LINUX-RESTART')) this.events.push([f[2]!, 'LINUX RESTART', rest.slice(13).trim() || null, lineNo]);
      else if (rest.startsWith('COM')) this.events.push([f[2]!, 'COM', rest.slice(3).trim(), lineNo]);
      else { this.warn(lineNo, t); return; }
      // counters restart: the next row starts a new sample in every activity
      for (const h of this.headers.values()) { h.sampleTime = null; h.seen.clear(); }
      return;
    }
    const h = this.header;
    if (!h) { this.warn(lineNo, t, 'no header for'); return; }
    if (time === null) { this.warn(lineNo, t); return; }
    this.row(h, f, 3, time, f[2]!, lineNo, t);
  }

  private setHeader(cols: string[]): void {
    const key = cols.join(';');
    let h = this.headers.get(key);
    if (!h) {
      const segments: Segment[] = [];
      let cur: Segment | null = null;
      for (let c of cols) {
        const repeatEnd = c.endsWith('[...]');
        if (repeatEnd) c = c.slice(0, -5);
        const kl = SAR_SPEC.keys[c];
        // a key column starts a new segment (one row per device / interface / CPU)
        if (kl !== undefined || !cur || cur.repeat) {
          cur = { cols: [], specs: [], keyLabel: [], repeat: false, numericKey: c === 'CPU', wildcard: false };
          segments.push(cur);
        }
        if (c === 'CPU*') { cur.wildcard = true; continue; }
        cur.cols.push(c);
        cur.keyLabel.push(kl ?? null);
        cur.specs.push(kl !== undefined ? null : specOf(c));
        if (repeatEnd) cur.repeat = true;
      }
      h = { segments, sample: -1, sampleTime: null, seen: new Set() };
      this.headers.set(key, h);
    }
    this.header = h;
  }

  private row(h: CsvHeader, f: string[], k: number, time: number, timeTok: string, lineNo: number, t: string): void {
    const segs = h.segments;
    // one line per sample when a header has several segments (-h) or no key column
    let pos = k;
    const chunks: { seg: Segment; at: number }[] = [];
    for (let si = 0; si < segs.length; si++) {
      const seg = segs[si]!;
      const n = seg.cols.length;
      if (seg.wildcard) {
        // the rest of the line: one interrupts rate per CPU
        if (f.length - pos <= n) { this.warn(lineNo, t, 'truncated line'); return; }
        chunks.push({ seg, at: pos });
        pos = f.length;
        break;
      }
      if (!seg.repeat) {
        if (f.length - pos < n) { this.warn(lineNo, t, 'truncated line'); return; }
        chunks.push({ seg, at: pos });
        pos += n;
        continue;
      }
      const last = si === segs.length - 1;
      let later = 0;
      let laterRepeat = false;
      for (let j = si + 1; j < segs.length; j++) { if (segs[j]!.repeat) laterRepeat = true; else later += segs[j]!.cols.length; }
      let count: number;
      if (last) count = Math.floor((f.length - pos) / n);
      else if (!seg.numericKey) {
        // "vda;…;lo;…": both are names; where a device list ends and an interface list begins is
        // told by the name (the format itself does not say)
        const own = NAME_CLASS[seg.keyLabel[0] ?? ''];
        const next = NAME_CLASS[segs[si + 1]!.keyLabel[0] ?? ''];
        count = 0;
        for (;;) {
          const tok = f[pos + count * n];
          if (tok === undefined || pos + (count + 1) * n > f.length || isNumTok(tok)) break;
          if (next && next.test(tok) && !(own && own.test(tok))) break;
          count++;
        }
      }
      else if (!laterRepeat) count = Math.floor((f.length - pos - later) / n);
      else { this.warn(lineNo, t, 'could not split the -h line at'); return; }
      for (let r = 0; r < count; r++) chunks.push({ seg, at: pos + r * n });
      pos += count * n;
    }
    if (pos !== f.length) { this.warn(lineNo, t, pos > f.length ? 'truncated line' : 'could not read'); return; }
    // a new sample when the time changes or a row's key repeats (two records in the same second)
    let labelKey = '';
    for (const { seg, at } of chunks) for (let i = 0; i < seg.cols.length; i++) if (seg.keyLabel[i]) labelKey += f[at + i] + '\u0000';
    labelKey += '\u0001';
    if (h.sampleTime !== timeTok || h.seen.has(labelKey)) { h.sample++; h.sampleTime = timeTok; h.seen.clear(); }
    h.seen.add(labelKey);
    for (const { seg, at } of chunks) {
      if (seg.wildcard) { this.perCpu(seg, f, at, h.sample, lineNo, time); continue; }
      let labels: Record<string, string> | undefined;
      for (let i = 0; i < seg.cols.length; i++) {
        const kl = seg.keyLabel[i];
        if (!kl) continue;
        let v = f[at + i]!;
        if (kl === 'cpu' && v === '-1') v = 'all';
        (labels ??= {})[kl] = v;
      }
      for (let i = 0; i < seg.cols.length; i++) {
        const sp = seg.specs[i];
        if (!sp) continue;
        const tok = f[at + i]!;
        let v = numAt(tok, 0, tok.length);
        if (v !== v) continue;
        if (sp.mult) v *= sp.mult; else if (sp.div) v /= sp.div;
        this.col.push(this.col.get(sp.name, seg.cols[i]!, sp.unit, labels), v, h.sample, lineNo, time);
      }
    }
    this.rows++;
  }

  private perCpu(seg: Segment, f: string[], at: number, idx: number, lineNo: number, time: number): void {
    const labels: Record<string, string> = {};
    for (let i = 0; i < seg.cols.length; i++) if (seg.keyLabel[i]) labels[seg.keyLabel[i]!] = f[at + i]!;
    for (let i = at + seg.cols.length, cpu = -1; i < f.length; i++, cpu++) {
      const v = numAt(f[i]!, 0, f[i]!.length);
      if (v !== v) continue;
      const col = cpu < 0 ? 'all' : 'CPU' + cpu;
      this.col.push(this.col.get(INTERRUPTS.name, col, INTERRUPTS.unit, { ...labels, cpu: cpu < 0 ? 'all' : String(cpu) }), v, idx, lineNo, time);
    }
  }

  end(): ParseOutput {
    this.out.series = this.col.finish(false);
    if (this.events.length) {
      const table: Table = { columns: ['time', 'record', 'text', 'line'], rows: this.events };
      (this.out.tables ??= {}).records = table;
    }
    if (this.rows === 0 && this.out.warnings.length === 0) this.out.warnings.push('no sadf -d records found');
    if (this.warnCount > MAX_WARN) this.out.warnings.push(`${this.warnCount - MAX_WARN} more unreadable lines`);
    return this.out;
  }

  facts(): Record<string, FactValue> { return this.out.facts; }
}

export const sadfCsv: CaptureParser = {
  id: 'sadf-csv',
  title: 'sadf -d (sysstat, semicolon-separated)',
  commands: [{ program: 'sadf', args: /(?:^|\s)-[a-zA-Z]*d/ }],
  detect(head) {
    for (let i = 0; i < head.length && i < 50; i++) {
      const t = head[i]!.trim();
      if (t === '') continue;
      if (CSV_HEAD.test(t)) return 0.97;
      // a header cut off: "host;1;2026-11-30 22:45:16 UTC;…" rows alone
      const f = t.split(';');
      if (f.length >= 5 && /^-?\d+$/.test(f[1]!) && sadfTime(f[2]!) !== null && f[2]!.length > 11) return 0.6;
      return 0;
    }
    return 0;
  },
  open: (opts) => new SadfCsvSink(opts),
};

// ---------------------------------------------------------------------------------------------
// sadf -j

/** string fields of sadf -j rows that name the row → label */
const JSON_LABELS = lookupTable({
  cpu: 'cpu', 'disk-device': 'device', iface: 'iface', intr: 'irq', node: 'node', line: 'tty',
  filesystem: 'filesystem', mountpoint: 'mountpoint', 'fchost': 'fchost', 'bus': 'bus', 'device': 'device',
});

/** sadf -j key → sar column, where the name differs more than by "/s" or "-percent" */
const JSON_COLUMNS = lookupTable({
  inactive: 'kbinact', blg_len: 'blg_len',
});

/** activities whose plain numbers are levels, not rates (sizes in kB, counts, load) */
const LEVEL_ACTIVITIES = new Set(['memory', 'hugepages', 'kernel', 'queue', 'net-sock', 'net-sock6', 'filesystems', 'cpu-frequency', 'fan-speed', 'temperature', 'voltage-input']);
/** activities whose every plain number is a rate (sar prints them as "x/s") */
const RATE_ACTIVITIES = /^(?:paging|process-and-context-switch|swap-pages|io|io-reads|io-writes|io-discard|disk|softnet|serial|net-(?!sock)[a-z0-9]+)$/;
/** duplicates of the kB columns sadf -j also prints (sectors, the old names) */
const DUPLICATES = lookupTable({ rd_sec: 'rkB', wr_sec: 'wkB', dc_sec: 'dkB', 'avgrq-sz': 'areq-sz', 'avgqu-sz': 'aqu-sz' });

/** the sar column for a sadf -j key within an activity: "rxkB" → "rxkB/s", "memfree" → "kbmemfree", "util-percent" → "%util" */
export function jsonColumn(activity: string, key: string): string {
  const mapped = JSON_COLUMNS[key];
  if (mapped) return mapped;
  if (activity === 'cpu-frequency' && key === 'frequency') return 'MHz';
  // -q PSI: psi-io {"some_avg10", "full_avg"} → %sio-10, %fio
  const psi = /^psi-(cpu|io|mem)$/.exec(activity);
  const pm = psi ? /^(some|full)_avg(\d*)$/.exec(key) : null;
  if (psi && pm) return `%${pm[1]![0]}${psi[1]}${pm[2] ? '-' + pm[2] : ''}`;
  if (key.endsWith('-percent')) return '%' + key.slice(0, -8);
  if (activity === 'cpu-load' || activity === 'cpu-load-all') return '%' + key;
  if (activity === 'memory' || activity === 'hugepages') return 'kb' + key;
  if (!LEVEL_ACTIVITIES.has(activity) && SAR_COLUMNS[key + '/s'] !== undefined) return key + '/s';
  if (SAR_COLUMNS[key] !== undefined) return key;
  // rate activities: "pgfree" → "pgfree/s", "ihdrerr" (-n EIP) → "ihdrerr/s"
  if (RATE_ACTIVITIES.test(activity)) return key + '/s';
  return key;
}

const JSON_START = /^\{\s*"sysstat"\s*:\s*\{$/;
/** one statistics element of sadf -j (all activities of one sample; large with -A on many CPUs) */
const MAX_RECORD = 16 * 1048576;
/** a whole document kept to parse at the end (jq -c / jq . output) */
const MAX_WHOLE = 256 * 1048576;

class SadfJsonSink implements LineSink {
  private readonly out: ParseOutput = emptyOutput();
  private readonly col: Collector;
  private readonly events: (string | number | null)[][] = [];
  /** the whole document, when it is not laid out one record per line block (jq -c …) */
  private whole: string[] | null = null;
  private inStats = false;
  private buf: string[] = [];
  private bufLine = 0;
  private depth = 0;
  private sample = 0;
  private started = false;

  private wholeChars = 0;
  private bufChars = 0;

  constructor(opts: SinkOptions = {}) {
    this.col = Collector.open(opts);
  }

  line(text: string, lineNo: number): void {
    if (this.whole) {
      // a document not laid out as sadf writes it is read whole: up to a bound
      if (this.wholeChars < 0) return;
      this.wholeChars += text.length + 1;
      if (this.wholeChars > MAX_WHOLE) { this.wholeChars = -1; this.out.warnings.push(`line ${lineNo}: a sadf -j document not laid out as sadf writes it is read only up to ${MAX_WHOLE / 1048576} MiB`); return; }
      this.whole.push(text);
      return;
    }
    const t = text.trim();
    if (!this.started) {
      if (t === '') return;
      this.started = true;
      if (!JSON_START.test(t)) { this.whole = [text]; return; }
      return;
    }
    if (this.buf.length || (this.inStats && t.startsWith('{'))) {
      if (!this.buf.length) { this.bufLine = lineNo; this.depth = 0; this.bufChars = 0; }
      this.buf.push(t);
      this.bufChars += t.length + 1;
      if (this.bufChars > MAX_RECORD) {
        this.out.warnings.push(`line ${this.bufLine}: a sadf -j record over ${MAX_RECORD / 1048576} MiB (not closed?) was skipped`);
        this.buf = [];
        this.inStats = false;
        return;
      }
      this.depth += depthOf(t);
      if (this.depth <= 0) {
        const s = this.buf.join('\n').replace(/,\s*$/, '');
        this.buf = [];
        let rec: unknown;
        try { rec = JSON.parse(s); } catch { this.out.warnings.push(`line ${this.bufLine}: could not read the sadf -j record`); return; }
        this.record(rec as Record<string, unknown>, this.bufLine, lineNo);
      }
      return;
    }
    if (t.startsWith('"statistics"')) { this.inStats = !/\]\s*,?$/.test(t); return; }
    if (this.inStats && /^\]/.test(t)) { this.inStats = false; return; }
    // host fields: "nodename": "vm", …; restarts and comments: one object per line
    const m = /^"([\w-]+)":\s*(.*?),?$/.exec(t);
    if (!m) return;
    let v: unknown;
    try { v = JSON.parse(m[2]!); } catch { return; }
    this.hostField(m[1]!, v, lineNo);
  }

  private hostField(k: string, v: unknown, lineNo: number): void {
    const f = this.out.facts;
    if (k === 'nodename' && typeof v === 'string') f.hostname = v;
    else if (k === 'release' && typeof v === 'string') f.kernel = v;
    else if (k === 'machine' && typeof v === 'string') f.arch = v;
    else if (k === 'number-of-cpus' && typeof v === 'number') f.cpu_threads = v;
    else if (k === 'file-date' && typeof v === 'string') f.date = v;
    else if (k === 'timezone' && typeof v === 'string') f.timezone = v;
    else if ((k === 'boot' || k === 'comment') && v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const when = `${String(o.date)} ${String(o.time)}${o.utc === 1 ? ' UTC' : ''}`;
      if (k === 'boot') this.events.push([when, 'LINUX RESTART', typeof o.cpu_count === 'number' ? `(${o.cpu_count} CPU)` : null, lineNo]);
      else this.events.push([when, 'COM', typeof o.com === 'string' ? o.com : '', lineNo]);
    }
  }

  private record(rec: Record<string, unknown>, first: number, last: number): void {
    const ts = rec.timestamp as Record<string, unknown> | undefined;
    const time = ts && typeof ts.date === 'string' && typeof ts.time === 'string' ? sadfTime(`${ts.date} ${ts.time}`) : null;
    const idx = this.sample++;
    for (const [act, v] of Object.entries(rec)) {
      if (act === 'timestamp') continue;
      this.activity(act, v, idx, time, first, last);
    }
  }

  private activity(act: string, v: unknown, idx: number, time: number | null, first: number, last: number): void {
    if (Array.isArray(v)) { for (const row of v) if (row && typeof row === 'object') this.values(act, row as Record<string, unknown>, idx, time, last); return; }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    // "network": {"net-dev": [...], "net-tcp": {...}}; "power-management" likewise
    const nested = Object.values(o).every((x) => x !== null && typeof x === 'object');
    if (nested && act !== 'io') { for (const [sub, x] of Object.entries(o)) this.activity(sub, x, idx, time, first, last); return; }
    this.values(act, o, idx, time, last);
  }

  private values(act: string, row: Record<string, unknown>, idx: number, time: number | null, lineNo: number): void {
    let labels: Record<string, string> | undefined;
    for (const [k, v] of Object.entries(row)) if (typeof v === 'string') (labels ??= textRecord())[JSON_LABELS[k] ?? k.replace(/-/g, '_')] = v;
    // -y: {"line": 0, …}; -m CPU: {"number": "all", "frequency": …}
    if (act === 'serial' && typeof row.line === 'number') { (labels ??= textRecord()).tty = String(row.line); row = { ...row }; delete row.line; }
    if (act === 'cpu-frequency' && labels?.number !== undefined) { labels.cpu = labels.number; delete labels.number; }
    // -I: {"intr": "sum", "all": 3069.31, "CPU0": 696.04, "CPU1": 2373.27} (older sysstat: "value")
    if (act === 'interrupts') {
      for (const [k, v] of Object.entries(row)) {
        if (typeof v !== 'number') continue;
        const cpu = k === 'value' || k === 'all' ? 'all' : /^CPU\d+$/.test(k) ? k.slice(3) : k;
        this.col.push(this.col.get(INTERRUPTS.name, k === 'value' ? 'intr/s' : k, INTERRUPTS.unit, { ...labels, cpu }), v, idx, lineNo, time);
      }
      return;
    }
    for (const [k, v] of Object.entries(row)) {
      if (v && typeof v === 'object' && !Array.isArray(v)) { this.values(act, { ...(v as Record<string, unknown>), ...pickStrings(row) }, idx, time, lineNo); continue; }
      if (typeof v !== 'number') continue;
      const dup = DUPLICATES[k];
      if (dup !== undefined && row[dup] !== undefined) continue;
      const c = jsonColumn(act, k);
      const sp = specOf(c);
      let x = v;
      if (sp.mult) x *= sp.mult; else if (sp.div) x /= sp.div;
      this.col.push(this.col.get(sp.name, c, sp.unit, labels), x, idx, lineNo, time);
    }
  }

  end(): ParseOutput {
    if (this.whole) {
      let doc: unknown;
      try { doc = JSON.parse(this.whole.join('\n')); } catch { this.out.warnings.push('line 1: could not read the sadf -j document (truncated?)'); }
      const hosts = (doc as { sysstat?: { hosts?: unknown[] } } | undefined)?.sysstat?.hosts;
      const host = Array.isArray(hosts) ? hosts[0] as Record<string, unknown> | undefined : undefined;
      if (host) {
        for (const [k, v] of Object.entries(host)) if (k !== 'statistics' && k !== 'restarts' && k !== 'comments') this.hostField(k, v, 1);
        for (const r of Array.isArray(host.restarts) ? host.restarts as Record<string, unknown>[] : []) this.hostField('boot', r.boot, 1);
        for (const r of Array.isArray(host.comments) ? host.comments as Record<string, unknown>[] : []) this.hostField('comment', r.comment, 1);
        for (const r of Array.isArray(host.statistics) ? host.statistics as Record<string, unknown>[] : []) if (r && typeof r === 'object') this.record(r, 1, 1);
      }
    } else if (this.buf.length) this.out.warnings.push(`line ${this.bufLine}: truncated sadf -j record`);
    this.out.series = this.col.finish(false, this.sample);
    if (this.events.length) (this.out.tables ??= {}).records = { columns: ['time', 'record', 'text', 'line'], rows: this.events };
    if (this.sample === 0 && this.out.warnings.length === 0) this.out.warnings.push('no sadf -j statistics found');
    return this.out;
  }

  facts(): Record<string, FactValue> { return this.out.facts; }
}

function pickStrings(row: Record<string, unknown>): Record<string, string> {
  const o = textRecord<string>();
  for (const [k, v] of Object.entries(row)) if (typeof v === 'string') o[k] = v;
  return o;
}

/** brackets opened minus closed on a line, outside strings */
function depthOf(t: string): number {
  let d = 0;
  let inStr = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (inStr) { if (c === 92) i++; else if (c === 34) inStr = false; continue; }
    if (c === 34) inStr = true;
    else if (c === 123 || c === 91) d++;
    else if (c === 125 || c === 93) d--;
  }
  return d;
}

export const sadfJson: CaptureParser = {
  id: 'sadf-json',
  title: 'sadf -j (sysstat JSON)',
  commands: [{ program: 'sadf', args: /(?:^|\s)-[a-zA-Z]*j/ }],
  detect(head) {
    for (let i = 0; i < head.length && i < 20; i++) {
      const t = head[i]!.trim();
      if (t === '') continue;
      if (!t.startsWith('{')) return 0;
      // sadf -j, or the same pretty-printed by jq ("{" alone, then "sysstat": {)
      const rest = head.slice(i, i + 60).join('\n');
      if (!/^\{\s*"sysstat"\s*:\s*\{/.test(rest)) return 0;
      // iostat/mpstat -o JSON start alike: sadf has "file-date" and {"date", "time"} time stamps
      return /"file-(?:date|utc-time)"\s*:|"timestamp"\s*:\s*\{/.test(rest) ? 0.97 : 0;
    }
    return 0;
  },
  open: (opts) => new SadfJsonSink(opts),
};
