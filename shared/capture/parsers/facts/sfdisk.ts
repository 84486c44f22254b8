/**
 * sfdisk (util-linux): `sfdisk -J` (JSON) and `sfdisk -d` (the dump: util-linux ≥ 2.26's headers
 * "label: gpt" … and "node : start=…, size=…, type=…" lines; the older "# partition table of /dev/sda",
 * "Id= 83" form), one disk or several one after another → disks[] facts in the fdisk shape (name,
 * logical_sector_bytes, label_type, identifier; first_lba / last_lba of a GPT) and a partitions table per
 * disk. A dump holds no disk size, so size_bytes is left out. `sfdisk -F` (--list-free, libfdisk's
 * list_freespace in disk-utils/fdisk-list.c): "Unpartitioned space DEV: 42.99 MiB, 45080576 bytes, 11006
 * sectors", the units and sector size lines, then the free ranges (Start End Sectors Size; -q prints only
 * these) → the disk's unpartitioned_bytes / unpartitioned_sectors facts and a free table per disk.
 * `sfdisk -l` prints fdisk -l's layout and is detected as `fdisk`; read here too when the kind is forced.
 */
import type { CaptureParser, FactValue, LineSink, ParseOutput, Table } from '../../types';
import { headCommand, lookupTable } from '../kit';
import { FactsSink } from './common';
import { fdiskParser } from './fdisk';

interface Disk { [k: string]: FactValue; name: string }

/** One partition table as the dump or the JSON gives it. */
interface PartTable {
  device: string | null;
  headers: Map<string, string>;
  parts: Part[];
}
interface Part { node: string | null; start: number | null; sectors: number | null; type: string | null; uuid: string | null; name: string | null; attrs: string | null; bootable: boolean }

/** The headers sfdisk writes (libfdisk's script.c), JSON names beside the dump's. */
const HEADERS = new Set(['label', 'label-id', 'device', 'unit', 'first-lba', 'last-lba', 'table-length', 'grain', 'sector-size']);
const JSON_HEADER = lookupTable({ id: 'label-id', firstlba: 'first-lba', lastlba: 'last-lba', sectorsize: 'sector-size' });

/** sfdisk -F: what it says of a device before its free ranges */
const FREE_HEAD = /^Unpartitioned space (\S(?:.*\S)?): [\d.]+ \S+, (\d+) bytes, (\d+) sectors$/;
const FREE_COLUMNS = /^Start +End +Sectors +Size$/;
/** a free range: start, end, sectors, size ("15M" as printed, or bytes with --bytes) */
const FREE_ROW = /^(\d+) +(\d+) +(\d+) +(\d+(?:\.\d+)?[KMGTPE]?)$/;

/** One device's free space as sfdisk -F lists it. */
interface Free { device: string | null; bytes: number | null; sectors: number | null; unit: number | null; logical: number | null; physical: number | null; rows: FreeRow[]; line: number }
interface FreeRow { start: number; end: number; sectors: number; size: string; line: number }

const MAX_JSON = 8 * 1024 * 1024;
const MAX_LINE = 4096;

/** `name="swap \xc3\xab"`: sfdisk quotes names and escapes bytes as \xNN (UTF-8). */
function unquote(v: string): string {
  const s = v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
  if (!s.includes('\\x')) return s;
  try { return decodeURIComponent(s.replace(/%/g, '%25').replace(/\\x([0-9a-fA-F]{2})/g, '%$1')); } catch { return s; }
}

/** "start=        2048, size=  65536, type=83, name=\"a, b\", bootable" → [key, value][] (commas inside quotes kept). */
export function dumpFields(rest: string): [string, string][] {
  const out: [string, string][] = [];
  let cur = '';
  let quoted = false;
  const push = () => {
    const t = cur.trim();
    cur = '';
    if (t === '') return;
    const eq = t.indexOf('=');
    out.push(eq < 0 ? [t.toLowerCase(), ''] : [t.slice(0, eq).trim().toLowerCase(), t.slice(eq + 1).trim()]);
  };
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) push(); else cur += c;
  }
  push();
  return out;
}

/** sectors × sector size in bytes, when both are known and the product is exact */
const sectorBytes = (sectors: number | null, size: number | null): number | null =>
  sectors !== null && size !== null && Number.isSafeInteger(sectors * size) ? sectors * size : null;

const int = (v: unknown): number | null => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  return /^\d{1,20}$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null;
};

/** "/dev/sda1" → "/dev/sda", "/dev/nvme0n1p2" → "/dev/nvme0n1" (only when no device header says it). */
function deviceOfNode(node: string): string {
  return /\dp\d+$/.test(node) ? node.replace(/p\d+$/, '') : node.replace(/\d+$/, '');
}

class SfdiskSink extends FactsSink {
  private readonly dumps: PartTable[] = [];
  private cur: PartTable | null = null;
  private json: string[] | null = null;
  private jsonChars = 0;
  private jsonFirst = 0;
  private jsonCut = false;
  private nextTry = 0;
  private readonly frees: Free[] = [];
  /** the sfdisk -F device being read; `inRows` once its column header was seen */
  private free: Free | null = null;
  private inRows = false;
  /** sfdisk -l: fdisk's layout, read by fdisk's own sink */
  private list: LineSink | null = null;

  constructor() { super(['sfdisk']); }

  protected read(text: string, lineNo: number): void {
    if (this.list) { this.list.line(text, lineNo); return; }
    if (this.json) { this.addJson(text, lineNo); return; }
    const t = text.trim();
    if (t === '') return;
    if (t.startsWith('{')) { this.json = []; this.jsonFirst = lineNo; this.addJson(text, lineNo); return; }
    if (t.length > MAX_LINE) { this.warn(lineNo, t); return; }
    if (!this.dumps.length && /^Disk \S/.test(t) && t.includes(' bytes')) { this.list = fdiskParser.open(); this.list.line(text, lineNo); return; }
    if (this.freeLine(t, lineNo)) return;
    let m = /^# partition table of (\S+)$/.exec(t);
    if (m) { this.startTable(m[1]!); return; }
    const colon = t.indexOf(' :');
    if (colon > 0 && t.indexOf('=', colon) > 0 && !/\s/.test(t.slice(0, colon))) { this.partLine(t.slice(0, colon), t.slice(colon + 2), lineNo); return; }
    m = /^([a-z][a-z-]*):\s*(\S.*)?$/.exec(t);
    if (m && HEADERS.has(m[1]!)) {
      // a header after partitions (or a second "label:") starts the next disk's dump
      if (!this.cur || this.cur.parts.length || (m[1] === 'label' && this.cur.headers.has('label'))) this.startTable(null);
      this.cur!.headers.set(m[1]!, (m[2] ?? '').trim());
      if (m[1] === 'device') this.cur!.device = (m[2] ?? '').trim() || null;
      return;
    }
    // sfdisk's own messages: "sfdisk: /dev/sdb: does not contain a recognized partition table" says why there is nothing
    if (t.startsWith('sfdisk:')) { this.warnings.push(`line ${lineNo}: ${t.slice(0, 160)}`); return; }
    if (/^(?:Warning|WARNING|Note:|DOS and Linux will interpret)/.test(t)) return;
    this.warn(lineNo, text);
  }

  /** sfdisk -F's lines; false for any other */
  private freeLine(t: string, lineNo: number): boolean {
    const m = FREE_HEAD.exec(t);
    if (m) { this.startFree(m[1]!, int(m[2]), int(m[3]), lineNo); return true; }
    const f = this.free;
    let u: RegExpExecArray | null;
    if (f && !this.inRows && (u = /^Units: sectors of \d+ \* \d+ = (\d+) bytes$/.exec(t))) { f.unit = int(u[1]); return true; }
    if (f && !this.inRows && (u = /^Sector size \(logical\/physical\): (\d+) bytes \/ (\d+) bytes$/.exec(t))) { f.logical = int(u[1]); f.physical = int(u[2]); return true; }
    if (FREE_COLUMNS.test(t)) {
      // -q: the columns alone, one header per device; -F: after its "Unpartitioned space" lines
      if (!f || this.inRows) this.startFree(null, null, null, lineNo);
      this.inRows = true;
      return true;
    }
    const r = this.inRows ? FREE_ROW.exec(t) : null;
    if (!r) return false;
    const start = int(r[1]), end = int(r[2]), sectors = int(r[3]);
    if (start === null || end === null || sectors === null) return false;
    this.free!.rows.push({ start, end, sectors, size: r[4]!, line: lineNo });
    return true;
  }

  private startFree(device: string | null, bytes: number | null, sectors: number | null, line: number): void {
    this.free = { device, bytes, sectors, unit: null, logical: null, physical: null, rows: [], line };
    this.frees.push(this.free);
    this.inRows = false;
  }

  private startTable(device: string | null): void {
    this.cur = { device, headers: new Map(), parts: [] };
    this.dumps.push(this.cur);
  }

  private partLine(node: string, rest: string, lineNo: number): void {
    const p: Part = { node: /^\d+$/.test(node) ? null : node, start: null, sectors: null, type: null, uuid: null, name: null, attrs: null, bootable: false };
    for (const [k, v] of dumpFields(rest)) {
      switch (k) {
        case 'start': p.start = int(v); break;
        case 'size': p.sectors = int(v); break;
        case 'type': case 'id': p.type = v || null; break;
        case 'uuid': p.uuid = v || null; break;
        case 'name': p.name = unquote(v); break;
        case 'attrs': p.attrs = unquote(v); break;
        case 'bootable': p.bootable = true; break;
        default: this.warnings.push(`line ${lineNo}: unknown partition field "${k.slice(0, 40)}"`);
      }
    }
    if ((p.start === null && p.sectors === null) || (rest.includes('start=') && p.start === null) || (rest.includes('size=') && p.sectors === null)) { this.warn(lineNo, `${node} :${rest}`, 'partition'); return; }
    // the old dump lists the empty slots of an MBR: "start= 0, size= 0, Id= 0"
    if (p.sectors === 0 && (p.type === '0' || p.type === null)) return;
    if (!this.cur) this.startTable(null);
    if (!this.cur!.device && p.node) this.cur!.device = deviceOfNode(p.node);
    this.cur!.parts.push(p);
  }

  /** One JSON document per disk; several may follow one another (a loop over disks). */
  private addJson(text: string, lineNo: number): void {
    if (this.jsonCut) return;
    // a new document at the left margin while the one before is complete
    if (text.startsWith('{') && this.json!.length && this.jsonChars >= this.nextTry) {
      const doc = this.parseJson();
      if (doc !== undefined) { this.readJson(doc); this.json = []; this.jsonChars = 0; this.nextTry = 0; this.jsonFirst = lineNo; } else this.nextTry = this.jsonChars * 2;
    }
    this.jsonChars += text.length + 1;
    if (this.jsonChars > MAX_JSON) { this.jsonCut = true; this.warnings.push(`sfdisk -J output over ${MAX_JSON} characters: not read`); return; }
    this.json!.push(text);
    // sfdisk closes its document with "}" at the left margin; after a try that failed, the next waits
    // for the text to double (many such lines cost linear time, not quadratic)
    if (text.startsWith('}') && this.jsonChars >= this.nextTry) {
      const doc = this.parseJson();
      if (doc !== undefined) { this.readJson(doc); this.json = null; this.jsonChars = 0; this.nextTry = 0; } else this.nextTry = this.jsonChars * 2;
    }
  }

  private parseJson(): unknown {
    try { return JSON.parse(this.json!.join('\n')); } catch { return undefined; }
  }

  private readJson(doc: unknown): void {
    const pt = (doc as { partitiontable?: unknown } | null)?.partitiontable;
    if (!pt || typeof pt !== 'object' || Array.isArray(pt)) { this.warnings.push(`line ${this.jsonFirst}: sfdisk -J output without "partitiontable"`); return; }
    const o = pt as Record<string, unknown>;
    const table: PartTable = { device: typeof o.device === 'string' ? o.device : null, headers: new Map(), parts: [] };
    for (const [k, v] of Object.entries(o)) {
      if (k === 'partitions') continue;
      const key = JSON_HEADER[k] ?? k;
      if (typeof v === 'string' || typeof v === 'number') table.headers.set(key, String(v));
    }
    const parts = Array.isArray(o.partitions) ? o.partitions : [];
    for (const x of parts) {
      if (!x || typeof x !== 'object') continue;
      const q = x as Record<string, unknown>;
      const str = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
      table.parts.push({
        node: str(q.node), start: int(q.start), sectors: int(q.size), type: str(q.type), uuid: str(q.uuid), name: str(q.name),
        attrs: str(q.attrs), bootable: q.bootable === true,
      });
    }
    if (!table.device && table.parts[0]?.node) table.device = deviceOfNode(table.parts[0].node);
    this.dumps.push(table);
    this.cur = null;
  }

  protected override finish(): void {
    if (this.list) { this.merge(this.list.end()); return; }
    if (this.json && this.json.length && !this.jsonCut) {
      const doc = this.parseJson();
      if (doc === undefined) this.warnings.push(`line ${this.jsonFirst}: could not read sfdisk -J output (not valid JSON, truncated?)`); else this.readJson(doc);
    }
    const disks: Disk[] = [];
    const tables: Record<string, Table> = {};
    for (const t of this.dumps) {
      const h = t.headers;
      const name = (t.device ?? h.get('device') ?? '').replace(/^\/dev\//, '');
      if (!name && !t.parts.length && !h.size) continue;
      const d: Disk = { name };
      const sector = int(h.get('sector-size'));
      if (sector !== null) d.logical_sector_bytes = sector;
      if (h.get('label')) d.label_type = h.get('label')!;
      if (h.get('label-id')) d.identifier = h.get('label-id')!;
      for (const [k, fact] of [['first-lba', 'first_lba'], ['last-lba', 'last_lba'], ['table-length', 'partition_entries'], ['grain', 'grain_bytes']] as const) {
        const v = int(h.get(k));
        if (v !== null) d[fact] = v;
      }
      d.partitions = t.parts.length;
      disks.push(d);
      if (t.parts.length) {
        tables[`partitions:${name}`] = {
          columns: ['node', 'start', 'end', 'sectors', 'bytes', 'type', 'uuid', 'name', 'attrs', 'bootable'],
          rows: t.parts.map((p) => [
            p.node, p.start, p.start !== null && p.sectors !== null && p.sectors > 0 ? p.start + p.sectors - 1 : null, p.sectors,
            sectorBytes(p.sectors, sector),
            p.type, p.uuid, p.name, p.attrs, p.bootable ? 1 : 0,
          ]),
        };
      }
    }
    this.finishFree(disks, tables);
    if (disks.length) this.facts.disks = disks;
    if (Object.keys(tables).length) this.tables = tables;
  }

  /**
   * sfdisk -F's devices: their free space as facts of the disk (one the dump or JSON also gave, else a
   * new one) and their ranges as a table. Bytes are sectors × the unit; with -q, which prints no unit,
   * only --bytes' sizes (plain numbers) are bytes.
   */
  private finishFree(disks: Disk[], tables: Record<string, Table>): void {
    this.frees.forEach((f, i) => {
      const name = (f.device ?? '').replace(/^\/dev\//, '');
      let d = name ? disks.find((x) => x.name === name) : undefined;
      if (!d) { d = { name }; disks.push(d); }
      const unit = f.unit ?? f.logical;
      if (f.logical !== null) d.logical_sector_bytes = f.logical;
      if (f.physical !== null) d.physical_sector_bytes = f.physical;
      const summed = f.rows.reduce((a, r) => a + r.sectors, 0);
      const sectors = f.sectors ?? summed;
      d.unpartitioned_sectors = sectors;
      const bytes = f.bytes ?? sectorBytes(sectors, unit);
      if (bytes !== null) d.unpartitioned_bytes = bytes;
      d.free_ranges = f.rows.length;
      const bytesOf = (r: FreeRow): number | null => sectorBytes(r.sectors, unit) ?? (/^\d+$/.test(r.size) ? int(r.size) : null);
      const key = name ? `free:${name}` : this.frees.length > 1 ? `free:${i + 1}` : 'free';
      tables[key] = {
        columns: ['start', 'end', 'sectors', 'bytes', 'size', 'line'],
        rows: f.rows.map((r) => [r.start, r.end, r.sectors, bytesOf(r), r.size, r.line]),
      };
      if (f.sectors !== null && f.rows.length && summed !== f.sectors) {
        this.warnings.push(`line ${f.line}: the free ranges of ${name || 'the device'} add up to other than the ${f.sectors} sectors sfdisk says`);
      }
    });
  }

  /** what fdisk's sink read of `sfdisk -l` */
  private merge(o: ParseOutput): void {
    Object.assign(this.facts, o.facts);
    this.metrics.push(...o.metrics);
    this.warnings.push(...o.warnings);
    if (o.tables) this.tables = o.tables;
  }
}

export const sfdiskParser: CaptureParser = {
  id: 'sfdisk',
  title: 'sfdisk -J / -d / -F',
  // sfdisk -l is fdisk's (fdisk.ts); sfdisk without these writes a table and prints what it did
  commands: [{ program: 'sfdisk', args: /(?:^|\s)(?:-[a-zA-Z]*[JdF][a-zA-Z]*|--json|--dump|--list-free)(?:\s|=|$)/ }],
  detect(head) {
    const n = Math.min(head.length, 200);
    let label = false, unit = false, old = false, part = false, freeCols = false, freeRows = 0;
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (l.length > MAX_LINE) continue;
      if (/^\s*"partitiontable"\s*:\s*\{/.test(l)) return 0.97;
      if (FREE_HEAD.test(l)) return 0.95;
      if (FREE_COLUMNS.test(l.trim())) freeCols = true;
      else if (freeCols && FREE_ROW.test(l.trim())) freeRows++;
      if (/^label:\s*(?:dos|gpt|sun|sgi|bsd)\s*$/.test(l)) label = true;
      else if (/^unit:\s*sectors\s*$/.test(l)) unit = true;
      else if (/^# partition table of \S+$/.test(l)) old = true;
      else if (/^\S+\s+:\s*start=\s*\d+,\s*size=\s*\d+/.test(l)) part = true;
    }
    if ((label || old) && (unit || part)) return 0.95;
    if (part) return 0.9;
    const prompt = headCommand(head, ['sfdisk']) !== undefined ? 0.5 : 0;
    // sfdisk -F -q: the free ranges' columns and rows alone
    return Math.max(prompt, label || old ? 0.4 : 0, freeCols && freeRows ? 0.6 : 0);
  },
  open: () => new SfdiskSink(),
};
