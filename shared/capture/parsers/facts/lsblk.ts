/**
 * lsblk (util-linux): the tree (├─/└─, or `-i` ASCII), `-l` list, `-b` bytes, any `-o` columns, and
 * `-J` JSON (also `-b -J`; old lsblk printing every value as a string) → disks[] facts in the fdisk
 * shape (name, size_bytes, logical/physical_sector_bytes, rotational + kind when ROTA is shown),
 * disk_size_bytes metrics and a `devices` table of every row (partitions, mountpoints).
 */
import type { CaptureParser, FactValue } from '../../types';
import { headCommand, metric, textRecord } from '../kit';
import { FactsSink } from './common';

interface Disk { [k: string]: FactValue; name: string }
type Cell = string | number | null;

/** Columns lsblk prints (upper case in text mode, lower case in JSON). */
const KNOWN = new Set([
  'NAME', 'KNAME', 'PATH', 'MAJ:MIN', 'FSAVAIL', 'FSSIZE', 'FSTYPE', 'FSUSED', 'FSUSE%', 'FSROOTS', 'FSVER', 'MOUNTPOINT', 'MOUNTPOINTS',
  'LABEL', 'UUID', 'PTUUID', 'PTTYPE', 'PARTTYPE', 'PARTTYPENAME', 'PARTLABEL', 'PARTUUID', 'PARTFLAGS', 'RA', 'RO', 'RM', 'HOTPLUG',
  'MODEL', 'SERIAL', 'SIZE', 'STATE', 'OWNER', 'GROUP', 'MODE', 'ALIGNMENT', 'MIN-IO', 'OPT-IO', 'PHY-SEC', 'LOG-SEC', 'ROTA', 'SCHED',
  'RQ-SIZE', 'TYPE', 'DISC-ALN', 'DISC-GRAN', 'DISC-MAX', 'DISC-ZERO', 'WSAME', 'WWN', 'RAND', 'PKNAME', 'HCTL', 'TRAN', 'SUBSYSTEMS',
  'REV', 'VENDOR', 'ZONED', 'DAX', 'ID-LINK', 'ID', 'DISK-SEQ', 'START', 'ZONE-SZ', 'ZONE-WGRAN', 'ZONE-APP', 'ZONE-NR', 'ZONE-OMAX', 'ZONE-AMAX',
]);

const MAX_JSON = 8 * 1024 * 1024;

/** "256G", "931.5G", "931,5G", "0B", "512" (bytes, -b) → bytes; lsblk's units are binary. */
export function lsblkSize(s: string): number {
  const m = /^(\d+(?:[.,]\d+)?)([BKMGTPE]?)(?:iB)?$/.exec(s.trim());
  if (!m) return NaN;
  const p = m[2] ? 'BKMGTPE'.indexOf(m[2]) : 0;
  return Math.round(Number(m[1]!.replace(',', '.')) * 1024 ** p);
}

function isHeader(t: string): boolean {
  const f = t.trim().split(/\s+/);
  if (f.length < 2 || f[0] !== 'NAME' && f[0] !== 'KNAME' && f[0] !== 'PATH') return false;
  if (!f.every((x) => KNOWN.has(x))) return false;
  return f.includes('MAJ:MIN') || f.includes('SIZE') || f.includes('TYPE');
}

const TREE = /^[\s│├└─|`-]*/;

class LsblkSink extends FactsSink {
  private header: { name: string; start: number; end: number }[] | null = null;
  private json: string[] | null = null;
  private jsonChars = 0;
  private jsonCut = false;
  private readonly rows: Cell[][] = [];
  private columns: string[] = [];
  private readonly stack: { depth: number; name: string }[] = [];
  private readonly disks: Disk[] = [];

  constructor() { super(['lsblk']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (this.json) { this.addJson(text); return; }
    if (t === '') return;
    if (!this.header && !this.rows.length && t.startsWith('{')) { this.json = []; this.addJson(text); return; }
    if (isHeader(text)) {
      this.header = [];
      const re = /\S+/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) this.header.push({ name: m[0], start: m.index, end: m.index + m[0].length });
      if (!this.columns.length) this.columns = [...this.header.map((h) => h.name), 'parent'];
      this.stack.length = 0;
      return;
    }
    if (!this.header) { this.warn(lineNo, text); return; }
    this.textRow(text, lineNo);
  }

  private addJson(text: string): void {
    if (this.jsonCut) return;
    this.jsonChars += text.length + 1;
    if (this.jsonChars > MAX_JSON) { this.jsonCut = true; this.warnings.push(`lsblk -J output over ${MAX_JSON} characters: not read`); return; }
    this.json!.push(text);
  }

  private textRow(text: string, lineNo: number): void {
    const h = this.header!;
    const cells: string[][] = h.map(() => []);
    const depth = TREE.exec(text)![0].length;
    const nm = /\S+/y;
    nm.lastIndex = depth;
    const first = nm.exec(text);
    if (!first) { this.warn(lineNo, text, 'lsblk row'); return; }
    cells[0]!.push(first[0]);
    const re = /\S+/g;
    re.lastIndex = depth + first[0].length;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const start = m.index;
      const tok = m[0];
      const end = start + tok.length;
      let best = -1, dist = Infinity;
      for (let j = 1; j < h.length; j++) {
        const c = h[j]!;
        const d = end <= c.start ? c.start - end : start >= c.end ? start - c.end + 1 : 0;
        if (d < dist || (d === dist && d > 0 && j > best)) { dist = d; best = j; }
        if (d === 0) break;
      }
      if (best < 0) { this.warn(lineNo, text, 'lsblk row'); return; }
      cells[best]!.push(tok);
    }
    const name = cells[0]!.join(' ');
    while (this.stack.length && this.stack[this.stack.length - 1]!.depth >= depth) this.stack.pop();
    const parent = this.stack.length ? this.stack[this.stack.length - 1]!.name : null;
    this.stack.push({ depth, name });
    const rec = textRecord<string>();
    h.forEach((c, j) => { if (cells[j]!.length) rec[c.name.toLowerCase()] = cells[j]!.join(' '); });
    this.addRow(rec, parent, lineNo);
  }

  private addRow(rec: Record<string, string | number | boolean | null>, parent: string | null, lineNo?: number): void {
    const str = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));
    this.rows.push(this.columns.map((c) => {
      if (c === 'parent') return parent;
      const v = rec[c.toLowerCase()];
      if (v === undefined || v === null) return null;
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'number') return v;
      return /^\d+$/.test(v) && c !== 'NAME' && c !== 'MAJ:MIN' ? Number(v) : v;
    }));
    const type = str(rec.type);
    const name = str(rec.name) ?? str(rec.kname) ?? str(rec.path);
    if (!name) return;
    const isDisk = type !== null ? type === 'disk' : parent === null && this.header !== null;
    if (!isDisk || /^(?:\/dev\/)?(?:zram|ram)\d/.test(name)) return;
    const d: Disk = { name: name.replace(/^\/dev\//, '') };
    const size = str(rec.size);
    if (size !== null) {
      const b = lsblkSize(size);
      if (Number.isFinite(b)) { d.size_bytes = b; if (!/^\d+$/.test(size)) d.size = size; } else this.warnings.push(`${d.name}: could not read size "${size}"`);
    }
    const int = (v: unknown): number | undefined => { const s = str(v); return s !== null && /^\d+$/.test(s) ? Number(s) : undefined; };
    const log = int(rec['log-sec']); if (log !== undefined) d.logical_sector_bytes = log;
    const phy = int(rec['phy-sec']); if (phy !== undefined) d.physical_sector_bytes = phy;
    const rota = str(rec.rota);
    if (rota === '1' || rota === 'true') { d.rotational = true; d.kind = 'hdd'; } else if (rota === '0' || rota === 'false') { d.rotational = false; d.kind = 'ssd'; }
    const model = str(rec.model); if (model) d.model = model;
    const rm = str(rec.rm); if (rm !== null) d.removable = rm === '1' || rm === 'true';
    this.disks.push(d);
    if (typeof d.size_bytes === 'number') this.metrics.push(metric('disk_size_bytes', d.size_bytes, 'B', { labels: { device: d.name }, column: 'SIZE', lines: lineNo }));
  }

  private readJson(): void {
    let doc: unknown;
    try { doc = JSON.parse(this.json!.join('\n')); } catch (e) { this.warnings.push(`could not read lsblk -J output: ${String(e).slice(0, 120)}`); return; }
    const list = (doc as { blockdevices?: unknown } | null)?.blockdevices;
    if (!Array.isArray(list)) { this.warnings.push('lsblk -J output without "blockdevices"'); return; }
    const cols: string[] = [];
    const collect = (xs: unknown[], depth: number): void => {
      if (depth > 64) return;
      for (const x of xs) {
        if (!x || typeof x !== 'object') continue;
        for (const k of Object.keys(x)) if (k !== 'children' && !cols.includes(k)) cols.push(k);
        const ch = (x as { children?: unknown }).children;
        if (Array.isArray(ch)) collect(ch, depth + 1);
      }
    };
    collect(list, 0);
    this.columns = [...cols.map((c) => c.toUpperCase()), 'parent'];
    const walk = (xs: unknown[], parent: string | null, depth: number): void => {
      if (depth > 64) return;
      for (const x of xs) {
        if (!x || typeof x !== 'object') continue;
        const o = x as Record<string, unknown>;
        const rec = textRecord<string | number | boolean | null>();
        for (const k of cols) {
          const v = o[k];
          if (Array.isArray(v)) { const s = v.filter((y) => y !== null).map(String); rec[k] = s.length ? s.join(',') : null; } else if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') rec[k] = v;
        }
        this.addRow(rec, parent);
        if (Array.isArray(o.children)) walk(o.children, typeof o.name === 'string' ? o.name : null, depth + 1);
      }
    };
    walk(list, null, 0);
  }

  protected override finish(): void {
    if (this.json && !this.jsonCut) this.readJson();
    if (this.disks.length) this.facts.disks = this.disks;
    if (this.rows.length) this.tables = { devices: { columns: this.columns, rows: this.rows } };
  }
}

export const lsblkParser: CaptureParser = {
  id: 'lsblk',
  title: 'lsblk',
  commands: [{ program: 'lsblk' }],
  detect(head) {
    const n = Math.min(head.length, 50);
    let header = false;
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (/^\s*"blockdevices"\s*:\s*\[/.test(l)) return 0.95;
      if (!header && isHeader(l)) { header = true; if (i + 1 < n && head[i + 1]!.trim() !== '') return 0.9; }
    }
    if (header) return 0.7;
    if (headCommand(head, ['lsblk']) !== undefined) return 0.5;
    return 0;
  },
  open: () => new LsblkSink(),
};
