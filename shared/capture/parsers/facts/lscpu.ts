/**
 * lscpu (util-linux 2.2x–2.4x): the summary (plain "Key: value" and `lscpu -J`), the per-CPU table of
 * `lscpu -e` (any `-e=COLUMNS`, `--output-all`, `-e -J`), the parsable `lscpu -p` (any `-p=COLUMNS`,
 * `-a`, `-y`) and the cache table of `lscpu -C` (also `-C -J`) → CPU facts under the same names.
 */
import type { CaptureParser, FactValue, Metric, Table } from '../../types';
import { commandLine, fields, headCommand, lookupTable, metric, num, textRecord } from '../kit';
import { FactsSink, cacheBytes, keyValue } from './common';

/** the program whose prompt line names the command (a second one starts the next lscpu run of the file) */
const LSCPU = ['lscpu'];

/** Canonical lscpu field → localized spellings seen in the wild (zh_CN, de, fr, es). */
const ALIASES = lookupTable({
  '架构': 'Architecture', 'Architektur': 'Architecture',
  'CPU': 'CPU(s)', 'CPU(s)': 'CPU(s)', 'CPU(s)：': 'CPU(s)', 'Processeur(s)': 'CPU(s)', 'CPU(s) disponibles': 'CPU(s)',
  '型号名称': 'Model name', 'Modellname': 'Model name', 'Nom de modèle': 'Model name', 'Nombre del modelo': 'Model name',
  '每个核的线程数': 'Thread(s) per core', 'Thread(s) pro Kern': 'Thread(s) per core', 'Thread(s) par cœur': 'Thread(s) per core',
  '每个座的核数': 'Core(s) per socket', 'Kern(e) pro Sockel': 'Core(s) per socket', 'Kern(e) pro Socket': 'Core(s) per socket', 'Cœur(s) par socket': 'Core(s) per socket',
  '座': 'Socket(s)', 'Sockel': 'Socket(s)', 'Socket(s)': 'Socket(s)',
  '厂商 ID': 'Vendor ID', '厂商ID': 'Vendor ID', 'Anbieterkennung': 'Vendor ID',
  '超管理器厂商': 'Hypervisor vendor', 'Hypervisor-Anbieter': 'Hypervisor vendor',
  '虚拟化类型': 'Virtualization type', 'Virtualisierungstyp': 'Virtualization type',
  'CPU MHz': 'CPU MHz', 'CPU 最大 MHz': 'CPU max MHz', 'Maximale Taktfrequenz der CPU': 'CPU max MHz',
  'CPU 最小 MHz': 'CPU min MHz', 'Minimale Taktfrequenz der CPU': 'CPU min MHz',
  'NUMA 节点': 'NUMA node(s)', 'NUMA-Knoten': 'NUMA node(s)',
  '虚拟化': 'Virtualization', 'Virtualisierung': 'Virtualization',
});

export class LscpuReader {
  readonly fields = new Map<string, string>();
  readonly lines = new Map<string, number>();

  add(rawKey: string, value: string, lineNo: number): void {
    const key = rawKey.replace(/[:：]\s*$/, '').trim();
    const canon = ALIASES[key] ?? key;
    if (!this.fields.has(canon)) { this.fields.set(canon, value); this.lines.set(canon, lineNo); }
  }

  facts(): Record<string, FactValue> {
    const f = this.fields;
    const out: Record<string, FactValue> = {};
    const int = (k: string) => { const v = parseInt(f.get(k) ?? '', 10); return Number.isFinite(v) ? v : undefined; };
    const model = f.get('Model name');
    if (model) out.cpu_model = model;
    const vendor = f.get('Vendor ID');
    if (vendor) out.cpu_vendor = vendor;
    const arch = f.get('Architecture');
    if (arch) out.arch = arch;
    const threads = int('CPU(s)');
    if (threads !== undefined) out.cpu_threads = threads;
    // ARM lscpu says "Cluster(s)" / "Core(s) per cluster" when the socket count is unknown
    const sockets = int('Socket(s)') ?? int('Book(s)') ?? int('Cluster(s)');
    if (sockets !== undefined) out.cpu_sockets = sockets;
    const perSocket = int('Core(s) per socket') ?? int('Core(s) per cluster');
    if (perSocket !== undefined && sockets !== undefined) out.cpu_cores = perSocket * sockets;
    else {
      const tpc = int('Thread(s) per core');
      if (tpc && threads !== undefined) out.cpu_cores = Math.round(threads / tpc);
    }
    const tpc = int('Thread(s) per core');
    if (tpc !== undefined) out.cpu_threads_per_core = tpc;
    const mhz = parseFloat(f.get('CPU MHz') ?? f.get('CPU max MHz') ?? '');
    if (Number.isFinite(mhz)) out.cpu_mhz = mhz;
    const maxMhz = parseFloat(f.get('CPU max MHz') ?? '');
    if (Number.isFinite(maxMhz)) out.cpu_max_mhz = maxMhz;
    // lscpu 2.38 counts an offline CPU's missing clock as 0 in "CPU min MHz": no clock is 0 MHz
    const minMhz = parseFloat(f.get('CPU min MHz') ?? '');
    if (Number.isFinite(minMhz) && minMhz > 0) out.cpu_min_mhz = minMhz;
    const online = f.get('On-line CPU(s) list');
    const onlineCount = online !== undefined ? cpuListCount(online) : undefined;
    if (onlineCount !== undefined) { out.cpu_threads_online = onlineCount; out.cpu_online_list = online!.trim(); }
    const offline = f.get('Off-line CPU(s) list');
    if (offline !== undefined && cpuListCount(offline) !== undefined) out.cpu_offline_list = offline.trim();
    const numa = int('NUMA node(s)');
    if (numa !== undefined) out.numa_nodes = numa;
    const hv = f.get('Hypervisor vendor');
    if (hv) out.virtualization = hv;
    else if (f.get('Virtualization type')) out.virtualization = f.get('Virtualization type')!;
    const vt = f.get('Virtualization type');
    if (vt) out.virtualization_type = vt;
    const hwVirt = f.get('Virtualization');
    if (hwVirt) out.cpu_hw_virtualization = hwVirt;
    for (const [k, name] of [['L1d cache', 'l1d'], ['L1i cache', 'l1i'], ['L2 cache', 'l2'], ['L3 cache', 'l3']] as const) {
      const v = f.get(k);
      if (v === undefined) continue;
      const b = cacheBytes(v);
      if (Number.isFinite(b)) out[`cpu_${name}_cache_bytes`] = b;
    }
    const flags = f.get('Flags');
    if (flags) out.cpu_flags = flags.split(/\s+/).filter(Boolean);
    return out;
  }
}

// ---- lscpu -e / -p: one row per CPU ------------------------------------------------------------

/** The columns of `lscpu -e` / `-p` (upper case as -e prints them; -p prints most in mixed case). */
const CPU_COLUMNS = new Set([
  'BOGOMIPS', 'CPU', 'CORE', 'CLUSTER', 'SOCKET', 'NODE', 'BOOK', 'DRAWER', 'CACHE', 'POLARIZATION', 'ADDRESS',
  'CONFIGURED', 'ONLINE', 'MHZ', 'SCALMHZ%', 'MAXMHZ', 'MINMHZ',
]);
/** A cache name (L1d, L2, L3i …) or, in -e, the cache column "L1d:L1i:L2:L3". */
const CACHE_NAME = /^L\d[a-z]?$/i;
const isCacheColumn = (c: string): boolean => c.toUpperCase() === 'CACHE' || (c.length <= 80 && c.split(':').every((x) => CACHE_NAME.test(x)));
const knownCpuColumn = (c: string): boolean => CPU_COLUMNS.has(c.toUpperCase()) || isCacheColumn(c);

/** The header of `lscpu -e`: every word a column lscpu knows, and the CPU column or three of them. */
export function isExtendedHeader(line: string): boolean {
  if (line.length > 400) return false;
  const f = fields(line);
  if (f.length < 2 || !f.every((c) => c === c.toUpperCase() || isCacheColumn(c)) || !f.every(knownCpuColumn)) return false;
  return f.includes('CPU') || f.length >= 3;
}

/** The column header of `lscpu -p`: "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3" → its names, else undefined. */
export function parsableHeader(line: string): string[] | undefined {
  if (line.length > 400 || !/^#\s*\S+,/.test(line)) return undefined;
  const names = line.replace(/^#\s*/, '').trimEnd().split(',').map((s) => s.trim());
  const named = names.filter((n) => n !== '');
  if (named.length < 2 || !named.every(knownCpuColumn)) return undefined;
  return named.some((n) => n.toUpperCase() === 'CPU') || named.length >= 3 ? names : undefined;
}

const PARSABLE_INTRO = /^# The following is the parsable format/;

/** The columns of `lscpu -C`. */
const CACHE_COLUMNS = new Set(['NAME', 'ONE-SIZE', 'ALL-SIZE', 'WAYS', 'TYPE', 'LEVEL', 'SETS', 'PHY-LINE', 'COHERENCY-SIZE', 'ALLOC-POLICY', 'WRITE-POLICY']);

export function isCacheHeader(line: string): boolean {
  if (line.length > 400) return false;
  const f = fields(line);
  return f.length >= 2 && f[0] === 'NAME' && f.every((c) => CACHE_COLUMNS.has(c)) && (f.includes('ONE-SIZE') || f.includes('ALL-SIZE'));
}

type Cell = string | number | null;
/** One CPU row by lower-case column name (cache columns kept apart), plus the line it came from. */
interface CpuRow { cells: Map<string, Cell>; online: boolean | null; lineNo: number | undefined }

/** "yes"/"Y"/true → true; "no"/"N"/false → false (lscpu -e says yes/no, -p and -J Y/N or true/false). */
function yesNo(v: unknown): boolean | null | undefined {
  if (v === true || v === false) return v;
  if (v === null || v === undefined || v === '' || v === '-') return null;
  const s = String(v).trim().toLowerCase();
  if (s === 'yes' || s === 'y' || s === 'true' || s === '1') return true;
  if (s === 'no' || s === 'n' || s === 'false' || s === '0') return false;
  return undefined;
}

function cellOf(v: string): Cell {
  if (v === '' || v === '-') return null;
  const n = num(v);
  return Number.isFinite(n) && !v.includes(':') ? n : v;
}

/** [0,1,2,5,7,8] → "0-2,5,7,8" (lscpu's own list form; runs of three or more become ranges). */
export function cpuList(ids: readonly number[]): string {
  const s = [...new Set(ids)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < s.length;) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    if (j - i >= 2) out.push(`${s[i]}-${s[j]}`); else for (let k = i; k <= j; k++) out.push(String(s[k]));
    i = j + 1;
  }
  return out.join(',');
}

/** "0-2,5,7,8" → 6; undefined when it is not such a list. */
export function cpuListCount(list: string): number | undefined {
  const t = list.trim();
  if (t === '' || t.length > 10_000) return undefined;
  let n = 0;
  for (const part of t.split(',')) {
    const m = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(part.trim());
    if (!m) return undefined;
    const a = Number(m[1]), b = m[2] !== undefined ? Number(m[2]) : a;
    if (b < a) return undefined;
    n += b - a + 1;
  }
  return n;
}

/** Facts from the per-CPU rows, in the names the summary gives. */
function cpuRowFacts(all: readonly CpuRow[], columns: ReadonlySet<string>): Record<string, FactValue> {
  const out: Record<string, FactValue> = {};
  // the same CPU listed twice (-e and -p of one machine in one file) is one CPU: what each says, merged
  const byCpu = new Map<number, CpuRow>();
  const rows: CpuRow[] = [];
  for (const r of all) {
    const cpu = r.cells.get('cpu');
    const had = typeof cpu === 'number' ? byCpu.get(cpu) : undefined;
    if (!had) { const copy = { cells: new Map(r.cells), online: r.online, lineNo: r.lineNo }; rows.push(copy); if (typeof cpu === 'number') byCpu.set(cpu, copy); continue; }
    for (const [k, v] of r.cells) if (v !== null || !had.cells.has(k)) had.cells.set(k, v);
    if (r.online !== null) had.online = r.online;
  }
  const id = (r: CpuRow, c: string): string | null => {
    const v = r.cells.get(c);
    return v === null || v === undefined ? null : String(v);
  };
  const cpus = rows.map((r) => r.cells.get('cpu')).filter((v): v is number => typeof v === 'number');
  out.cpu_threads = columns.has('cpu') ? new Set(cpus).size : rows.length;
  if (columns.has('online')) {
    const on = rows.filter((r) => r.online === true);
    out.cpu_threads_online = on.length;
    const onIds = on.map((r) => r.cells.get('cpu')).filter((v): v is number => typeof v === 'number');
    if (columns.has('cpu')) out.cpu_online_list = cpuList(onIds);
    const offIds = rows.filter((r) => r.online === false).map((r) => r.cells.get('cpu')).filter((v): v is number => typeof v === 'number');
    if (offIds.length) out.cpu_offline_list = cpuList(offIds);
  }
  // ids are logical (unique) by default and physical with -y (a core id repeats in every socket): count tuples
  const socketCol = columns.has('socket') ? 'socket' : columns.has('cluster') ? 'cluster' : null;
  const place = (r: CpuRow): string | null => {
    const parts: string[] = [];
    for (const c of ['drawer', 'book']) if (columns.has(c)) parts.push(id(r, c) ?? '?');
    if (socketCol) { const s = id(r, socketCol); if (s === null) return null; parts.push(s); }
    return parts.join('/');
  };
  if (socketCol) {
    const sockets = new Set(rows.map(place).filter((p): p is string => p !== null));
    if (sockets.size) out.cpu_sockets = sockets.size;
  }
  if (columns.has('core')) {
    const perCore = new Map<string, number>();
    for (const r of rows) {
      const core = id(r, 'core');
      const p = place(r);
      if (core === null || p === null) continue;
      const key = `${p}:${core}`;
      perCore.set(key, (perCore.get(key) ?? 0) + 1);
    }
    if (perCore.size) {
      out.cpu_cores = perCore.size;
      out.cpu_threads_per_core = Math.max(...perCore.values());
    }
  }
  if (columns.has('node')) {
    const nodes = new Set(rows.map((r) => id(r, 'node')).filter((x) => x !== null));
    if (nodes.size) out.numa_nodes = nodes.size;
  }
  const numbers = (c: string) => rows.map((r) => r.cells.get(c)).filter((v): v is number => typeof v === 'number');
  const first = numbers('mhz')[0];
  const max = numbers('maxmhz');
  const min = numbers('minmhz').filter((x) => x > 0);
  // as the summary: its "CPU MHz" (the current clock, lscpu ≤ 2.36) or else "CPU max MHz" — 2.38 prints only the latter
  if (max.length) out.cpu_mhz = Math.max(...max);
  else if (first !== undefined) out.cpu_mhz = first;
  if (max.length) out.cpu_max_mhz = Math.max(...max);
  if (min.length) out.cpu_min_mhz = Math.min(...min);
  return out;
}

function flatten(node: unknown, r: LscpuReader, lineNo: number): void {
  if (Array.isArray(node)) { for (const n of node) flatten(n, r, lineNo); return; }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (typeof o.field === 'string') r.add(o.field, o.data === null || o.data === undefined ? '' : String(o.data), lineNo);
  if (o.children) flatten(o.children, r, lineNo);
  if (o.lscpu) flatten(o.lscpu, r, lineNo);
}

type Mode = 'unknown' | 'plain' | 'json' | 'extended' | 'parsable' | 'caches';

const MAX_JSON = 8 * 1024 * 1024;

class LscpuSink extends FactsSink {
  private readonly r = new LscpuReader();
  private json: string[] | null = null;
  private jsonFirst = 0;
  private jsonChars = 0;
  private mode: Mode = 'unknown';
  /** the -e / -p / -C header in force: column names as printed */
  private header: string[] = [];
  private readonly cpuRows: CpuRow[] = [];
  private readonly cpuColumns = new Set<string>();
  private cpuTable: Table | null = null;
  private readonly cacheRows: Record<string, Cell>[] = [];
  private cacheTable: Table | null = null;
  private firstRow = 0;
  private lastRow = 0;

  constructor() { super(LSCPU); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    // the next lscpu run of a file that holds several (the first prompt line is the capture's command)
    if (commandLine(t, LSCPU) !== undefined) {
      if (this.mode === 'json') this.readJson();
      this.mode = 'unknown';
      this.header = [];
      return;
    }
    if (this.mode === 'json') { this.addJson(text); return; }
    if (this.mode === 'unknown' && t.startsWith('{')) { this.mode = 'json'; this.json = []; this.jsonChars = 0; this.jsonFirst = lineNo; this.addJson(text); return; }
    // a new section: the -p comment and header, the -e header, the -C header (several may follow one another)
    if (t.startsWith('#')) {
      const names = parsableHeader(t);
      if (names) { this.startTable('parsable', names); return; }
      // the comment lines above -p's header (translated in other locales)
      if (PARSABLE_INTRO.test(t) || this.mode === 'unknown') { this.mode = 'parsable'; this.header = []; return; }
      if (this.mode === 'parsable') return;
    }
    if (isExtendedHeader(t)) { this.startTable('extended', fields(t)); return; }
    if (isCacheHeader(t)) { this.startTable('caches', fields(t)); return; }
    switch (this.mode) {
      case 'extended': this.extendedRow(t, lineNo); return;
      case 'parsable': this.parsableRow(t, lineNo); return;
      case 'caches': this.cacheRow(t, lineNo); return;
      default: break;
    }
    this.mode = 'plain';
    const kv = keyValue(text);
    if (!kv || kv[0] === '') { this.warn(lineNo, text); return; }
    this.r.add(kv[0], kv[1], lineNo);
  }

  private addJson(text: string): void {
    this.jsonChars += text.length + 1;
    if (this.jsonChars > MAX_JSON) { if (this.json) this.warnings.push(`lscpu JSON over ${MAX_JSON} characters: not read`); this.json = null; return; }
    this.json?.push(text);
  }

  private startTable(mode: 'extended' | 'parsable' | 'caches', names: string[]): void {
    this.mode = mode;
    this.header = names;
    if (mode === 'caches') { this.cacheTable ??= { columns: names.filter((n) => n !== ''), rows: [] }; return; }
    this.cpuTable ??= { columns: names.filter((n) => n !== ''), rows: [] };
    for (const n of names) if (n !== '' && !isCacheColumn(n)) this.cpuColumns.add(n.toLowerCase());
  }

  private addCpuRow(values: (string | null)[], lineNo: number | undefined, online?: unknown): void {
    const cells = new Map<string, Cell>();
    const tableRow: Cell[] = [];
    this.header.forEach((name, i) => {
      if (name === '') return;
      const raw = values[i] ?? null;
      const c = raw === null ? null : cellOf(raw);
      tableRow.push(c);
      if (!isCacheColumn(name)) cells.set(name.toLowerCase(), c);
    });
    const o = yesNo(online !== undefined ? online : cells.get('online'));
    if (o === undefined) { this.warnings.push(`${lineNo !== undefined ? `line ${lineNo}: ` : ''}could not read ONLINE value "${String(cells.get('online'))}"`); }
    this.cpuRows.push({ cells, online: o ?? null, lineNo });
    if (this.cpuTable && this.sameColumns(this.cpuTable)) this.cpuTable.rows.push(tableRow);
    if (lineNo !== undefined) { if (!this.firstRow) this.firstRow = lineNo; this.lastRow = lineNo; }
  }

  /** rows go to the table only while the header is the table's (a second -e=… of other columns is read for facts only) */
  private sameColumns(t: Table): boolean {
    const named = this.header.filter((n) => n !== '');
    return named.length === t.columns.length && named.every((n, i) => n === t.columns[i]);
  }

  private extendedRow(t: string, lineNo: number): void {
    const f = fields(t);
    const cpu = this.header.indexOf('CPU');
    if (f.length !== this.header.length || (cpu >= 0 && !/^\d+$/.test(f[cpu]!))) { this.warn(lineNo, t, 'lscpu -e row'); return; }
    this.addCpuRow(f, lineNo);
  }

  private parsableRow(t: string, lineNo: number): void {
    const f = t.split(',');
    if (f.length !== this.header.length) { this.warn(lineNo, t, 'lscpu -p row'); return; }
    this.addCpuRow(f.map((x) => x.trim()), lineNo);
  }

  private cacheRow(t: string, lineNo: number): void {
    const f = fields(t);
    if (f.length !== this.header.length) { this.warn(lineNo, t, 'lscpu -C row'); return; }
    const rec = textRecord<Cell>();
    this.header.forEach((n, i) => { rec[n.toLowerCase()] = n === 'NAME' || n === 'TYPE' || n === 'ONE-SIZE' || n === 'ALL-SIZE' || /POLICY$/.test(n) ? f[i]! : cellOf(f[i]!); });
    this.cacheRows.push(rec);
    if (this.cacheTable && this.sameColumns(this.cacheTable)) this.cacheTable.rows.push(this.header.map((n) => rec[n.toLowerCase()] ?? null));
  }

  /** {"lscpu": […]} (summary), {"cpus": […]} (-e -J) or {"caches": […]} (-C -J) */
  private readJson(): void {
    if (!this.json) return;
    const text = this.json.join('\n');
    this.json = null;
    let doc: unknown;
    try { doc = JSON.parse(text); } catch {
      // lscpu 2.38 prints "-" for a missing number in -e -J (`"maxmhz": -,`), which is not JSON
      try { doc = JSON.parse(text.replace(/(":\s*)-(\s*,?\s*)$/gm, '$1null$2')); } catch {
        this.warnings.push(`line ${this.jsonFirst}: could not read lscpu JSON (not valid JSON, truncated?)`);
        return;
      }
    }
    const o = (doc !== null && typeof doc === 'object' ? doc : {}) as Record<string, unknown>;
    if (Array.isArray(o.cpus)) {
      const list = o.cpus.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x));
      const names: string[] = [];
      for (const x of list) for (const k of Object.keys(x)) if (!names.includes(k)) names.push(k);
      this.startTable('extended', names.map((n) => (isCacheColumn(n) ? n.replace(/l(\d)/g, 'L$1') : n.toUpperCase())));
      for (const x of list) {
        const values = names.map((k) => { const v = x[k]; return v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v); });
        this.addCpuRow(values, undefined, x.online);
      }
      return;
    }
    if (Array.isArray(o.caches)) {
      const list = o.caches.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x));
      const names: string[] = [];
      for (const x of list) for (const k of Object.keys(x)) if (!names.includes(k)) names.push(k);
      this.startTable('caches', names.map((n) => n.toUpperCase()));
      for (const x of list) {
        const rec = textRecord<Cell>();
        for (const k of names) { const v = x[k]; rec[k] = v === null || v === undefined ? null : typeof v === 'number' ? v : String(v); }
        this.cacheRows.push(rec);
        this.cacheTable!.rows.push(names.map((k) => rec[k] ?? null));
      }
      return;
    }
    flatten(doc, this.r, this.jsonFirst);
  }

  protected override finish(): void {
    this.readJson();
    const fromRows = this.cpuRows.length ? cpuRowFacts(this.cpuRows, this.cpuColumns) : {};
    const fromCaches: Record<string, FactValue> = {};
    for (const c of this.cacheRows) {
      const name = typeof c.name === 'string' ? c.name : '';
      const all = c['all-size'];
      // the names the summary gives (L1d, L1i, L2, L3); s390's L2d/L2i … stay in the table
      if (!/^(?:L1[di]|L[23])$/i.test(name) || all === null || all === undefined) continue;
      const b = typeof all === 'number' ? all : cacheBytes(all);
      if (Number.isFinite(b)) fromCaches[`cpu_${name.toLowerCase()}_cache_bytes`] = b;
    }
    // the summary, when there is one, has the last word (it counts what -e/-p leave out, e.g. offline CPUs with -p)
    Object.assign(this.facts, fromCaches, fromRows, this.r.facts());
    for (const [k, v] of this.r.fields) if (k !== 'Flags') this.settings[k] = v;
    const tables: Record<string, Table> = {};
    if (this.cpuTable && this.cpuTable.rows.length) tables.cpus = this.cpuTable;
    if (this.cacheTable && this.cacheTable.rows.length) tables.caches = this.cacheTable;
    if (Object.keys(tables).length) this.tables = tables;
    const rows = (m: Metric): Metric => { if (this.firstRow) m.lines = [this.firstRow, this.lastRow]; return m; };
    const threads = this.facts.cpu_threads;
    if (typeof threads === 'number') {
      this.metrics.push(this.r.fields.has('CPU(s)') || !this.cpuRows.length ? metric('cpu_threads', threads, 'count', { column: 'CPU(s)', lines: this.r.lines.get('CPU(s)') }) : rows(metric('cpu_threads', threads, 'count', { column: 'CPU' })));
    }
    const cores = this.facts.cpu_cores;
    if (typeof cores === 'number') {
      this.metrics.push(this.r.fields.has('Core(s) per socket') || !this.cpuRows.length ? metric('cpu_cores', cores, 'count', { column: 'Core(s) per socket', lines: this.r.lines.get('Core(s) per socket') }) : rows(metric('cpu_cores', cores, 'count', { column: 'CORE' })));
    }
  }
}

export const lscpuParser: CaptureParser = {
  id: 'lscpu',
  title: 'lscpu (summary, -e, -p, -C)',
  commands: [{ program: 'lscpu' }],
  detect(head) {
    let score = 0;
    const n = Math.min(head.length, 200);
    let arch = false, cpus = false, other = false;
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (/^\s*"lscpu"\s*:\s*\[/.test(l) || /^\{\s*"lscpu"\s*:/.test(l)) return 0.97;
      if (/^\s*"cpus"\s*:\s*\[/.test(l) && head.slice(i + 1, i + 5).some((x) => /^\s*"cpu"\s*:\s*\d+,?\s*$/.test(x))) return 0.95;
      if (/^\s*"caches"\s*:\s*\[/.test(l) && head.slice(i + 1, i + 5).some((x) => /^\s*"(?:one|all)-size"\s*:/.test(x))) return 0.9;
      if (PARSABLE_INTRO.test(l)) return 0.95;
      const next = i + 1 < n ? head[i + 1]! : '';
      const names = l.startsWith('#') ? parsableHeader(l) : undefined;
      if (names && next.length < 400 && next.split(',').length === names.length) return 0.9;
      if (isExtendedHeader(l)) return fields(next).length === fields(l).length && /^\s*(?:\d+(?:\.\d+)?|-)\s/.test(next) ? 0.9 : 0.6;
      if (isCacheHeader(l)) return fields(next).length === fields(l).length ? 0.9 : 0.55;
      if (/^(Architecture|架构|Architektur)\s*[:：]/.test(l)) arch = true;
      else if (/^(CPU\(s\)|CPU)\s*[:：]\s*\d+\s*$/.test(l)) cpus = true;
      else if (/^(Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|Model name|On-line CPU\(s\) list|每个核的线程数)\s*[:：]/.test(l)) other = true;
    }
    if (arch && cpus && other) score = 0.95;
    else if (arch && (cpus || other)) score = 0.8;
    if (score === 0 && headCommand(head, LSCPU) !== undefined) score = 0.6;
    return score;
  },
  open: () => new LscpuSink(),
};
