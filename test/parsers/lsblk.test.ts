import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { lsblkSize } from '../../shared/capture/parsers/facts/lsblk';
import type { ParsedCapture } from '../../shared/capture/types';

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/captures/lsblk', name), 'utf8');
type JcRow = Record<string, string | number | boolean | null>;
const jc = (name: string) => JSON.parse(fixture(name + '.jc.json')) as JcRow[];

function table(c: ParsedCapture): Record<string, string | number | null>[] {
  const t = c.tables!.devices!;
  return t.rows.map((r) => Object.fromEntries(t.columns.map((col, i) => [col, r[i]!])));
}

/** Every row jc reads, Tunebook reads the same: name, size, type, mountpoint, sectors, rotation. */
function compareWithJc(name: string): ParsedCapture {
  const c = parseText(fixture(name + '.txt'));
  expect(c.kind).toBe('lsblk');
  expect(c.confidence).toBeGreaterThanOrEqual(0.9);
  expect(c.warnings).toEqual([]);
  const rows = table(c);
  const ref = jc(name);
  expect(rows.map((r) => r.NAME)).toEqual(ref.map((r) => r.name));
  ref.forEach((r, i) => {
    const row = rows[i]!;
    expect(String(row.SIZE)).toBe(r.size);
    expect(row.TYPE).toBe(r.type);
    const mp = r.mountpoints ?? r.mountpoint ?? null;
    expect(row.MOUNTPOINTS ?? row.MOUNTPOINT ?? null).toBe(mp);
    if (r.phy_sec !== undefined) expect(row['PHY-SEC']).toBe(r.phy_sec);
    if (r.log_sec !== undefined) expect(row['LOG-SEC']).toBe(r.log_sec);
    if (r.rota !== undefined) expect(row.ROTA).toBe(r.rota ? 1 : 0);
    // disks[] in the fdisk shape (zram, a RAM disk, is left out of the hardware disks)
    if (r.type === 'disk' && !/^zram/.test(String(r.name))) {
      const d = (c.facts.disks as Record<string, unknown>[]).find((x) => x.name === r.name)!;
      expect(d.size_bytes).toBe(lsblkSize(String(r.size)));
      if (r.log_sec !== undefined) expect(d.logical_sector_bytes).toBe(r.log_sec);
      if (r.phy_sec !== undefined) expect(d.physical_sector_bytes).toBe(r.phy_sec);
      if (r.rota !== undefined) expect(d.kind).toBe(r.rota ? 'hdd' : 'ssd');
    }
  });
  return c;
}

describe('lsblk', () => {
  it('plain lsblk, -l, -b and -o … agree with jc --lsblk', () => {
    for (const n of ['lsblk', 'lsblk-l', 'lsblk-b', 'lsblk-o']) compareWithJc(n);
  });

  it('-b gives bytes; human sizes are binary units', () => {
    expect(parseText(fixture('lsblk-b.txt')).facts.disks).toEqual([{ name: 'vda', size_bytes: 274877906944, removable: false }]);
    expect(lsblkSize('256G')).toBe(256 * 1024 ** 3);
    expect(lsblkSize('931.5G')).toBe(Math.round(931.5 * 1024 ** 3));
    expect(lsblkSize('931,5G')).toBe(Math.round(931.5 * 1024 ** 3));
    expect(lsblkSize('0B')).toBe(0);
    expect(lsblkSize('512')).toBe(512);
  });

  it('-J and -b -J read as the text forms do (checked against lsblk\'s own JSON)', () => {
    for (const [json, text] of [['lsblk-J', 'lsblk'], ['lsblk-b-J', 'lsblk-b'], ['lsblk-J-o', 'lsblk-o']] as const) {
      const j = parseText(fixture(json + '.txt'));
      expect(j.kind).toBe('lsblk');
      expect(j.confidence).toBeGreaterThanOrEqual(0.9);
      expect(j.warnings).toEqual([]);
      const t = parseText(fixture(text + '.txt'));
      expect(j.facts.disks).toEqual(t.facts.disks);
      expect(j.tables).toEqual(t.tables);
      const ref = (JSON.parse(fixture(json + '.txt')) as { blockdevices: JcRow[] }).blockdevices;
      expect(table(j).map((r) => r.NAME)).toEqual(ref.map((r) => r.name));
    }
    const o = parseText(fixture('lsblk-J-o.txt'));
    expect(o.facts.disks).toEqual([{ name: 'vda', size_bytes: 256 * 1024 ** 3, size: '256G', logical_sector_bytes: 512, physical_sector_bytes: 4096, rotational: true, kind: 'hdd' }]);
  });

  it('the tree: partitions and LVM volumes get their parent; only disks become disks[]', () => {
    const tree = [
      'NAME        MAJ:MIN RM   SIZE RO TYPE MOUNTPOINTS',
      'sda           8:0    0 931.5G  0 disk ',
      '├─sda1        8:1    0   512M  0 part /boot/efi',
      '└─sda2        8:2    0   931G  0 part ',
      '  ├─vg-root 253:0    0    50G  0 lvm  /',
      '  └─vg-home 253:1    0   881G  0 lvm  /home',
      'nvme0n1     259:0    0 476.9G  0 disk ',
      '└─nvme0n1p1 259:1    0 476.9G  0 part /data',
    ].join('\n');
    const c = parseText(tree);
    expect(c.kind).toBe('lsblk');
    expect(c.warnings).toEqual([]);
    expect((c.facts.disks as { name: string }[]).map((d) => d.name)).toEqual(['sda', 'nvme0n1']);
    const rows = table(c);
    expect(rows.map((r) => [r.NAME, r.parent, r.MOUNTPOINTS])).toEqual([
      ['sda', null, null], ['sda1', 'sda', '/boot/efi'], ['sda2', 'sda', null], ['vg-root', 'sda2', '/'], ['vg-home', 'sda2', '/home'],
      ['nvme0n1', null, null], ['nvme0n1p1', 'nvme0n1', '/data'],
    ]);
    expect(c.metrics.find((m) => m.labels?.device === 'vg-root')).toBeUndefined();
    // the JSON form with children reads the same
    const json = JSON.stringify({ blockdevices: [{ name: 'sda', size: '931.5G', type: 'disk', rota: '1', children: [{ name: 'sda1', size: '512M', type: 'part', mountpoints: ['/boot/efi'] }] }] }, null, 3);
    const j = parseText(json);
    expect(j.kind).toBe('lsblk');
    expect(j.facts.disks).toEqual([{ name: 'sda', size_bytes: Math.round(931.5 * 1024 ** 3), size: '931.5G', rotational: true, kind: 'hdd' }]);
    expect(table(j)[1]).toMatchObject({ NAME: 'sda1', parent: 'sda', MOUNTPOINTS: '/boot/efi' });
  });

  it('broken JSON is warned about, not thrown', () => {
    const c = parseText('{\n   "blockdevices": [\n      {"name": "sda"');
    expect(c.kind).toBe('lsblk');
    expect(c.warnings.join('\n')).toMatch(/could not read lsblk -J output/);
  });
});
