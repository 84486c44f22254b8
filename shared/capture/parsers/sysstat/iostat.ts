/**
 * iostat (sysstat 9 … 12): -x (10.x and 11/12 layouts), -d, -c, -t, -m, -k, -p, -s, -h, -y, -z,
 * -o JSON. Series per device for every column and CPU series for the avg-cpu block.
 */
import type { CaptureParser, LineSink, Metric, ParseOutput, Series, SinkOptions, SplitPlan, Unit } from '../../types';
import { commandLine, emptyOutput, lookupTable, scanFields } from '../kit';
import {
  Clock, Collector, RowSet, SCAN, bannerFacts, blankAt, countLines, isAmPm, parseClock, genericName, hasFlag, hasInterval, humanNum,
  parseBanner, parseStampLine, restIsBlank, restIsBlankBytes, scanNumbers, scanNumbersBytes, tokNum, versionLine, widenLines,
} from './common';
import { asciiCodes, asciiString, sameCodes } from '../../text';

/** the program of a command line (after a prompt, or bare) that printed the capture */
const TOOLS = ['iostat'];

interface ColSpec { name: string; unit: Unit; mult: number; /** -h values scale by 1024^n from bytes */ size?: boolean }

const KB = 1024, MB = 1024 * 1024, SECTOR = 512, MS = 0.001;

/** Column label → canonical series. mult converts the printed unit to the base unit. */
export const IOSTAT_COLUMNS = lookupTable<ColSpec>({
  'rrqm/s': { name: 'read_merges_per_second', unit: '1/s', mult: 1 },
  'wrqm/s': { name: 'write_merges_per_second', unit: '1/s', mult: 1 },
  'drqm/s': { name: 'discard_merges_per_second', unit: '1/s', mult: 1 },
  'rqm/s': { name: 'merges_per_second', unit: '1/s', mult: 1 },
  '%rrqm': { name: 'read_merges_percent', unit: '%', mult: 1 },
  '%wrqm': { name: 'write_merges_percent', unit: '%', mult: 1 },
  '%drqm': { name: 'discard_merges_percent', unit: '%', mult: 1 },
  'r/s': { name: 'reads_per_second', unit: '1/s', mult: 1 },
  'w/s': { name: 'writes_per_second', unit: '1/s', mult: 1 },
  'd/s': { name: 'discards_per_second', unit: '1/s', mult: 1 },
  'f/s': { name: 'flushes_per_second', unit: '1/s', mult: 1 },
  'tps': { name: 'transfers_per_second', unit: '1/s', mult: 1 },
  'rkB/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'wkB/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'dkB/s': { name: 'discard_bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'kB/s': { name: 'bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'rMB/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'wMB/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'dMB/s': { name: 'discard_bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'MB/s': { name: 'bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'rsec/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: SECTOR, size: true },
  'wsec/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: SECTOR, size: true },
  'kB_read/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'kB_wrtn/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'kB_dscd/s': { name: 'discard_bytes_per_second', unit: 'B/s', mult: KB, size: true },
  'MB_read/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'MB_wrtn/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'MB_dscd/s': { name: 'discard_bytes_per_second', unit: 'B/s', mult: MB, size: true },
  'Blk_read/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: SECTOR, size: true },
  'Blk_wrtn/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: SECTOR, size: true },
  'Blk_dscd/s': { name: 'discard_bytes_per_second', unit: 'B/s', mult: SECTOR, size: true },
  'kB_read': { name: 'read_bytes_total', unit: 'B', mult: KB, size: true },
  'kB_wrtn': { name: 'write_bytes_total', unit: 'B', mult: KB, size: true },
  'kB_dscd': { name: 'discard_bytes_total', unit: 'B', mult: KB, size: true },
  'MB_read': { name: 'read_bytes_total', unit: 'B', mult: MB, size: true },
  'MB_wrtn': { name: 'write_bytes_total', unit: 'B', mult: MB, size: true },
  'MB_dscd': { name: 'discard_bytes_total', unit: 'B', mult: MB, size: true },
  'Blk_read': { name: 'read_bytes_total', unit: 'B', mult: SECTOR, size: true },
  'Blk_wrtn': { name: 'write_bytes_total', unit: 'B', mult: SECTOR, size: true },
  'Blk_dscd': { name: 'discard_bytes_total', unit: 'B', mult: SECTOR, size: true },
  'avgrq-sz': { name: 'avg_request_size_bytes', unit: 'B', mult: SECTOR, size: true },
  'areq-sz': { name: 'avg_request_size_bytes', unit: 'B', mult: KB, size: true },
  'rareq-sz': { name: 'read_avg_request_size_bytes', unit: 'B', mult: KB, size: true },
  'wareq-sz': { name: 'write_avg_request_size_bytes', unit: 'B', mult: KB, size: true },
  'dareq-sz': { name: 'discard_avg_request_size_bytes', unit: 'B', mult: KB, size: true },
  'avgqu-sz': { name: 'avg_queue_size', unit: 'count', mult: 1 },
  'aqu-sz': { name: 'avg_queue_size', unit: 'count', mult: 1 },
  'await': { name: 'await_seconds', unit: 's', mult: MS },
  'r_await': { name: 'read_await_seconds', unit: 's', mult: MS },
  'w_await': { name: 'write_await_seconds', unit: 's', mult: MS },
  'd_await': { name: 'discard_await_seconds', unit: 's', mult: MS },
  'f_await': { name: 'flush_await_seconds', unit: 's', mult: MS },
  'svctm': { name: 'service_time_seconds', unit: 's', mult: MS },
  '%util': { name: 'util_percent', unit: '%', mult: 1 },
});

export const CPU_COLUMNS = lookupTable<ColSpec>({
  '%user': { name: 'cpu_user_percent', unit: '%', mult: 1 },
  '%nice': { name: 'cpu_nice_percent', unit: '%', mult: 1 },
  '%system': { name: 'cpu_system_percent', unit: '%', mult: 1 },
  '%iowait': { name: 'cpu_iowait_percent', unit: '%', mult: 1 },
  '%steal': { name: 'cpu_steal_percent', unit: '%', mult: 1 },
  '%idle': { name: 'cpu_idle_percent', unit: '%', mult: 1 },
});

function colSpec(col: string, table: Record<string, ColSpec>, prefix = ''): ColSpec {
  const c = col.endsWith(':') ? col.slice(0, -1) : col;
  return table[c] ?? { name: prefix + genericName(c), unit: c.startsWith('%') ? '%' : '', mult: 1 };
}

/** Divide instead of multiplying by 0.001 so that 91.33 ms → exactly 91.33/1000. */
function scale(v: number, mult: number): number {
  return mult === MS ? v / 1000 : mult === 1 ? v : v * mult;
}

interface Header {
  id: number;
  cols: string[];
  specs: ColSpec[];
  /** per value column (device column left out): 0 = as printed, 1 = × mult, 2 = ÷ 1000 */
  op: Int8Array;
  mult: Float64Array;
  /** device name is the last column (-h layout) instead of the first */
  devLast: boolean;
  byDevice: Map<string, DevEntry>;
  /** devices in the order rows arrive: the next row is usually seq[ptr] */
  seq: DevEntry[];
  ptr: number;
}

interface DevEntry {
  name: string;
  /** the name's character codes, to match a row of bytes against (spanBytes); null when not ASCII (no such row) */
  codes: Uint8Array | null;
  pos: number; set: RowSet; lastSample: number; first: number; last: number;
}

const MAX_FIELDS = 64;

/** the most devices a row of bytes out of its expected place is matched against before its name is decoded */
const KNOWN_SCAN = 64;

/**
 * The device already seen whose name is bytes[start, end), or undefined (a new one, or too many to
 * look through): a row out of its expected place (a report that lists other devices, or in another
 * order) is matched by its bytes rather than by a string decoded for each such row (a log that
 * alternates two machines' reports decoded ~80 ms of names per 200 MB).
 */
function knownDevice(seq: readonly DevEntry[], bytes: Uint8Array, start: number, end: number): DevEntry | undefined {
  const n = end - start;
  for (let j = 0; j < seq.length && j < KNOWN_SCAN; j++) {
    const codes = seq[j]!.codes;
    if (codes !== null && codes.length === n && sameCodes(bytes, start, codes)) return seq[j];
  }
  return undefined;
}

// JSON (-o JSON) keys → printed column labels
const JSON_KEYS = lookupTable({ rrqm: '%rrqm', wrqm: '%wrqm', drqm: '%drqm', util: '%util' });

class IostatSink implements LineSink {
  private readonly out: ParseOutput = emptyOutput();
  private readonly col: Collector;
  private readonly headers = new Map<string, Header>();
  private header: Header | null = null;
  private cpuCols: string[] | null = null;
  private cpuSeries: Series[] = [];
  /** the avg-cpu row's series, pushed a row at a time */
  private cpuSet: RowSet | null = null;
  private expectCpu = 0;
  private cpuSample = -1;
  private sample = -1;
  private sampleHasData = false;
  private time: number | null = null;
  private pendingTime: number | null = null;
  private sawBanner = false;
  private blanksAfterBanner = -1;
  private skipFirstHint = false;
  private firstDataSeen = false;
  private json: string[] | null = null;
  private readonly starts = new Int32Array(MAX_FIELDS);
  private readonly ends = new Int32Array(MAX_FIELDS);

  private readonly vals = new Float64Array(MAX_FIELDS + 1);
  private readonly clock = new Clock();

  /** the line span() tried as a device row and left to line() (not tried again there) */
  private spanMiss = 0;

  constructor(opts: SinkOptions = {}) {
    this.col = Collector.open(opts);
  }

  /** the whole has `total` samples, counted ahead (split.ts): the stores take just the room they will need */
  planSamples(total: number, own?: number): void {
    this.col.plan(total, own);
  }

  /** at least `n` samples follow this part's, counted ahead (split.ts): the stores thin as far as the whole surely will */
  samplesAfter(n: number): void {
    this.col.follow(n);
  }

  /** reports begun; between reports or not; the clock of time-only stamps (split.ts) */
  splitState(): { samples: number; key: string; settled: string; series: number } {
    const key = [this.expectCpu > 0, this.json !== null, this.pendingTime, this.clock.key()].join('\n');
    return { samples: this.sample + 1, key, settled: '', series: this.col.list.length };
  }

  span(chunk: string, start: number, end: number, lineNo: number): boolean {
    if (this.json !== null || start === end) return false;
    if (this.expectCpu > 0) return this.fastCpuRow(chunk, start, end, lineNo);
    const h = this.header;
    if (h === null || h.devLast) return false;
    // the report's repeated headers, recognized in place
    const len = end - start;
    if (len === this.lastHeaderText.length && this.lastHeader !== null && chunk.startsWith(this.lastHeaderText, start)) {
      this.repeatedHeader();
      return true;
    }
    if (len === this.lastCpuHeaderText.length && chunk.startsWith(this.lastCpuHeaderText, start)) {
      this.repeatedCpuHeader(lineNo);
      return true;
    }
    if (this.fastRow(chunk, start, end, lineNo, h)) return true;
    this.spanMiss = lineNo;
    return false;
  }

  /** span over ASCII bytes (LineSink.spanBytes): the same lines read the same way */
  spanBytes(bytes: Uint8Array, start: number, end: number, lineNo: number): boolean {
    if (this.json !== null || start === end) return false;
    if (this.expectCpu > 0) {
      const cols = this.cpuCols;
      if (cols === null) return false;
      const n = cols.length;
      return n <= MAX_FIELDS && scanNumbersBytes(bytes, start, this.vals, n + 1, end) === n && restIsBlankBytes(bytes, SCAN.end, end) && this.cpuRead(cols, n, lineNo);
    }
    const h = this.header;
    if (h === null || h.devLast) return false;
    const len = end - start;
    const head = this.lastHeaderCodes, cpuHead = this.lastCpuHeaderCodes;
    if (head !== null && len === head.length && this.lastHeader !== null && sameCodes(bytes, start, head)) {
      this.repeatedHeader();
      return true;
    }
    if (cpuHead !== null && len === cpuHead.length && sameCodes(bytes, start, cpuHead)) {
      this.repeatedCpuHeader(lineNo);
      return true;
    }
    if (this.fastRowBytes(bytes, start, end, lineNo, h)) return true;
    this.spanMiss = lineNo;
    return false;
  }

  line(text: string, lineNo: number): void {
    if (this.json) { this.json.push(text); return; }
    if (text.length === 0) {
      if (this.blanksAfterBanner >= 0 && !this.firstDataSeen) this.blanksAfterBanner++;
      return;
    }
    if (text === this.lastCpuHeaderText) { this.repeatedCpuHeader(lineNo); return; }
    if (text === this.lastHeaderText && this.lastHeader !== null) { this.repeatedHeader(); return; }
    const h = this.header;
    if (h !== null && !h.devLast && this.expectCpu === 0 && this.spanMiss !== lineNo && this.fastRow(text, 0, text.length, lineNo, h)) return;
    const n = scanFields(text, this.starts, this.ends);
    if (n === 0) {
      if (this.blanksAfterBanner >= 0 && !this.firstDataSeen) this.blanksAfterBanner++;
      return;
    }
    this.slowLine(text, n, lineNo);
  }

  /** A device row under the current header, text[from, len): "vda  0.00  64.00 …" parsed in one pass. */
  private fastRow(text: string, from: number, len: number, lineNo: number, h: Header): boolean {
    let i = from;
    let c = 32;
    while (i < len && ((c = text.charCodeAt(i)) === 32 || c === 9)) i++;
    if (i >= len || (c >= 48 && c <= 57) || c === 123 /* { */) return false;
    const start = i;
    // the expected device (rows repeat in the same order every report): match without slicing
    let e = h.seq[h.ptr];
    let end: number;
    if (e !== undefined && text.startsWith(e.name, start) && ((end = start + e.name.length) >= len || (c = text.charCodeAt(end)) === 32 || c === 9)) {
      // hit
    } else {
      // (a control character: the line needs cleaning first — see LineSink.span)
      while (i < len && (c = text.charCodeAt(i)) !== 32 && c !== 9) { if (c < 32 || c === 127) return false; i++; }
      end = i;
      e = undefined;
    }
    const need = h.cols.length - 1;
    if (scanNumbers(text, end, this.vals, need + 1, len) !== need || !restIsBlank(text, SCAN.end, len)) return false;
    return this.deviceValues(h, e ?? text.slice(start, end), lineNo);
  }

  /** fastRow over ASCII bytes (spanBytes) */
  private fastRowBytes(bytes: Uint8Array, from: number, len: number, lineNo: number, h: Header): boolean {
    let i = from;
    let c = 32;
    while (i < len && ((c = bytes[i]!) === 32 || c === 9)) i++;
    if (i >= len || (c >= 48 && c <= 57) || c === 123 /* { */) return false;
    const start = i;
    let e = h.seq[h.ptr];
    let end: number;
    if (e !== undefined && e.codes !== null && sameCodes(bytes, start, e.codes) && ((end = start + e.codes.length) >= len || (c = bytes[end]!) === 32 || c === 9)) {
      // hit
    } else {
      while (i < len && (c = bytes[i]!) !== 32 && c !== 9) { if (c < 32 || c === 127) return false; i++; }
      end = i;
      e = knownDevice(h.seq, bytes, start, end);
    }
    const need = h.cols.length - 1;
    if (scanNumbersBytes(bytes, end, this.vals, need + 1, len) !== need || !restIsBlankBytes(bytes, SCAN.end, len)) return false;
    return this.deviceValues(h, e ?? asciiString(bytes, start, end), lineNo);
  }

  /** The values just scanned (vals) as a row of the device expected (`e`), or of the one named so. */
  private deviceValues(h: Header, e: DevEntry | string, lineNo: number): boolean {
    const vals = this.vals;
    const need = h.cols.length - 1;
    if (typeof e === 'string') {
      const dev = e;
      if (dev === 'Device' || dev === 'Device:' || dev === 'avg-cpu:' || dev === 'Linux') return false;
      e = h.byDevice.get(dev) ?? this.newEntry(h, dev);
    }
    h.ptr = e.pos + 1;
    if (this.sample < 0 || e.lastSample === this.sample) this.newSample();
    const idx = this.sample;
    e.lastSample = idx;
    this.sampleHasData = true;
    this.firstDataSeen = true;
    if (e.first < 0) e.first = lineNo;
    e.last = lineNo;
    const op = h.op, mult = h.mult;
    for (let k = 0; k < need; k++) {
      const o = op[k];
      if (o === 1) vals[k] = vals[k]! * mult[k]!;
      else if (o === 2) vals[k] = vals[k]! / 1000;
    }
    // NaN for the reports the device missed (it appeared late, or -z left it out)
    e.set.push(idx, vals, this.time);
    return true;
  }

  private newEntry(h: Header, dev: string): DevEntry {
    const series: Series[] = [];
    const di = h.devLast ? h.cols.length - 1 : 0;
    for (let i = 0; i < h.cols.length; i++) {
      if (i === di) continue;
      const sp = h.specs[i]!;
      series.push(this.col.get(sp.name, h.cols[i]!, sp.unit, { device: dev }));
    }
    const e: DevEntry = { name: dev, codes: asciiCodes(dev), pos: h.seq.length, set: new RowSet(this.col, series), lastSample: -2, first: -1, last: -1 };
    h.byDevice.set(dev, e);
    h.seq.push(e);
    return e;
  }

  private newSample(): void {
    this.sample++;
    this.sampleHasData = false;
    this.time = this.pendingTime;
    this.pendingTime = null;
  }

  /** Slow path: -h rows (device last, values with k/M/G/% suffixes) and rows the fast path refused. */
  private deviceRow(text: string, n: number, lineNo: number, h: Header): boolean {
    const di = h.devLast ? n - 1 : 0;
    const dev = text.slice(this.starts[di]!, this.ends[di]!);
    if (dev === 'Device' || dev === 'Device:' || dev === 'avg-cpu:' || dev === 'Linux') return false;
    const vals: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i === di) continue;
      const sp = h.specs[i]!;
      const { v, pow } = humanNum(text.slice(this.starts[i]!, this.ends[i]!));
      if (Number.isNaN(v)) return false;
      vals.push(pow >= 0 && sp.size ? v * 1024 ** pow : scale(v, sp.mult));
    }
    const e = h.byDevice.get(dev) ?? this.newEntry(h, dev);
    h.ptr = e.pos + 1;
    if (this.sample < 0 || e.lastSample === this.sample) this.newSample();
    const idx = this.sample;
    e.lastSample = idx;
    this.sampleHasData = true;
    this.firstDataSeen = true;
    if (e.first < 0) e.first = lineNo;
    e.last = lineNo;
    // NaN for the reports the device missed (it appeared late, or -z left it out)
    e.set.push(idx, vals, this.time);
    return true;
  }

  private lastHeaderText = '';
  private lastCpuHeaderText = '';
  /** their character codes (asciiCodes), for rows of bytes */
  private lastHeaderCodes: Uint8Array | null = null;
  private lastCpuHeaderCodes: Uint8Array | null = null;
  private lastHeader: Header | null = null;

  /** the avg-cpu header of every report, as the last one read */
  private repeatedCpuHeader(lineNo: number): void {
    if (this.sample < 0 || this.cpuSample === this.sample) this.newSample();
    this.expectCpu = lineNo;
  }

  /** the repeated device header of every report */
  private repeatedHeader(): void {
    this.header = this.lastHeader;
    this.expectCpu = 0;
    this.noteBlankHint();
  }

  private slowLine(text: string, n: number, lineNo: number): void {
    const t = text.trim();
    const first = text.slice(this.starts[0]!, this.ends[0]!);
    // the avg-cpu values (tolerates a stray line between the header and its row)
    if (this.expectCpu > 0 && this.cpuRow(text, n, lineNo)) { this.expectCpu = 0; return; }
    if (first === 'Linux') {
      const b = parseBanner(t);
      if (b) {
        if (!this.sawBanner) bannerFacts(b, this.out.facts);
        this.sawBanner = true;
        this.clock.setDay(b.day);
        this.blanksAfterBanner = 0;
        return;
      }
    }
    if (first === 'avg-cpu:') {
      this.cpuCols = t.split(/\s+/).slice(1);
      this.lastCpuHeaderText = text;
      this.lastCpuHeaderCodes = asciiCodes(text);
      if (this.sample < 0 || this.cpuSample === this.sample) this.newSample();
      this.expectCpu = lineNo;
      this.noteBlankHint();
      return;
    }
    if (n > 1 && (first === 'Device:' || first === 'Device' || text.slice(this.starts[n - 1]!, this.ends[n - 1]!) === 'Device')) {
      this.setHeader(t.split(/\s+/));
      this.lastHeaderText = text;
      this.lastHeaderCodes = asciiCodes(text);
      this.lastHeader = this.header;
      this.noteBlankHint();
      return;
    }
    if (first.startsWith('{') && (t.startsWith('{"sysstat"') || t === '{')) { this.json = [text]; return; }
    let stamp = parseStampLine(t);
    if (stamp === undefined && first === 'Time:') {
      // sysstat 9 and older: "Time: 09:04:54 AM" on the banner's date
      const f = t.split(/\s+/);
      const sec = parseClock(f[1] ?? '', isAmPm(f[2]) ? f[2] : undefined);
      if (sec !== undefined) stamp = this.clock.at(sec) ?? undefined;
      if (sec !== undefined && stamp === undefined) return;
    }
    if (stamp !== undefined) {
      if (this.sample < 0 || this.sampleHasData || this.cpuSample === this.sample) { this.pendingTime = stamp; this.newSample(); } else this.time = stamp;
      return;
    }
    const cmd = commandLine(t, TOOLS, { bare: true });
    if (cmd) { if (this.out.command === undefined) this.out.command = cmd; return; }
    const ver = versionLine(t);
    if (ver) { this.out.toolVersion ??= ver; return; }
    if (/^(?:\^C|\(C\)|\S*[#$%>]$)/.test(t)) return; // ^C, copyright, a bare prompt
    const h = this.header;
    if (h !== null && n === h.cols.length && this.deviceRow(text, n, lineNo, h)) return;
    this.out.warnings.push(`line ${lineNo}: could not read "${t.length > 80 ? t.slice(0, 80) + '…' : t}"`);
  }

  private noteBlankHint(): void {
    // iostat -y leaves an extra blank line after the banner (the skipped since-boot report)
    if (!this.firstDataSeen && this.blanksAfterBanner >= 2 && this.sample <= 0) this.skipFirstHint = true;
    if (this.blanksAfterBanner >= 0) this.firstDataSeen = true;
  }

  private setHeader(cols: string[]): void {
    this.expectCpu = 0;
    const devLast = cols[cols.length - 1] === 'Device';
    const key = cols.join(' ');
    let h = this.headers.get(key);
    if (!h) {
      const specs = cols.map((c) => colSpec(c, IOSTAT_COLUMNS));
      const valueSpecs = devLast ? specs.slice(0, -1) : specs.slice(1);
      const op = new Int8Array(valueSpecs.map((sp) => (sp.mult === 1 ? 0 : sp.mult === MS ? 2 : 1)));
      const mult = new Float64Array(valueSpecs.map((sp) => sp.mult));
      h = { id: this.headers.size, cols, specs, op, mult, devLast, byDevice: new Map(), seq: [], ptr: 0 };
      this.headers.set(key, h);
    }
    this.header = h;
  }

  /** The avg-cpu values in place: plain numbers, as many as the header has columns (anything else: cpuRow). */
  private fastCpuRow(text: string, start: number, end: number, lineNo: number): boolean {
    const cols = this.cpuCols;
    if (cols === null) return false;
    const n = cols.length;
    const vals = this.vals;
    if (n > MAX_FIELDS || scanNumbers(text, start, vals, n + 1, end) !== n || !restIsBlank(text, SCAN.end, end)) return false;
    return this.cpuRead(cols, n, lineNo);
  }

  /** the avg-cpu values just scanned (vals): the report's CPU row is read */
  private cpuRead(cols: string[], n: number, lineNo: number): true {
    this.cpuValues(cols, this.vals, n, lineNo);
    this.expectCpu = 0;
    return true;
  }

  private cpuValues(cols: string[], vals: ArrayLike<number>, n: number, lineNo: number): void {
    let same = this.cpuSeries.length === n;
    for (let i = 0; same && i < n; i++) same = this.cpuSeries[i]!.column === cols[i];
    if (!same) {
      this.cpuSeries = cols.map((c) => { const sp = colSpec(c, CPU_COLUMNS, 'cpu_'); return this.col.get(sp.name, c, sp.unit); });
      this.cpuSet = new RowSet(this.col, this.cpuSeries);
    }
    this.cpuSample = this.sample;
    this.sampleHasData = true;
    this.firstDataSeen = true;
    // every cell a number (the callers read them so): each series' point, a duplicate sample ignored
    this.cpuSet!.pushPresent(this.sample, vals, this.time, lineNo);
  }

  private cpuRow(text: string, n: number, lineNo: number): boolean {
    const cols = this.cpuCols;
    if (!cols || n !== cols.length) return false;
    const vals: number[] = [];
    let human = false;
    for (let i = 0; i < n; i++) {
      const tok = text.slice(this.starts[i]!, this.ends[i]!);
      let v = tokNum(tok);
      if (Number.isNaN(v) && tok.endsWith('%')) { v = tokNum(tok.slice(0, -1)); human = true; }
      if (Number.isNaN(v)) return false;
      vals.push(v);
    }
    void human;
    this.cpuValues(cols, vals, n, lineNo);
    return true;
  }

  private endJson(): void {
    const text = this.json!.join('\n');
    let doc: unknown;
    try { doc = JSON.parse(text); } catch { this.out.warnings.push('line 1: could not read the iostat JSON (truncated?)'); return; }
    const host = (doc as { sysstat?: { hosts?: unknown[] } }).sysstat?.hosts?.[0] as Record<string, unknown> | undefined;
    if (!host) return;
    if (typeof host.release === 'string') this.out.facts.kernel = host.release;
    if (typeof host.nodename === 'string') this.out.facts.hostname = host.nodename;
    if (typeof host['number-of-cpus'] === 'number') this.out.facts.cpu_threads = host['number-of-cpus'];
    if (typeof host.date === 'string') this.out.facts.date = host.date;
    if (typeof host.machine === 'string') this.out.facts.arch = host.machine;
    const stats = Array.isArray(host.statistics) ? host.statistics as Record<string, unknown>[] : [];
    stats.forEach((st, idx) => {
      const time = typeof st.timestamp === 'string' ? parseStampLine(st.timestamp.replace(' ', 'T')) ?? parseStampLine(st.timestamp) ?? null : null;
      const cpu = st['avg-cpu'] as Record<string, unknown> | undefined;
      if (cpu) for (const [k, v] of Object.entries(cpu)) {
        if (typeof v !== 'number') continue;
        const sp = colSpec('%' + k, CPU_COLUMNS, 'cpu_');
        this.col.push(this.col.get(sp.name, '%' + k, sp.unit), v, idx, 1, time);
      }
      const disks = Array.isArray(st.disk) ? st.disk as Record<string, unknown>[] : [];
      for (const d of disks) {
        const dev = String(d.disk_device ?? d.device ?? '?');
        for (const [k, v] of Object.entries(d)) {
          if (typeof v !== 'number') continue;
          const label = JSON_KEYS[k] ?? k;
          const sp = colSpec(label, IOSTAT_COLUMNS);
          this.col.push(this.col.get(sp.name, label, sp.unit, { device: dev }), scale(v, sp.mult), idx, 1, time);
        }
      }
    });
    this.sample = stats.length - 1;
  }

  end(): ParseOutput {
    if (this.json) this.endJson();
    const cmd = this.out.command;
    let sinceBoot = !this.skipFirstHint;
    if (cmd !== undefined) sinceBoot = !hasFlag(cmd, 'y');
    if (cmd !== undefined && hasInterval(cmd) === false) sinceBoot = true;
    for (const h of this.headers.values()) {
      for (const e of h.seq) {
        for (const sr of e.set.series) widenLines(sr, e.first, e.last);
      }
    }
    this.out.series = this.col.finish(sinceBoot, this.sample + 1);
    if (this.out.series.length === 0 && this.out.warnings.length === 0) this.out.warnings.push('no iostat reports found');
    const metrics: Metric[] = [];
    this.out.metrics = metrics;
    return this.out;
  }
}

const SIGNATURES = [/^Device:?\s+(?:rrqm\/s|r\/s|tps)\s/, /^avg-cpu:\s+%user/, /(?:^|\s)(?:r\/s|tps|w\/s|f\/s)\s.*Device$/];

export const iostat: CaptureParser = {
  id: 'iostat',
  title: 'iostat (sysstat)',
  commands: [{ program: 'iostat' }],
  detect(head) {
    let score = 0;
    let banner = false;
    let json = false;
    for (const l of head) {
      const t = l.trim();
      if (SIGNATURES[0]!.test(t)) return 0.97;
      if (SIGNATURES[2]!.test(t)) return 0.95;
      if (SIGNATURES[1]!.test(t)) score = Math.max(score, 0.9);
      if (/^\{?"sysstat"/.test(t)) json = true;
      if (json && /"disk_device"|"avg-cpu"/.test(t)) return 0.95;
      if (/^Linux \S+ \(\S+\)\s/.test(t)) banner = true;
      if (/(?:^|[\s$#])iostat(?:\s|$)/.test(t) && promptLike(t)) score = Math.max(score, 0.4);
    }
    if (banner && score === 0) return 0;
    return score;
  },
  open: (opts) => new IostatSink(opts),
  split: { plan: splitPlan },
};

function promptLike(t: string): boolean {
  return /^(?:\S*[#$%>]\s+)?(?:sudo\s+)?iostat(?:\s|$)/.test(t) || /[#$%>]\s*iostat(?:\s|$)/.test(t);
}

/**
 * An iostat log is cut at the start of a report: its avg-cpu header (or its device header when it
 * shows no CPU), with the -t time stamp before it, after a blank line. Every report is one sample.
 * Not the JSON report.
 */
function splitPlan(head: readonly string[]): SplitPlan | null {
  if (head.some((l) => l.trimStart().startsWith('{'))) return null;
  const marker = head.some((l) => l.startsWith('avg-cpu:')) ? 'avg-cpu:' : head.some((l) => /^Device:?\s/.test(l)) ? 'Device' : null;
  if (marker === null) return null;
  // the report's first line: the marker after a blank line, or a time stamp between the two
  const reportAt = (lines: readonly string[], m: number): number => {
    if (m > 0 && lines[m - 1]!.trim() !== '') return m > 1 && lines[m - 2]!.trim() === '' ? m - 1 : -1;
    return m;
  };
  const markerCodes = asciiCodes(marker)!;
  const m = head.findIndex((l) => l.startsWith(marker));
  const first = reportAt(head, m);
  if (first < 0) return null;
  return {
    primer: head.slice(0, first),
    count: (bytes) => countLines(bytes, (b, i) => sameCodes(b, i, markerCodes)),
    boundary: (text, from) => {
      for (let at = text.indexOf('\n' + marker, Math.max(0, from - 1)); at >= 0; at = text.indexOf('\n' + marker, at + 1)) {
        const prev = lineBefore(text, at); // the line before the marker's
        if (prev < from) continue;
        if (blankAt(text, prev)) return at + 1;
        if (prev > 0) {
          const before = lineBefore(text, prev - 1);
          if (before >= from && blankAt(text, before)) return prev;
        }
      }
      return -1;
    },
  };
}

/** the start of the line that ends at the line break text[nl] */
function lineBefore(text: string, nl: number): number {
  return nl === 0 ? 0 : text.lastIndexOf('\n', nl - 1) + 1;
}
