/**
 * top -b (procps / procps-ng 3.2, 3.3, 4.x): one or more frames of summary lines and a process table.
 * See docs/parsers/trace.md for what is emitted.
 */
import type { CaptureParser, LineSink, Series, Unit } from '../../types';
import { commandLine, emptyOutput, fields, lookupTable, num, scanFields } from '../kit';
import { snippet, table, Warnings } from './helpers';
import { padTo, setSample } from '../../series';

/** the program whose prompt line ("$ top …") names the capture's command */
const TOP = ['top'];

const TOP_LINE = /^\s*top - (\d{1,2}:\d{2}:\d{2})\s+(.*)$/;
/** one decimal separator per number: with "[\d.,]+" and "," between them a long run of digits backtracked in quadratic time */
const LOAD = /load averages?:\s*(\d+(?:[.,]\d+)?)[,\s]\s*(\d+(?:[.,]\d+)?)[,\s]\s*(\d+(?:[.,]\d+)?)/;
/** "Tasks:", "Threads:" (-H) or a translation ("任务:"), followed by "N total". */
const TASKS = /^\s*(\S+?)\s*:\s+\d+\s+total\b/;
const CPU_START = /(%?Cpu(?:\(s\)|\d+)|%Node\d+|CPU(?=\s*:))\s*:/gi;
/** "KiB Mem :", "MiB Swap:", translated "MiB Spch:", old "Mem:" / "Swap:". */
const MEM_START = /(?:^|\s)([KMGTPE]iB\s+[^\s:]+|Mem|Swap)\s*:/g;
/** "84 sleeping", "0.3 us": a number starts where no digit precedes it (else a long digit run not followed by a word took quadratic time) */
const PAIR = /(?<!\d)(\d+(?:[.,]\d+)?)\s*%?\s*([A-Za-z][A-Za-z/]*)/g;

const CPU_FIELDS = lookupTable({
  us: 'cpu_user_percent', sy: 'cpu_system_percent', ni: 'cpu_nice_percent', id: 'cpu_idle_percent',
  wa: 'cpu_iowait_percent', hi: 'cpu_hardware_irq_percent', si: 'cpu_software_irq_percent', st: 'cpu_steal_percent',
  // BusyBox top: "CPU:  91% usr   8% sys   0% nic   0% idle   0% io   0% irq   0% sirq"
  usr: 'cpu_user_percent', sys: 'cpu_system_percent', nic: 'cpu_nice_percent', idle: 'cpu_idle_percent', io: 'cpu_iowait_percent',
  irq: 'cpu_hardware_irq_percent', sirq: 'cpu_software_irq_percent',
});
const SCALE = lookupTable({ KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4, PiB: 1024 ** 5, EiB: 1024 ** 6 });
/** Columns of the process table that hold memory sizes (KiB unless suffixed). */
/** process rows kept in the processes table; past it only PID, COMMAND and %CPU are read */
const MAX_TABLE_ROWS = 200_000;
const MEM_COLUMNS = new Set(['VIRT', 'RES', 'SHR', 'SWAP', 'CODE', 'DATA', 'USED', 'RSan', 'RSfd', 'RSlk', 'RSsh', 'RSS', 'VSZ']);
const MEM_SUFFIX = lookupTable({ k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5, e: 1024 ** 6 });

/** "1.2g" → bytes; bare numbers are KiB. */
export function topMem(s: string): number {
  // the common case, a bare integer, without the regex
  if (allDigits(s)) return Math.round(Number(s) * 1024);
  const m = /^(\d+(?:[.,]\d+)?)([kmgtpe])?$/i.exec(s);
  if (!m) return NaN;
  const v = Number(m[1]!.replace(',', '.'));
  return Math.round(v * (m[2] ? MEM_SUFFIX[m[2].toLowerCase()]! : 1024));
}

/** /^\d+$/ */
/** a %-column's cell without the '%' some tops print after it (BusyBox: "12%") */
function withoutPercent(v: string): string {
  return v.endsWith('%') ? v.slice(0, -1) : v;
}

/** s[from, to) is the text t */
function sameText(s: string, from: number, to: number, t: string): boolean {
  return to - from === t.length && s.startsWith(t, from);
}

/** s[from, to) is digits only, at least one */
function digitsAt(s: string, from: number, to: number): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) { const c = s.charCodeAt(i); if (c < 48 || c > 57) return false; }
  return true;
}

function allDigits(s: string): boolean {
  return digitsAt(s, 0, s.length);
}

/** A cell matching /^-?\d+(?:[.,]\d+)?$/ read with num(); NaN for anything else. */
function plainNumber(s: string): number {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const d0 = i;
  while (i < n) { const c = s.charCodeAt(i); if (c < 48 || c > 57) break; i++; }
  if (i === d0) return NaN;
  let comma = false;
  if (i < n) {
    const c = s.charCodeAt(i);
    if (c !== 46 && c !== 44) return NaN;
    comma = c === 44;
    const f0 = ++i;
    while (i < n) { const d = s.charCodeAt(i); if (d < 48 || d > 57) return NaN; i++; }
    if (i === f0) return NaN;
  }
  // num() reads "1,234" as a thousands group and "12,5" with a decimal comma; a plain one is Number()
  return comma ? num(s) : Number(s);
}

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (TOP_LINE.test(l) && LOAD.test(l)) score += 0.5;
    else if (/^\s*(Tasks|Threads):\s+\d+ total,/.test(l)) score += 0.2;
    else if (/^\s*%?Cpu(\(s\)|\d+)\s*:\s*[\d.,]+\s*%?\s*us/.test(l)) score += 0.15;
    else if (/^\s*[KMG]iB Mem\s*:/.test(l) || /^\s*Mem:\s+\d+k? total/.test(l)) score += 0.15;
    else if (/^\s*PID\s+USER\s+.*COMMAND/.test(l) || /^\s*PID\s+.*%CPU.*COMMAND/.test(l)) score += 0.2;
    else if (/^Mem: \d+K used, \d+K free/.test(l)) score += 0.35; // BusyBox top
    else if (/^CPU:\s+[\d.]+% usr\s/.test(l)) score += 0.3;
    else if (/^Load average: [\d.]+ [\d.]+ [\d.]+ \d+\/\d+/.test(l)) score += 0.3;
    if (score >= 1) break;
  }
  return Math.min(0.98, score);
}

interface Frame { index: number; line: number; time: string; }

/** a process's %CPU series (kept when it was ever busy), its place in TopSink.procSeq, and its PID and COMMAND as printed */
interface ProcCpu { series: Series; busy: boolean; first: number; last: number; pos: number; pid: string; command: string }

class TopSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private frames: Frame[] = [];
  private frame = -1;
  /** per series key → values per frame */
  private seriesMap = new Map<string, Series>();
  private cols: string[] | null = null;
  private cmdCol = -1;
  private rows: (string | number | null)[][] = [];
  private tableCols: string[] | null = null;
  private procCpu = new Map<string, ProcCpu>();
  /** the processes in the order they were first seen: a frame lists them much as the one before did, so the next row is likely procSeq[procPtr] */
  private procSeq: ProcCpu[] = [];
  private procPtr = 0;
  private cpuIds = new Set<string>();
  private sawHeaderLine = false;
  /** true from a frame's start until its process table header */
  private expectHeader = false;
  private droppedRows = 0;
  /** memory summary blocks seen in this frame: the first is Mem, the second Swap (names may be translated) */
  private memBlocks = 0;

  /** A summary line: it belongs to the current frame, or starts one when a process table came before (BusyBox). */
  private summaryLine(lineNo: number): void {
    if (this.frame < 0 || this.cols) this.newFrame(lineNo, '');
  }

  private ensureFrame(lineNo: number): void {
    if (this.frame < 0) this.newFrame(lineNo, '');
  }

  private newFrame(lineNo: number, time: string): void {
    this.expectHeader = true;
    this.memBlocks = 0;
    this.frame = this.frames.length;
    this.frames.push({ index: this.frame + 1, line: lineNo, time });
    if (this.cols) this.lastCols = this.cols;
    this.cols = null;
  }

  /** the process table header of the frame before (a redrawn interactive frame may not print it again) */
  private lastCols: string[] | null = null;

  private push(name: string, column: string, unit: Unit, value: number, lineNo: number, labels?: Record<string, string>): void {
    if (!Number.isFinite(value)) return;
    let key = name;
    if (labels) for (const k of Object.keys(labels).sort()) key += '\u0000' + k + '=' + labels[k];
    let s = this.seriesMap.get(key);
    if (!s) {
      s = { name, column, unit, values: [] };
      if (labels) s.labels = labels;
      this.seriesMap.set(key, s);
    }
    setSample(s, this.frame, value); // under the point budget; a repeated line in one frame replaces the value
    s.lines = s.lines ? [s.lines[0], lineNo] : [lineNo, lineNo];
  }

  line(text: string, lineNo: number): void {
    // interactive top recorded by script(1): a new frame starts where the cursor went home (ESC [H,
    // cleaned away), often right after the last row of the frame before, on the same line
    const glued = text.indexOf('top - ');
    if (glued > 0 && TOP_LINE.test(text.slice(glued))) {
      this.line(text.slice(0, glued), lineNo);
      this.line(text.slice(glued), lineNo);
      return;
    }
    // a process row (a PID first) under a table header: none of the summary patterns can match it
    if (this.cols !== null && this.pidRow(text)) { this.procRow(text, lineNo); return; }
    // a redrawn frame of interactive top leaves the lines that did not change (the column header)
    // on the screen without printing them again: its rows are under the header of the frame before
    if (this.cols === null && this.lastCols !== null && this.frame > 0 && this.pidRow(text)) {
      this.cols = this.lastCols;
      this.expectHeader = false;
      this.procRow(text, lineNo);
      return;
    }
    const t = text.trim();
    if (t === '') { return; }
    // script(1)'s own first and last lines around a recording
    if (t.startsWith('Script started on ') || t.startsWith('Script done on ')) return;
    const m = TOP_LINE.exec(text);
    if (m) {
      this.newFrame(lineNo, m[1]!);
      const lm = LOAD.exec(m[2]!);
      // with a decimal comma the loads read "0,10, 0,20, 0,30": split on ", " instead
      let loads: number[] = [];
      const tail = /load averages?:\s*(.*)$/.exec(m[2]!);
      if (tail) {
        const parts = tail[1]!.split(/,\s+|\s+/).filter((x) => x !== '');
        loads = parts.map((p) => num(p.replace(/,$/, '')));
      }
      if (loads.length < 3 && lm) loads = [num(lm[1]), num(lm[2]), num(lm[3])];
      this.push('load_1m', 'load average (1 min)', 'count', loads[0] ?? NaN, lineNo);
      this.push('load_5m', 'load average (5 min)', 'count', loads[1] ?? NaN, lineNo);
      this.push('load_15m', 'load average (15 min)', 'count', loads[2] ?? NaN, lineNo);
      const um = /(?<!\d)(\d+)\s+users?/.exec(m[2]!); // (?<!\d): linear on a long run of digits
      if (um) this.push('users', 'user', 'count', Number(um[1]), lineNo);
      const up = /up\s+(.*?),\s+\d+\s+users?/.exec(m[2]!) ?? /up\s+(.*?),\s+load/.exec(m[2]!);
      if (up) {
        const secs = uptimeSeconds(up[1]!);
        if (Number.isFinite(secs)) this.push('uptime_seconds', 'up', 's', secs, lineNo);
      }
      this.sawHeaderLine = true;
      return;
    }
    // BusyBox: "Load average: 11.31 10.61 7.90 9/421 2426" (running/total tasks, last pid)
    const bl = /^Load average:\s+([\d.,]+)\s+([\d.,]+)\s+([\d.,]+)(?:\s+(\d+)\/(\d+))?/.exec(text);
    if (bl) {
      this.summaryLine(lineNo);
      this.push('load_1m', 'Load average (1 min)', 'count', num(bl[1]), lineNo);
      this.push('load_5m', 'Load average (5 min)', 'count', num(bl[2]), lineNo);
      this.push('load_15m', 'Load average (15 min)', 'count', num(bl[3]), lineNo);
      if (bl[4]) { this.push('tasks_running', 'running', 'count', Number(bl[4]), lineNo); this.push('tasks_total', 'total', 'count', Number(bl[5]), lineNo); }
      return;
    }
    const tm = TASKS.exec(text);
    if (tm) {
      this.ensureFrame(lineNo);
      this.summaryLine(lineNo);
      const word = tm[1]!;
      for (const [v, label] of pairs(text.slice(text.indexOf(':') + 1))) {
        const key = label.toLowerCase();
        if (['total', 'running', 'sleeping', 'stopped', 'zombie', 'idle'].includes(key)) this.push(`tasks_${key}`, `${word} ${key}`, 'count', v, lineNo);
      }
      return;
    }
    if (/^\s*%?(Cpu|Node)/i.test(text)) {
      this.summaryLine(lineNo);
      this.cpuLine(text, lineNo);
      return;
    }
    if (/^\s*(?:[KMGTPE]iB\s+[^\s:]+|Mem|Swap)\s*:/.test(text)) {
      this.summaryLine(lineNo);
      this.memLine(text, lineNo);
      return;
    }
    if (/^\s*PID\s/.test(text) || /^\s*(USER|PPID|TGID)\s.*\bPID\b/.test(text) || (this.expectHeader && !this.cols && isHeader(text))) {
      this.ensureFrame(lineNo);
      this.cols = normalizeHeader(fields(text));
      this.expectHeader = false;
      this.cmdCol = this.cols.indexOf('COMMAND');
      if (!this.tableCols) this.tableCols = ['frame', ...this.cols];
      else if (this.tableCols.length !== this.cols.length + 1 || this.cols.some((c, i) => this.tableCols![i + 1] !== c)) {
        this.w.add(`line ${lineNo}: process table columns changed; rows kept under the first header's columns`);
      }
      return;
    }
    if (this.cols) { this.procRow(text, lineNo); return; }
    if (lineNo <= 3 && !this.sawHeaderLine) {
      const c = commandLine(text, TOP);
      if (c) { this.out.command = c; return; }
    }
    if (/^top from procps/.test(t) || /^procps(-ng)? version/.test(t)) { this.out.toolVersion = t; return; }
    this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
  }

  private cpuLine(text: string, lineNo: number): void {
    CPU_START.lastIndex = 0;
    const starts: { at: number; end: number; id: string }[] = [];
    let m: RegExpExecArray | null;
    while ((m = CPU_START.exec(text))) starts.push({ at: m.index, end: m.index + m[0].length, id: m[1]! });
    if (!starts.length) { this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`); return; }
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i]!;
      const body = text.slice(s.end, i + 1 < starts.length ? starts[i + 1]!.at : text.length);
      const idm = /(\d+)/.exec(s.id);
      const isNode = s.id.includes('Node');
      const labels: Record<string, string> | undefined = idm ? (isNode ? { node: idm[1]! } : { cpu: idm[1]! }) : undefined;
      if (idm && !isNode) this.cpuIds.add(idm[1]!);
      let any = false;
      for (const [v, label] of pairs(body)) {
        const name = CPU_FIELDS[label];
        if (!name) continue;
        this.push(name, label, '%', v, lineNo, labels);
        any = true;
      }
      if (!any && !/[|#]/.test(body)) this.w.add(`line ${lineNo}: could not read cpu figures "${snippet(body)}"`);
    }
  }

  private memLine(text: string, lineNo: number): void {
    MEM_START.lastIndex = 0;
    const starts: { at: number; end: number; id: string }[] = [];
    let m: RegExpExecArray | null;
    while ((m = MEM_START.exec(text))) starts.push({ at: m.index, end: m.index + m[0].length, id: m[1]! });
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i]!;
      const body = text.slice(s.end, i + 1 < starts.length ? starts[i + 1]!.at : text.length);
      const unitm = /^([KMGTPE]iB)\s/.exec(s.id);
      const swap = s.id.endsWith('Swap') || (!s.id.endsWith('Mem') && this.memBlocks > 0);
      this.memBlocks++;
      // old procps (3.2): "Mem:   2054748k total" — a k suffix
      const scale = unitm ? SCALE[unitm[1]!]! : 1024;
      // (?<!\d): a number starts where no digit precedes it, else a long run of digits takes quadratic time
      const re = /(?<!\d)(\d+(?:[.,]\d+)?)([kmgKMG])?\s+([A-Za-z][A-Za-z/]*(?:\s+Mem)?)/g;
      let p: RegExpExecArray | null;
      while ((p = re.exec(body))) {
        const v = num(p[1]!) * (p[2] ? MEM_SUFFIX[p[2].toLowerCase()]! : scale);
        const label = p[3]!.replace(/\s+/g, ' ');
        const name = memName(label, swap);
        if (!name) continue;
        this.push(name, name === 'memory_available_bytes' ? `${unitm ? unitm[1]! + ' ' : ''}${label}` : `${s.id} ${label}`, 'B', Math.round(v), lineNo);
        if (this.frame === 0 && name === 'memory_total_bytes' && !('memory_total_bytes' in this.out.facts)) this.out.facts.memory_total_bytes = Math.round(v);
        if (this.frame === 0 && name === 'swap_total_bytes' && !('swap_total_bytes' in this.out.facts)) this.out.facts.swap_total_bytes = Math.round(v);
      }
    }
  }

  /**
   * Does the line start with a number followed by a blank and then something other than ":"
   * (after blanks)? Then it is no summary line ("top -", "Tasks:", "%Cpu", "MiB Mem", "Load
   * average:") and no header: only procRow reads it.
   */
  private pidRow(text: string): boolean {
    const n = text.length;
    let i = 0;
    let c = 32;
    while (i < n && ((c = text.charCodeAt(i)) === 32 || c === 9)) i++;
    if (i >= n || c < 48 || c > 57) return false;
    while (i < n && (c = text.charCodeAt(i)) >= 48 && c <= 57) i++;
    if (i >= n || (c !== 32 && c !== 9)) return false;
    while (i < n && ((c = text.charCodeAt(i)) === 32 || c === 9)) i++;
    return i < n && c !== 58 /* : */;
  }

  /** per column of the current header: 1 memory size, 2 a %-column, 0 other (cached with the header) */
  private colKinds: Uint8Array | null = null;
  private kindsFor: string[] | null = null;
  private hasVsz = false;
  /** the current header's last PID and %CPU columns (-1: none) */
  private pidCol = -1;
  private cpuCol = -1;
  /** a row's field offsets, one more than the header's columns (scanFields) */
  private starts = new Int32Array(0);
  private ends = new Int32Array(0);

  private procRow(text: string, lineNo: number): void {
    const cols = this.cols!;
    if (this.kindsFor !== cols) {
      this.kindsFor = cols;
      this.colKinds = new Uint8Array(cols.map((c) => (MEM_COLUMNS.has(c) ? 1 : c.startsWith('%') ? 2 : 0)));
      this.hasVsz = cols.includes('%VSZ');
      this.pidCol = cols.lastIndexOf('PID');
      this.cpuCol = cols.lastIndexOf('%CPU');
      this.starts = new Int32Array(cols.length + 1);
      this.ends = new Int32Array(cols.length + 1);
    }
    if (this.rows.length >= MAX_TABLE_ROWS && !this.hasVsz && this.procCpuOnly(text, lineNo)) return;
    const kinds = this.colKinds!;
    let f = fields(text);
    // BusyBox glues a wide VSZ to %VSZ: "1447g5792%"
    if (this.hasVsz) {
      const k = f.findIndex((x, i) => i < cols.length && /^\d+(?:\.\d+)?[kmgt]\d+%$/.test(x));
      if (k >= 0) { const g = /^(\d+(?:\.\d+)?[kmgt])(\d+%)$/.exec(f[k]!)!; f.splice(k, 1, g[1]!, g[2]!); }
    }
    if (f.length < cols.length && !(this.cmdCol === cols.length - 1 && f.length === cols.length - 1)) {
      this.w.add(`line ${lineNo}: could not read process row "${snippet(text)}"`);
      return;
    }
    if (f.length > cols.length) {
      // a COMMAND with spaces (-c): the columns after it are counted from the end
      if (this.cmdCol >= 0) {
        const after = cols.length - this.cmdCol - 1;
        f = [...f.slice(0, this.cmdCol), f.slice(this.cmdCol, f.length - after).join(' '), ...f.slice(f.length - after)];
      } else { this.w.add(`line ${lineNo}: process row has more fields than the header "${snippet(text)}"`); return; }
    }
    // beyond the table's 200,000 rows only PID, COMMAND and %CPU are read (the rows are not kept)
    const keep = this.rows.length < MAX_TABLE_ROWS;
    const row: (string | number | null)[] = [this.frame + 1];
    let pid = '', command = '', cpu = NaN;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      const v = f[i] ?? '';
      if (c === 'PID') pid = v;
      if (i === this.cmdCol) command = v;
      const kind = kinds[i];
      if (kind === 1) { if (keep) { const b = topMem(v); row.push(Number.isFinite(b) ? b : v); } continue; }
      const pv = kind === 2 ? withoutPercent(v) : v;
      if (c === '%CPU') cpu = num(pv);
      if (!keep) continue;
      const n = plainNumber(pv);
      row.push(Number.isFinite(n) ? n : v);
    }
    if (!allDigits(pid) && cols.includes('PID')) { this.w.add(`line ${lineNo}: could not read process row "${snippet(text)}"`); return; }
    if (keep) this.rows.push(row); else this.droppedRows++;
    this.processCpu(pid, command, cpu, lineNo);
  }

  /**
   * A row past the table's limit, when it has as many fields as the header: PID, COMMAND and %CPU
   * cut out by offset, nothing else split or read. False: read it in full (procRow).
   */
  private procCpuOnly(text: string, lineNo: number): boolean {
    const cols = this.cols!;
    const starts = this.starts, ends = this.ends;
    if (scanFields(text, starts, ends) !== cols.length) return false;
    const field = (i: number): string => (i < 0 ? '' : text.slice(starts[i]!, ends[i]!));
    const pid = field(this.pidCol);
    if (this.pidCol >= 0 && !allDigits(pid)) return false; // the full read warns about it
    let cpu = NaN;
    if (this.cpuCol >= 0) {
      const v = field(this.cpuCol);
      cpu = num(withoutPercent(v));
    }
    this.droppedRows++;
    this.processCpu(pid, field(this.cmdCol), cpu, lineNo);
    return true;
  }

  /** a process's %CPU in this frame: its cpu_percent series (kept when it was ever busy) */
  private processCpu(pid: string, command: string, cpu: number, lineNo: number): void {
    if (pid && Number.isFinite(cpu)) {
      const key = pid + '\u0000' + command;
      let p = this.procCpu.get(key);
      if (!p) {
        if (this.procCpu.size >= 5000) return;
        p = { series: { name: 'cpu_percent', column: '%CPU', unit: '%', labels: { pid, command }, values: [] }, busy: false, first: lineNo, last: lineNo, pos: this.procSeq.length, pid, command };
        this.procCpu.set(key, p);
        this.procSeq.push(p);
      }
      this.cpuSample(p, cpu, lineNo);
    }
  }

  private cpuSample(p: ProcCpu, cpu: number, lineNo: number): void {
    setSample(p.series, this.frame, cpu);
    p.last = lineNo;
    if (cpu > 0) p.busy = true;
    this.procPtr = p.pos + 1;
  }

  /** the chunk the next "top - " was looked for in, and where it is in it (Infinity: nowhere after) */
  private topChunk = '';
  private nextTop = -1;

  /**
   * The fast path (LineSink.span) for the rows procCpuOnly reads: past the table's rows, a row of
   * as many fields as the header, its PID and COMMAND compared in place with the process expected
   * next. Anything else — a line with a character line() would clean, a "top - " in it (a frame
   * glued on), a row that is not a process row — is left to line(), which reads it as before.
   */
  span(chunk: string, start: number, end: number, lineNo: number): boolean {
    const cols = this.cols;
    if (cols === null || this.kindsFor !== cols || this.hasVsz || this.rows.length < MAX_TABLE_ROWS) return false;
    if (chunk !== this.topChunk || this.nextTop < start) {
      this.topChunk = chunk;
      const at = chunk.indexOf('top - ', start);
      this.nextTop = at < 0 ? Infinity : at;
    }
    if (this.nextTop < end) return false;
    const starts = this.starts, ends = this.ends;
    const max = starts.length;
    let k = 0;
    let i = start;
    while (i < end) {
      let c = chunk.charCodeAt(i);
      if (c === 32 || c === 9) { i++; continue; }
      if (k === max) return false;
      starts[k] = i;
      while (i < end && (c = chunk.charCodeAt(i)) !== 32 && c !== 9) {
        if ((c < 32 && c !== 9) || c === 127) return false;
        i++;
      }
      ends[k++] = i;
    }
    // procCpuOnly's row (pidRow: digits first, then no ":"), else line()
    if (k !== cols.length || k < 2 || !digitsAt(chunk, starts[0]!, ends[0]!) || chunk.charCodeAt(starts[1]!) === 58) return false;
    const pc = this.pidCol, cc = this.cmdCol;
    if (pc >= 0 && !digitsAt(chunk, starts[pc]!, ends[pc]!)) return false;
    let cpu = NaN;
    if (this.cpuCol >= 0) {
      let e = ends[this.cpuCol]!;
      const s0 = starts[this.cpuCol]!;
      if (chunk.charCodeAt(e - 1) === 37 /* % */) e--;
      cpu = num(chunk.slice(s0, e));
    }
    this.droppedRows++;
    if (pc < 0 || !Number.isFinite(cpu)) return true; // (no series for it: processCpu would not read it either)
    const p = this.procSeq[this.procPtr];
    if (p !== undefined && sameText(chunk, starts[pc]!, ends[pc]!, p.pid) && (cc < 0 ? p.command === '' : sameText(chunk, starts[cc]!, ends[cc]!, p.command))) {
      this.cpuSample(p, cpu, lineNo);
    } else {
      this.processCpu(chunk.slice(starts[pc]!, ends[pc]!), cc < 0 ? '' : chunk.slice(starts[cc]!, ends[cc]!), cpu, lineNo);
    }
    return true;
  }

  end() {
    const out = this.out;
    const nFrames = this.frames.length;
    const series: Series[] = [];
    for (const s of this.seriesMap.values()) {
      padTo(s, nFrames);
      if (nFrames > 1 && s.name.startsWith('cpu_')) s.firstSampleSinceBoot = true;
      series.push(s);
    }
    for (const p of this.procCpu.values()) {
      if (!p.busy) continue;
      const s = p.series;
      padTo(s, nFrames);
      s.lines = [p.first, p.last];
      if (nFrames > 1) s.firstSampleSinceBoot = true;
      series.push(s);
    }
    out.series = series;
    if (this.cpuIds.size) out.facts.cpu_threads = this.cpuIds.size;
    out.tables = {};
    out.tables.frames = table(['frame', 'time', 'line'], this.frames.map((f) => [f.index, f.time || null, f.line]));
    if (this.tableCols) out.tables.processes = table(this.tableCols, this.rows, 'processes of each frame (VIRT/RES/SHR… in bytes)');
    if (!nFrames) this.w.add('no top frame found');
    if (this.droppedRows) this.w.add(`${this.droppedRows} process rows beyond ${MAX_TABLE_ROWS} were not kept in the processes table`);
    out.warnings = this.w.done();
    return out;
  }
}

const KNOWN_COLUMNS = new Set(['PID', 'PPID', 'UID', 'USER', 'RUSER', 'RUID', 'SUID', 'SUSER', 'GID', 'GROUP', 'PGRP', 'TTY', 'TPGID', 'SID',
  'PR', 'NI', 'nTH', 'P', 'TIME', 'TIME+', '%CPU', '%MEM', 'VIRT', 'SWAP', 'RES', 'CODE', 'DATA', 'SHR', 'nMaj', 'nMin', 'nDRT', 'S',
  'WCHAN', 'Flags', 'CGROUPS', 'SUPGIDS', 'SUPGRPS', 'TGID', 'OOMa', 'OOMs', 'ENVIRON', 'vMj', 'vMn', 'USED', 'nsIPC', 'nsMNT', 'nsNET',
  'nsPID', 'nsUSER', 'nsUTS', 'LXC', 'RSan', 'RSfd', 'RSlk', 'RSsh', 'CGNAME', 'NU', 'LOGID', 'EXE', 'RSS', 'PSS', 'PSan', 'PSfd', 'PSsh',
  'USS', 'ioR', 'ioRop', 'ioW', 'ioWop', 'AGID', 'AGNI', 'STARTED', 'ELAPSED', '%CUU', '%CUC', 'nsCGROUP', 'nsTIME', 'COMMAND']);
const COLUMN_ALIAS = lookupTable({ Command: 'COMMAND', BEFEHL: 'COMMAND', 'ZEIT+': 'TIME+', ZEIT: 'TIME' });

/** A process table header in any language: several words, not a number first, with %CPU/%MEM or mostly known names. */
function isHeader(text: string): boolean {
  const f = fields(text);
  if (f.length < 4 || /^\d/.test(f[0]!)) return false;
  if (f.includes('%CPU') || f.includes('%MEM')) return true;
  return f.filter((c) => KNOWN_COLUMNS.has(c)).length >= f.length / 2;
}

/**
 * Column names as English procps prints them, so rules and tables do not depend on the locale:
 * translated COMMAND/TIME+ names, a translated PID first column, and the S column whose title some
 * translations leave blank ("SHR    %CPU" in zh_CN).
 */
function normalizeHeader(cols: string[]): string[] {
  const out = cols.map((c) => COLUMN_ALIAS[c] ?? c);
  if (!out.includes('PID') && out.length && !KNOWN_COLUMNS.has(out[0]!)) out[0] = 'PID';
  const last = out.length - 1;
  if (!out.includes('COMMAND') && last > 0 && !KNOWN_COLUMNS.has(out[last]!)) out[last] = 'COMMAND';
  const shr = out.indexOf('SHR');
  if (!out.includes('S') && shr >= 0 && out[shr + 1] === '%CPU') out.splice(shr + 1, 0, 'S');
  return out;
}

function memName(label: string, swap: boolean): string | undefined {
  const l = label.toLowerCase();
  if (l === 'avail mem' || l === 'avail') return 'memory_available_bytes';
  if (l === 'cached mem' || l === 'cached') return 'memory_cached_bytes';
  if (!swap && l === 'buff') return 'memory_buffers_bytes'; // BusyBox
  if (!swap && l === 'shrd') return 'memory_shared_bytes'; // BusyBox
  const pre = swap ? 'swap_' : 'memory_';
  if (l === 'total') return pre + 'total_bytes';
  if (l === 'free') return pre + 'free_bytes';
  if (l === 'used') return pre + 'used_bytes';
  if (!swap && l === 'buff/cache') return 'memory_buff_cache_bytes';
  if (!swap && (l === 'buffers' || l === 'buffer')) return 'memory_buffers_bytes';
  return undefined;
}

/** "value label" pairs in a summary line: "86 total,   4 running" → [[86,'total'],[4,'running']]. */
function pairs(s: string): [number, string][] {
  const out: [number, string][] = [];
  PAIR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PAIR.exec(s))) {
    const v = num(m[1]!);
    if (Number.isFinite(v)) out.push([v, m[2]!]);
  }
  return out;
}

/** "3 days,  2:03" / "4 min" / "10:01" / "1 day, 3 min" → seconds. */
function uptimeSeconds(s: string): number {
  let total = 0;
  let any = false;
  for (const part of s.split(',')) {
    const p = part.trim();
    let m: RegExpExecArray | null;
    if ((m = /^(\d+)\s+days?$/.exec(p))) { total += Number(m[1]) * 86400; any = true; }
    else if ((m = /^(\d+)\s+min$/.exec(p))) { total += Number(m[1]) * 60; any = true; }
    else if ((m = /^(\d+):(\d{2})$/.exec(p))) { total += Number(m[1]) * 3600 + Number(m[2]) * 60; any = true; }
    else if (p !== '') return NaN;
  }
  return any ? total : NaN;
}

export const topParser: CaptureParser = {
  id: 'top',
  title: 'top -b (procps)',
  commands: [{ program: 'top' }],
  detect,
  open: () => new TopSink(),
};
