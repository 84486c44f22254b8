/**
 * The report layout pidstat, mpstat and sar share: a banner, then blocks of
 * "<time> [AM|PM] <key columns> <value columns>" lines under a header line that starts with the
 * same time stamp, "Average:" blocks (localized: "Durchschn.:", "平均时间:" …), and, for sar -f,
 * "LINUX RESTART" and "COM" records. One engine, configured per tool.
 */
import type { FactValue, LineSink, Metric, ParseOutput, SinkOptions, Table, Unit } from '../../types';
import { commandLine, emptyOutput, lookupTable, words } from '../kit';
import { isJsSpace } from '../../text';
import {
  Clock, Collector, RowSet, bannerFacts, genericName, hasInterval, isAmPm, isNumTok,
  numAt, parseBanner, parseClock, parseDate, restIsBlank, versionLine,
} from './common';

export interface ColSpec { name: string; unit: Unit; mult?: number; /** divide instead (ms → s) */ div?: number }

export interface ToolSpec {
  tool: 'pidstat' | 'mpstat' | 'sar';
  /** header token → label name for key (dimension) columns */
  keys: Readonly<Record<string, string>>;
  columns: Readonly<Record<string, ColSpec>>;
  /** NaN-pad series so they line up by sample index (stable row sets: cpus, interfaces) */
  pad: boolean;
  /** map an unknown column, e.g. mpstat -I "24/s" → interrupts per irq */
  unknown?: (col: string) => { spec: ColSpec; labels?: Record<string, string> } | undefined;
  /** can the first report be the since-boot one (no interval given)? */
  sinceBootPossible: boolean;
}

/** one row key's series under a header (its value columns, in the header's order) pushed as one row */
interface Entry {
  set: RowSet;
  lastSample: number;
  /** its place in the header's `seq`, and its key cells as printed (null: a command of several words) */
  pos: number;
  words: string[] | null;
}

interface Header {
  cols: string[];
  /** index → label name, for key columns */
  keyLabel: (string | null)[];
  specs: (ColSpec | null)[];
  extraLabels: (Record<string, string> | null)[];
  commandLast: boolean;
  /** pidstat -h: the first column is the time */
  timeCol: boolean;
  byKey: Map<string, Entry>;
  sample: number;
  sampleTime: string | null;
  headerTime: string | null;
  firstRowChecked: boolean;
  /** the header's value columns (the others are keys), and a row's values read into `vals` */
  valueAt: number[];
  vals: Float64Array;
  /** a row under it can be read in place (span): no TGID/TID key (pidstat -t), no time column (-h), a few keys */
  inPlace: boolean;
  /** its entries in the order they began: a report lists its rows in much the same order as the one before, so the next row is likely seq[ptr] */
  seq: Entry[];
  ptr: number;
}

/** key cells a row read in place may have (span) */
const MAX_KEYS = 8;
/** header lines span knows again in place (pidstat -urdw cycles through four, sar -A through dozens: those past this go through line()) */
const MAX_HEADER_RESTS = 8;

export const CPU_PERCENT = lookupTable<ColSpec>({
  '%usr': { name: 'cpu_user_percent', unit: '%' },
  '%user': { name: 'cpu_user_percent', unit: '%' },
  '%nice': { name: 'cpu_nice_percent', unit: '%' },
  '%sys': { name: 'cpu_system_percent', unit: '%' },
  '%system': { name: 'cpu_system_percent', unit: '%' },
  '%iowait': { name: 'cpu_iowait_percent', unit: '%' },
  '%irq': { name: 'cpu_irq_percent', unit: '%' },
  '%soft': { name: 'cpu_softirq_percent', unit: '%' },
  '%steal': { name: 'cpu_steal_percent', unit: '%' },
  '%guest': { name: 'cpu_guest_percent', unit: '%' },
  '%gnice': { name: 'cpu_guest_nice_percent', unit: '%' },
  '%idle': { name: 'cpu_idle_percent', unit: '%' },
  'intr/s': { name: 'interrupts_per_second', unit: '1/s' },
});

const MAX_WARN = 500;

export class TimeTableSink implements LineSink {
  protected readonly out: ParseOutput = emptyOutput();
  private readonly col: Collector;
  private readonly headers = new Map<string, Header>();
  private header: Header | null = null;
  private readonly clock = new Clock();
  private sawBanner = false;
  private sinceBootHint: boolean | undefined;
  private readonly metrics: Metric[] = [];
  private readonly events: (string | number | null)[][] = [];
  private tgid = '';
  private warnCount = 0;
  private anyRows = false;

  /** the program of a command line (after a prompt, or bare) that printed the capture */
  private readonly tools: readonly string[];

  constructor(private readonly spec: ToolSpec, opts: SinkOptions = {}) {
    this.col = Collector.open(opts);
    this.tools = [spec.tool];
  }

  private warn(lineNo: number, t: string, why = 'could not read'): void {
    if (this.warnCount++ < MAX_WARN) this.out.warnings.push(`line ${lineNo}: ${why} "${t.length > 80 ? t.slice(0, 80) + '…' : t}"`);
  }

  private json: string[] | null = null;
  /** the last time stamp read and what it read as */
  private clockText = '';
  private clockAmPm: string | undefined = undefined;
  private clockSec: number | undefined = undefined;
  /** the stamp as a row's time token: "22:46:43", "10:46:43 PM" */
  private clockTok = '';
  /** the header lines read after a time stamp, as their text from the first column on (span reads them again in place): the last few */
  private readonly headerRests: { rest: string; h: Header }[] = [];
  /** where a row's key cells lie (span) */
  private readonly keyStarts = new Int32Array(MAX_KEYS);
  private readonly keyEnds = new Int32Array(MAX_KEYS);
  private readonly keyCols = new Int32Array(MAX_KEYS);

  /** read a time stamp ("22:46:43", "10:46:43" + "PM"): every row of a report carries the same one, read once */
  private readClock(f0: string, ampm: string | undefined): number | undefined {
    if (f0 !== this.clockText || ampm !== this.clockAmPm) {
      this.clockText = f0;
      this.clockAmPm = ampm;
      this.clockSec = parseClock(f0, ampm);
      this.clockTok = ampm === undefined ? f0 : f0 + ' ' + ampm;
    }
    return this.clockSec;
  }

  line(text: string, lineNo: number): void {
    if (this.json) { this.json.push(text); return; }
    const t = text.trim();
    if (t === '') return;
    if (this.spec.tool === 'mpstat' && t.startsWith('{"sysstat"')) { this.json = [t]; return; }
    const f = words(text);
    const f0 = f[0]!;
    // time prefix
    let k = 0;
    let sec: number | undefined;
    let epoch: number | undefined;
    let average = false;
    const c0 = f0.charCodeAt(0);
    if (c0 >= 48 && c0 <= 57) {
      const ampm = isAmPm(f[1]) ? f[1] : undefined;
      sec = this.readClock(f0, ampm);
      if (sec !== undefined) k = ampm ? 2 : 1;
      else if (/^\d{9,11}$/.test(f0)) { epoch = Number(f0) * 1000; k = 1; }
    } else if (isAmPm(f0) && f[1] !== undefined && /^\d/.test(f[1])) {
      // zh_CN/ja 12-hour clocks put the marker first ("下午 10时46分")
      sec = parseClock(f[1], f0);
      if (sec !== undefined) k = 2;
    }
    if (k === 0) {
      if (f0 === 'Linux') {
        const b = parseBanner(t);
        if (b) {
          if (!this.sawBanner) bannerFacts(b, this.out.facts);
          this.sawBanner = true;
          this.clock.setDay(b.day);
          return;
        }
      }
      if (f0 === '#' && f.length > 3) { this.setHeader(f.slice(1), null, true); return; }
      if (f0.endsWith(':') && f0.length > 1 && f.length > 1 && !/^\d/.test(f0)) { average = true; k = 1; }
      else if (f[1] === ':' && f.length > 2 && !/^\d/.test(f0)) { average = true; k = 2; }
    }
    if (k === 0) {
      const cmd = commandLine(t, this.tools, { bare: true });
      if (cmd) { this.out.command ??= cmd; return; }
      const ver = versionLine(t);
      if (ver) { this.out.toolVersion ??= ver; return; }
      if (/^(?:\^C|\(C\)|\S*[#$%>])$/.test(t)) return;
      // pidstat -h row: time is the first column of the header
      const h = this.header;
      if (h && h.timeCol) { this.row(f, 0, lineNo, t, false, undefined, undefined); return; }
      this.warn(lineNo, t);
      return;
    }
    const rest0 = f[k];
    if (rest0 === undefined) return;
    if (rest0 === 'LINUX' && f[k + 1] === 'RESTART') {
      this.events.push([f.slice(0, k).join(' '), 'LINUX RESTART', t.slice(t.indexOf('RESTART') + 7).trim() || null, lineNo]);
      // counters restart: a new sample starts on every header
      for (const h of this.headers.values()) h.sampleTime = null;
      return;
    }
    if (rest0 === 'COM') {
      this.events.push([f.slice(0, k).join(' '), 'COM', t.slice(t.indexOf('COM') + 3).trim(), lineNo]);
      return;
    }
    // header: no plain number after the time
    let numeric = false;
    for (let i = k; i < f.length; i++) if (isNumTok(f[i]!)) { numeric = true; break; }
    if (!numeric) {
      this.setHeader(f.slice(k), average ? null : f.slice(0, k).join(' '), false);
      if (!average && sec !== undefined) this.noteHeaderRest(text.slice(wordsEnd(text, k)), this.header!);
      return;
    }
    this.row(f, k, lineNo, t, average, sec, epoch);
  }

  private setHeader(cols: string[], time: string | null, hashHeader: boolean): void {
    let timeCol = false;
    if (hashHeader) {
      // "# Time UID PID …" (pidstat -h / -H)
      if (cols[0] === 'Time') { cols = cols.slice(1); timeCol = true; }
    }
    const key = (timeCol ? '#' : '') + cols.join(' ');
    let h = this.headers.get(key);
    if (!h) {
      const keyLabel: (string | null)[] = [];
      const specs: (ColSpec | null)[] = [];
      const extra: (Record<string, string> | null)[] = [];
      const commandLast = cols[cols.length - 1] === 'Command';
      cols.forEach((c, i) => {
        const kl = this.spec.keys[c];
        if (kl !== undefined || (commandLast && i === cols.length - 1)) { keyLabel.push(kl ?? 'command'); specs.push(null); extra.push(null); return; }
        keyLabel.push(null);
        const sp = this.spec.columns[c];
        if (sp) { specs.push(sp); extra.push(null); return; }
        const u = this.spec.unknown?.(c);
        if (u) { specs.push(u.spec); extra.push(u.labels ?? null); return; }
        specs.push(genericSpec(c));
        extra.push(null);
      });
      const valueAt = specs.flatMap((sp, i) => (sp ? [i] : []));
      const inPlace = !timeCol && !keyLabel.includes('tgid') && !keyLabel.includes('tid') && keyLabel.filter((kl) => kl).length <= MAX_KEYS;
      h = {
        cols, keyLabel, specs, extraLabels: extra, commandLast, timeCol, byKey: new Map(), sample: -1, sampleTime: null, headerTime: null,
        firstRowChecked: false, valueAt, vals: new Float64Array(valueAt.length), inPlace, seq: [], ptr: 0,
      };
      this.headers.set(key, h);
    }
    h.headerTime = time;
    this.header = h;
  }

  private row(f: string[], k: number, lineNo: number, t: string, average: boolean, sec: number | undefined, epoch: number | undefined): void {
    const h = this.header;
    if (!h) { this.warn(lineNo, t, 'no header for'); return; }
    let timeTok = k === 1 ? f[0]! : k === 0 ? '' : f.slice(0, k).join(' ');
    if (h.timeCol && !average && k === 0) {
      // time is the first field(s): "22:46:45", "10:46:45 PM", "1795992407"
      const ampm = isAmPm(f[k + 1]) ? f[k + 1] : undefined;
      const s = parseClock(f[k]!, ampm);
      if (s !== undefined) { sec = s; timeTok = f[k]! + (ampm ? ' ' + ampm : ''); k += ampm ? 2 : 1; }
      else if (/^\d{9,11}$/.test(f[k]!)) { epoch = Number(f[k]) * 1000; timeTok = f[k]!; k += 1; }
      else { this.warn(lineNo, t); return; }
    }
    const ncol = h.cols.length;
    const rest = f.length - k;
    if (rest < ncol || (!h.commandLast && rest > ncol)) { this.warn(lineNo, t, rest < ncol ? 'truncated line' : 'could not read'); return; }
    // labels: the key names the row's series; the object is built only for a new one (or an average)
    const labelKey = this.labelsOf(h, f, k, null) as string;
    if (average) { this.averageRow(h, f, k, this.labelsOf(h, f, k, {}, true) as Record<string, string>, lineNo); return; }
    let time: number | null = null;
    if (epoch !== undefined) time = epoch;
    else if (sec !== undefined) time = this.clock.at(sec);
    // since-boot: a report whose header carries the same time as its rows (no interval given)
    if (!h.firstRowChecked) {
      h.firstRowChecked = true;
      if (this.sinceBootHint === undefined && h.headerTime !== null) this.sinceBootHint = h.headerTime === timeTok;
    }
    let e = h.byKey.get(labelKey);
    if (!e) {
      const labels = this.labelsOf(h, f, k, {}, true) as Record<string, string>;
      const series = h.valueAt.map((i) => {
        const sp = h.specs[i]!;
        const extra = h.extraLabels[i];
        const lab = extra ? { ...labels, ...extra } : labels;
        return this.col.get(sp.name, h.cols[i]!, sp.unit, Object.keys(lab).length ? lab : undefined);
      });
      const words: string[] = [];
      h.keyLabel.forEach((kl, i) => { if (kl) words.push(f[k + i]!); });
      const several = h.commandLast && f.length !== k + ncol;
      e = { set: new RowSet(this.col, series), lastSample: -2, pos: h.seq.length, words: several ? null : words };
      h.byKey.set(labelKey, e);
      h.seq.push(e);
    }
    h.ptr = e.pos + 1;
    const { valueAt, vals } = h;
    for (let j = 0; j < valueAt.length; j++) {
      const tok = f[k + valueAt[j]!]!;
      vals[j] = numAt(tok, 0, tok.length);
    }
    this.pushRow(h, e, timeTok, time, lineNo);
  }

  /**
   * The row's values (h.vals, as printed) as the next sample of its series: scaled to their units; a
   * "-" or text cell (pidstat -R policy) is NaN, no point (RowSet.pushPresent).
   */
  private pushRow(h: Header, e: Entry, timeTok: string, time: number | null, lineNo: number): void {
    if (h.sampleTime !== timeTok || e.lastSample === h.sample) { h.sample++; h.sampleTime = timeTok; }
    e.lastSample = h.sample;
    const { valueAt, vals, specs } = h;
    for (let j = 0; j < valueAt.length; j++) {
      const sp = specs[valueAt[j]!]!;
      if (sp.mult) vals[j] = vals[j]! * sp.mult; else if (sp.div) vals[j] = vals[j]! / sp.div;
    }
    if (e.set.pushPresent(this.spec.pad ? h.sample : -1, vals, time, lineNo)) this.anyRows = true;
  }

  /** a header line's text from its first column on, to be known again in place (span); the last MAX_HEADER_RESTS kept */
  private noteHeaderRest(rest: string, h: Header): void {
    const rests = this.headerRests;
    if (rests.some((r) => r.rest === rest)) return;
    if (rests.length === MAX_HEADER_RESTS) rests.shift();
    rests.push({ rest, h });
  }

  /**
   * The fast path (LineSink.span): a row under the current header, read in place. It begins with a
   * time stamp ("22:46:43", "10:46:43 PM"; read once, as line() reads it) and holds just the header's
   * cells, single words, the values read where they lie; its key must be one seen before (compared
   * in place with the row expected next). A header printed again under a new time is known by its
   * text. Anything else — a new header, an Average or a restart record, a thread row, a command of
   * several words, a character line() would see otherwise (a control character, Unicode white space)
   * — is left to line(), which reads it as it reads every line.
   */
  span(chunk: string, start: number, end: number, lineNo: number): boolean {
    if (this.json !== null) return false;
    if (start === end) return true; // a blank line: nothing to read (line() ignores it too)
    // the time stamp, read as line() reads it: a word of digits and the like, then AM/PM or not
    let i = start;
    let c = chunk.charCodeAt(i);
    if (!(c >= 48 && c <= 57)) return false;
    while (i < end && (c = chunk.charCodeAt(i)) !== 32 && c !== 9) { if (c < 32 || c >= 127) return false; i++; }
    const stampEnd = i;
    while (i < end && ((c = chunk.charCodeAt(i)) === 32 || c === 9)) i++;
    if (i === stampEnd || i >= end) return false;
    let ampm: string | undefined;
    if (i + 2 === end || (i + 2 < end && ((c = chunk.charCodeAt(i + 2)) === 32 || c === 9))) {
      const w = chunk.slice(i, i + 2);
      if (isAmPm(w)) ampm = w;
    }
    // (the cells begin with the blanks before them)
    i = ampm === undefined ? stampEnd : i + 2;
    const sameStamp = stampEnd - start === this.clockText.length && chunk.startsWith(this.clockText, start);
    const sec = sameStamp && ampm === this.clockAmPm ? this.clockSec : this.readClock(chunk.slice(start, stampEnd), ampm);
    if (sec === undefined) return false;
    // the report's header again, under its new time
    let p = i;
    while (p < end && ((c = chunk.charCodeAt(p)) === 32 || c === 9)) p++;
    for (const { rest, h } of this.headerRests) {
      if (end - p === rest.length && chunk.startsWith(rest, p)) {
        this.header = h;
        h.headerTime = this.clockTok;
        return true;
      }
    }
    const h = this.header;
    if (h === null || !h.inPlace || !h.firstRowChecked) return false;
    const { cols, keyLabel, vals } = h;
    const ks = this.keyStarts, ke = this.keyEnds;
    // the row expected next: its key cells are compared in place
    const next = h.seq[h.ptr];
    const want = next?.words;
    let same = want !== null && want !== undefined;
    let nk = 0;
    let j = 0;
    let numbers = false;
    for (let col = 0; col < cols.length; col++) {
      // a cell: blanks, then a word of characters line() would read as they are
      const s0 = i;
      while (i < end && ((c = chunk.charCodeAt(i)) === 32 || c === 9)) i++;
      if (i === s0 || i >= end) return false;
      const w = i;
      while (i < end && (c = chunk.charCodeAt(i)) !== 32 && c !== 9) {
        if (c < 32 || c === 127 || (c >= 0xa0 && isJsSpace(c))) return false;
        i++;
      }
      // (a restart or a comment record: "22:46:43 LINUX RESTART …", "… COM …")
      if (col === 0 && ((i - w === 5 && chunk.startsWith('LINUX', w)) || (i - w === 3 && chunk.startsWith('COM', w)))) return false;
      const kl = keyLabel[col];
      if (kl === null) {
        const v = numAt(chunk, w, i);
        if (v === v) numbers = true;
        vals[j++] = v;
      } else if (kl !== '') {
        if (same) { const k = want![nk]; same = k !== undefined && k.length === i - w && chunk.startsWith(k, w); }
        this.keyCols[nk] = col;
        ks[nk] = w;
        ke[nk++] = i;
      }
    }
    // (a line of no number but its keys is read by line(): a header, or a row of "-")
    if (!numbers || !restIsBlank(chunk, i, end)) return false;
    let e: Entry | undefined = next;
    if (!same) {
      // another row: its key as row() makes it (a thread's "|__" command: row() reads it)
      let key = '';
      for (let q = 0; q < nk; q++) {
        if (keyLabel[this.keyCols[q]!] === 'command' && chunk.startsWith('|__', ks[q]!)) return false;
        key += chunk.slice(ks[q]!, ke[q]!) + '\u0000';
      }
      e = h.byKey.get(key);
      if (e === undefined) return false;
    }
    h.ptr = e!.pos + 1;
    this.pushRow(h, e!, this.clockTok, this.clock.at(sec), lineNo);
    return true;
  }

  /**
   * The key columns of a row: their key string (labels null), or the labels object filled in. A
   * pidstat -t thread row ("-" as TGID) is labelled with the process read last (kept across rows;
   * `again` reads it without changing it, for a second pass over the same row).
   */
  private labelsOf(h: Header, f: string[], k: number, labels: Record<string, string> | null, again = false): string | Record<string, string> {
    const ncol = h.cols.length;
    let labelKey = '';
    let isThread = false;
    for (let i = 0; i < ncol; i++) {
      const kl = h.keyLabel[i];
      if (kl === null || kl === undefined) continue;
      if (kl === '') continue; // ignored key (uid, user)
      let v = i === ncol - 1 && h.commandLast ? (f.length === k + i + 1 ? f[k + i]! : f.slice(k + i).join(' ')) : f[k + i]!;
      if (kl === 'tgid') {
        if (v === '-') { isThread = true; continue; }
        if (!again) this.tgid = v;
        if (labels) labels.pid = v; else labelKey += 'p' + v + '\u0000';
        continue;
      }
      if (kl === 'tid') {
        if (v === '-') continue;
        if (isThread) {
          if (labels) { labels.pid = this.tgid; labels.tid = v; } else labelKey += 'p' + this.tgid + '\u0000t' + v + '\u0000';
        }
        continue;
      }
      if (kl === 'command' && v.startsWith('|__')) v = v.slice(3);
      if (labels) labels[kl] = v; else labelKey += v + '\u0000';
    }
    return labels ?? labelKey;
  }

  private averageRow(h: Header, f: string[], k: number, labels: Record<string, string>, lineNo: number): void {
    for (let i = 0; i < h.cols.length; i++) {
      const sp = h.specs[i];
      if (!sp) continue;
      const tok = f[k + i]!;
      let v = numAt(tok, 0, tok.length);
      if (v !== v) continue;
      if (sp.mult) v *= sp.mult; else if (sp.div) v /= sp.div;
      const extra = h.extraLabels[i];
      const lab = extra ? { ...labels, ...extra } : labels;
      const m: Metric = { name: sp.name, value: v, unit: sp.unit, column: h.cols[i]!, lines: [lineNo, lineNo] };
      if (Object.keys(lab).length) m.labels = lab;
      this.metrics.push(m);
    }
  }

  /** mpstat -o JSON: cpu-load, sum-interrupts, individual-interrupts, soft-interrupts */
  private endJson(): void {
    let doc: unknown;
    try { doc = JSON.parse(this.json!.join('\n')); } catch { this.out.warnings.push('line 1: could not read the mpstat JSON (truncated?)'); return; }
    const host = (doc as { sysstat?: { hosts?: unknown[] } }).sysstat?.hosts?.[0] as Record<string, unknown> | undefined;
    if (!host) return;
    const f = this.out.facts;
    if (typeof host.release === 'string') f.kernel = host.release;
    if (typeof host.nodename === 'string') f.hostname = host.nodename;
    if (typeof host.date === 'string') { f.date = host.date; this.clock.setDay(parseDate(host.date)); }
    if (typeof host.machine === 'string') f.arch = host.machine;
    if (typeof host['number-of-cpus'] === 'number') f.cpu_threads = host['number-of-cpus'];
    const stats = Array.isArray(host.statistics) ? host.statistics as Record<string, unknown>[] : [];
    stats.forEach((st, idx) => {
      const sec = typeof st.timestamp === 'string' ? parseClock(st.timestamp.split(' ')[0]!, st.timestamp.split(' ')[1]) : undefined;
      const time = sec !== undefined ? this.clock.at(sec) : null;
      for (const [block, rows] of Object.entries(st)) {
        if (!Array.isArray(rows)) continue;
        for (const row of rows as Record<string, unknown>[]) {
          const cpu = String(row.cpu ?? row.node ?? 'all');
          const key = row.node !== undefined ? 'node' : 'cpu';
          for (const [k, v] of Object.entries(row)) {
            if (typeof v === 'number') {
              const col = k === 'intr' ? 'intr/s' : '%' + k;
              const sp = this.spec.columns[col] ?? genericSpec(col);
              this.col.push(this.col.get(sp.name, col, sp.unit, { [key]: cpu }), v, idx, 1, time);
            } else if (Array.isArray(v)) {
              // individual / soft interrupts: [{name, value}]
              const soft = block.startsWith('soft');
              for (const it of v as Record<string, unknown>[]) {
                if (typeof it.value !== 'number' || typeof it.name !== 'string') continue;
                this.col.push(this.col.get(soft ? 'softirqs_per_second' : 'interrupts_per_second', it.name + '/s', '1/s', { [key]: cpu, irq: it.name }), it.value, idx, 1, time);
              }
            }
          }
        }
      }
    });
    this.anyRows = stats.length > 0;
  }

  end(): ParseOutput {
    if (this.json) this.endJson();
    let sinceBoot = false;
    if (this.spec.sinceBootPossible) {
      const cmd = this.out.command;
      const iv = hasInterval(cmd);
      sinceBoot = iv !== undefined ? !iv : this.sinceBootHint === true;
    }
    this.out.series = this.col.finish(sinceBoot);
    this.out.metrics = this.metrics;
    if (this.events.length) {
      const table: Table = { columns: ['time', 'record', 'text', 'line'], rows: this.events };
      (this.out.tables ??= {}).records = table;
    }
    if (!this.anyRows && this.metrics.length === 0 && this.out.warnings.length === 0) this.out.warnings.push(`no ${this.spec.tool} reports found`);
    if (this.warnCount > MAX_WARN) this.out.warnings.push(`${this.warnCount - MAX_WARN} more unreadable lines`);
    return this.out;
  }

  facts(): Record<string, FactValue> { return this.out.facts; }
}

/** Fallback for columns without a canonical name: "%ifutil" → ifutil_percent, "kbswpfree" → swap… bytes. */
export function genericSpec(c: string): ColSpec {
  if (/^kb[a-z]/.test(c)) return { name: `memory_${c.slice(2)}_bytes`, unit: 'B', mult: 1024 };
  if (/kB\/s$/.test(c)) return { name: genericName(c.replace('kB/s', '/s')).replace(/_per_second$/, '_bytes_per_second'), unit: 'B/s', mult: 1024 };
  const name = genericName(c);
  return { name, unit: c.startsWith('%') ? '%' : c.endsWith('/s') ? '1/s' : '' };
}

/** where the words of `text` after its first `k` begin (JavaScript white space between them, as words() splits) */
function wordsEnd(text: string, k: number): number {
  let i = 0;
  for (let w = 0; w <= k; w++) {
    while (i < text.length && isJsSpace(text.charCodeAt(i))) i++;
    if (w === k) break;
    while (i < text.length && !isJsSpace(text.charCodeAt(i))) i++;
  }
  return i;
}
