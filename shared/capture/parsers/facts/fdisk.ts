/**
 * fdisk -l (util-linux 2.2x–2.4x and the older "53.7 GB, … bytes" layout, zh_CN wording) → disks[]
 * facts, disk_size_bytes metrics and a partitions table. `sfdisk -l` prints the same layout and reads
 * the same (its command line is kept).
 */
import type { CaptureParser, FactValue } from '../../types';
import { fields, headCommand, metric } from '../kit';
import { FactsSink } from './common';

interface Disk { [k: string]: FactValue; name: string }

const DISK = /^(?:Disk|磁盘|Festplatte|Disque|Disco)\s+(\S+?)\s*[:：]\s*(.*)$/;

class FdiskSink extends FactsSink {
  private readonly disks: Disk[] = [];
  private cur: Disk | null = null;
  private header: string[] | null = null;
  private readonly partTables: Record<string, { columns: string[]; rows: (string | number | null)[][] }> = {};

  // sfdisk -l prints the same layout (libfdisk's)
  constructor() { super(['fdisk', 'sfdisk']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') { this.header = null; return; }
    let m = /^(?:Disk (?:identifier|model|label type)|Disklabel type|磁盘标识符|磁盘型号|磁盘标签类型)/.test(t) ? null : DISK.exec(t);
    if (m && /\d/.test(m[2]!)) {
      const path = m[1]!;
      const rest = m[2]!;
      const bytes = /(?<!\d)(\d+)\s*(?:bytes|字节|Bytes|octets|bytes)/.exec(rest);
      const d: Disk = { name: path.replace(/^\/dev\//, '') };
      if (bytes) d.size_bytes = Number(bytes[1]);
      const sectors = /(?<!\d)(\d+)\s*(?:sectors|个扇区|Sektoren|secteurs|sectores)/.exec(rest);
      if (sectors) d.sectors = Number(sectors[1]);
      const human = /^([\d.,]+\s*[KMGTP]i?B)/.exec(rest);
      if (human) d.size = human[1]!;
      this.disks.push(d);
      this.cur = d;
      this.header = null;
      if (d.size_bytes !== undefined) this.metrics.push(metric('disk_size_bytes', d.size_bytes as number, 'B', { labels: { device: d.name }, column: 'bytes', lines: lineNo }));
      else this.warn(lineNo, text, 'disk size');
      return;
    }
    const cur = this.cur;
    if (/^Disk model\s*[:：]/.test(t) || /^磁盘型号/.test(t)) { if (cur) cur.model = t.slice(t.search(/[:：]/) + 1).trim(); return; }
    m = /^(?:Sector size|扇区大小|Sektorgröße).*?[:：]\s*(\d+)\s*\S+\s*\/\s*(\d+)/.exec(t);
    if (m) { if (cur) { cur.logical_sector_bytes = Number(m[1]); cur.physical_sector_bytes = Number(m[2]); } return; }
    m = /^(?:I\/O size|I\/O 大小|E\/A-Größe).*?[:：]\s*(\d+)\s*\S+\s*\/\s*(\d+)/.exec(t);
    if (m) { if (cur) { cur.io_min_bytes = Number(m[1]); cur.io_optimal_bytes = Number(m[2]); } return; }
    m = /^(?:Units|单元|Einheiten)\s*[:：=]?.*?=\s*(\d+)\s*\S+$/.exec(t);
    if (m) { if (cur && cur.logical_sector_bytes === undefined) cur.unit_bytes = Number(m[1]); return; }
    m = /^(?:Disklabel type|Disk label type|磁盘标签类型|Festplattenbezeichnungstyp)\s*[:：]\s*(\S+)/.exec(t);
    if (m) { if (cur) cur.label_type = m[1]!; return; }
    m = /^(?:Disk identifier|磁盘标识符|Festplattenbezeichner)\s*[:：]\s*(\S+)/.exec(t);
    if (m) { if (cur) cur.identifier = m[1]!; return; }
    if (/^\d+ heads, \d+ sectors\/track, \d+ cylinders/.test(t)) return;
    if (/^(Device|设备|Gerät|Périphérique|Dispositivo)\s+/.test(t)) { this.header = fields(t); return; }
    if (/^(Partition \d|Partition table entries|The backup GPT|GPT PMBR|Warning|WARNING|fdisk:|Note:|The primary GPT)/i.test(t) || /doesn't contain a valid partition table/.test(t)) return;
    if (this.header && cur) { this.partition(t, lineNo); return; }
    this.warn(lineNo, text);
  }

  private partition(t: string, lineNo: number): void {
    const h = this.header!;
    const f = fields(t);
    const hasBoot = h[1] === 'Boot' || h[1] === '启动' ;
    const cells: (string | number | null)[] = [f[0] ?? null];
    let i = 1;
    if (hasBoot) {
      if (f[1] === '*') { cells.push('*'); i = 2; } else cells.push(null);
    }
    const numericCols = h.length - (hasBoot ? 2 : 1) - 1; // everything up to the last (Type/System) column
    for (let k = 0; k < numericCols; k++, i++) {
      const v = f[i];
      if (v === undefined) { this.warn(lineNo, t, 'partition row'); return; }
      const n = Number(v.replace(/\+$/, ''));
      cells.push(/^\d+\+?$/.test(v) ? n : v);
    }
    cells.push(f.slice(i).join(' ') || null);
    const key = 'partitions:' + this.cur!.name;
    (this.partTables[key] ??= { columns: h.slice(), rows: [] }).rows.push(cells);
  }

  protected override finish(): void {
    if (this.disks.length) this.facts.disks = this.disks;
    if (Object.keys(this.partTables).length) this.tables = this.partTables;
  }
}

export const fdiskParser: CaptureParser = {
  id: 'fdisk',
  title: 'fdisk -l',
  commands: [{ program: 'fdisk' }, { program: 'sfdisk', args: /(?:^|\s)(?:-[a-zA-Z]*l[a-zA-Z]*|--list)(?:\s|=|$)/ }],
  detect(head) {
    let disk = false, sector = false;
    const n = Math.min(head.length, 300);
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (DISK.test(l.trim()) && /(?<!\d)\d+\s*(bytes|字节)/.test(l)) disk = true;
      else if (/^(Sector size \(logical\/physical\)|扇区大小\(逻辑\/物理\))/.test(l.trim())) sector = true;
    }
    if (disk && sector) return 0.95;
    if (disk) return 0.8;
    if (headCommand(head, ['fdisk']) !== undefined) return 0.5;
    return 0;
  },
  open: () => new FdiskSink(),
};
