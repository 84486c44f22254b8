/**
 * sfdisk -J / -d / -F (util-linux 2.38.1, real partition tables written by sfdisk on image files and on a
 * loop device of 4096-byte sectors). jc 1.22.5's --sfdisk reads `sfdisk -l` and the old (≤ 2.25) `-d`
 * dump but gives [] for the dump of util-linux ≥ 2.26 and has no JSON reader: -J is checked against
 * sfdisk's own -d of the same table and against fdisk's reading of `sfdisk -l` (itself checked against
 * jc --sfdisk); the old dump against jc.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText, parserForCommand } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { FACT_KINDS, profileFromCaptures } from '../../shared/profileFromCaptures';
import type { ParsedCapture } from '../../shared/capture/types';

const fixture = (dir: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', dir, name), 'utf8');
const sfdisk = (name: string) => parseText(fixture('sfdisk', name), { file: name });
type Row = Record<string, string | number | null>;
const rows = (c: ParsedCapture, disk: string): Row[] => {
  const t = c.tables![`partitions:${disk}`]!;
  return t.rows.map((r) => Object.fromEntries(t.columns.map((col, i) => [col, r[i]!])));
};

describe('sfdisk -J and -d', () => {
  it('every real capture is read whole, with no warning, at a confident detection', () => {
    for (const name of ['sfdisk-J-dos.txt', 'sfdisk-d-dos.txt', 'sfdisk-J-gpt.txt', 'sfdisk-d-gpt.txt', 'sfdisk-J-gpt-4k.txt', 'sfdisk-d-gpt-4k.txt', 'sfdisk-J-no-partitions.txt']) {
      const c = sfdisk(name);
      expect(c.kind, name).toBe('sfdisk');
      expect(c.confidence, name).toBeGreaterThanOrEqual(name.includes('-J-') ? 0.97 : 0.95);
      expect(c.warnings, name).toEqual([]);
    }
  });

  it('-J and -d of the same table read the same', () => {
    for (const t of ['dos', 'gpt', 'gpt-4k']) {
      const j = sfdisk(`sfdisk-J-${t}.txt`);
      const d = sfdisk(`sfdisk-d-${t}.txt`);
      expect(j.facts, t).toEqual(d.facts);
      expect(j.tables, t).toEqual(d.tables);
    }
  });

  it('dos: disks[] in the fdisk shape; bootable, extended and logical partitions', () => {
    const c = sfdisk('sfdisk-J-dos.txt');
    expect(c.facts.disks).toEqual([{ name: '/tmp/sfdisk-dos.img', logical_sector_bytes: 512, label_type: 'dos', identifier: '0x5eed0001', partitions: 5 }]);
    expect(rows(c, '/tmp/sfdisk-dos.img')).toEqual([
      { node: '/tmp/sfdisk-dos.img1', start: 2048, end: 67583, sectors: 65536, bytes: 32 * 1024 ** 2, type: '83', uuid: null, name: null, attrs: null, bootable: 1 },
      { node: '/tmp/sfdisk-dos.img2', start: 67584, end: 100351, sectors: 32768, bytes: 16 * 1024 ** 2, type: '82', uuid: null, name: null, attrs: null, bootable: 0 },
      { node: '/tmp/sfdisk-dos.img3', start: 100352, end: 131071, sectors: 30720, bytes: 30720 * 512, type: '5', uuid: null, name: null, attrs: null, bootable: 0 },
      { node: '/tmp/sfdisk-dos.img5', start: 102400, end: 118783, sectors: 16384, bytes: 8 * 1024 ** 2, type: '83', uuid: null, name: null, attrs: null, bootable: 0 },
      { node: '/tmp/sfdisk-dos.img6', start: 120832, end: 131071, sectors: 10240, bytes: 10240 * 512, type: '8e', uuid: null, name: null, attrs: null, bootable: 0 },
    ]);
    // no disk size in a dump: none is made up
    expect((c.facts.disks as Row[])[0]!.size_bytes).toBeUndefined();
    expect(c.metrics).toEqual([]);
  });

  it('gpt: first/last LBA, partition UUIDs, a name with a comma and one with \\xNN escapes, attrs', () => {
    const c = sfdisk('sfdisk-d-gpt.txt');
    expect(c.facts.disks).toEqual([{
      name: '/tmp/sfdisk-gpt.img', logical_sector_bytes: 512, label_type: 'gpt', identifier: '5EED0002-0000-4000-8000-000000000001',
      first_lba: 2048, last_lba: 262110, partitions: 3,
    }]);
    const r = rows(c, '/tmp/sfdisk-gpt.img');
    expect(r.map((x) => x.name)).toEqual(['BIOS boot', 'root, main', 'swap ë']);
    expect(r[1]).toMatchObject({ start: 4096, end: 135167, sectors: 131072, type: '0FC63DAF-8483-4772-8E79-3D69D8477DE4', uuid: 'AD79D728-14B0-DA45-9401-272DCD6129A0', attrs: 'LegacyBIOSBootable' });
    expect(fixture('sfdisk', 'sfdisk-d-gpt.txt')).toContain('name="swap \\xc3\\xab"');
  });

  it('a loop device of 4096-byte sectors: the sector size, a table of 16 entries ("table-length" is a string in -J)', () => {
    const c = sfdisk('sfdisk-J-gpt-4k.txt');
    expect(fixture('sfdisk', 'sfdisk-J-gpt-4k.txt')).toContain('"table-length": "16"');
    expect(c.facts.disks).toEqual([{
      name: 'loop0', logical_sector_bytes: 4096, label_type: 'gpt', identifier: '3241E236-DF73-654E-BE2E-ABB5669CB226',
      first_lba: 256, last_lba: 16381, partition_entries: 16, partitions: 2,
    }]);
    expect(rows(c, 'loop0').map((x) => [x.node, x.start, x.end, x.sectors, x.bytes, x.name])).toEqual([
      ['/dev/loop0p1', 256, 4351, 4096, 16 * 1024 ** 2, 'data'], ['/dev/loop0p2', 4352, 16127, 11776, 11776 * 4096, null],
    ]);
  });

  it('a label without partitions is still a disk', () => {
    const c = sfdisk('sfdisk-J-no-partitions.txt');
    expect(c.facts.disks).toEqual([{ name: '/tmp/sfdisk-empty.img', logical_sector_bytes: 512, label_type: 'dos', identifier: '0x5eed0003', partitions: 0 }]);
    expect(c.tables).toBeUndefined();
  });

  it('agrees with fdisk\'s reading of sfdisk -l of the same image, which agrees with jc --sfdisk', () => {
    for (const [dump, list] of [['sfdisk-J-dos.txt', 'sfdisk-l-dos'], ['sfdisk-J-gpt.txt', 'sfdisk-l-gpt'], ['sfdisk-J-gpt-4k.txt', 'sfdisk-l-gpt-4k']] as const) {
      const l = parseText(fixture('fdisk', list + '.txt'));
      expect(l.kind, list).toBe('fdisk');
      expect(l.warnings, list).toEqual([]);
      const ref = (JSON.parse(fixture('fdisk', list + '.jc.json')) as { disk: string; logical_sector_size: number; disk_label_type: string; disk_identifier: string; bytes: number; partitions: { device: string; start: number; end: number; sectors: number; boot?: boolean }[] }[])[0]!;
      const ld = (l.facts.disks as Row[])[0]!;
      expect(ld).toMatchObject({ logical_sector_bytes: ref.logical_sector_size, label_type: ref.disk_label_type, identifier: ref.disk_identifier, size_bytes: ref.bytes });
      const j = parseText(fixture('sfdisk', dump));
      const jd = (j.facts.disks as Row[])[0]!;
      expect(jd.name).toBe(ld.name);
      expect([jd.logical_sector_bytes, jd.label_type, jd.identifier]).toEqual([ref.logical_sector_size, ref.disk_label_type, ref.disk_identifier]);
      expect(rows(j, String(jd.name)).map((x) => [x.node, x.start, x.end, x.sectors])).toEqual(ref.partitions.map((p) => [p.device, p.start, p.end, p.sectors]));
      if (ref.disk_label_type === 'dos') expect(rows(j, String(jd.name)).map((x) => x.bootable === 1)).toEqual(ref.partitions.map((p) => p.boot === true));
    }
  });

  it('sfdisk -l is fdisk\'s layout: detected as fdisk (its command kept); read the same when sfdisk is forced', () => {
    const text = '$ sudo sfdisk -l /tmp/sfdisk-dos.img\n' + fixture('fdisk', 'sfdisk-l-dos.txt');
    const c = parseText(text);
    expect(c.kind).toBe('fdisk');
    expect(c.command).toBe('sudo sfdisk -l /tmp/sfdisk-dos.img');
    const forced = parseText(text, { kind: 'sfdisk' });
    expect(forced.facts).toEqual(c.facts);
    expect(forced.tables).toEqual(c.tables);
    expect(forced.command).toBe(c.command);
    expect(forced.warnings).toEqual([]);
  });

  it('the old dump (util-linux ≤ 2.25: "# partition table of", Id=, empty MBR slots) agrees with jc --sfdisk', () => {
    // as sfdisk 2.1x printed it (posted on ubuntuforums.org); jc 1.22.5 --sfdisk gives the reference below
    const old = [
      '# partition table of /dev/sda', 'unit: sectors', '',
      '/dev/sda1 : start=       63, size=148183497, Id= 7, bootable',
      '/dev/sda2 : start=148183560, size= 47182905, Id= f',
      '/dev/sda3 : start=189310023, size=  6056442, Id=82',
      '/dev/sda4 : start=        0, size=        0, Id= 0',
      '/dev/sda5 : start=148183686, size= 41126274, Id=83', '',
    ].join('\n');
    const jc = [
      { device: '/dev/sda1', start: 63, size: 148183497, id: '7', boot: true }, { device: '/dev/sda2', start: 148183560, size: 47182905, id: 'f', boot: false },
      { device: '/dev/sda3', start: 189310023, size: 6056442, id: '82', boot: false }, { device: '/dev/sda4', start: 0, size: 0, id: '0', boot: false },
      { device: '/dev/sda5', start: 148183686, size: 41126274, id: '83', boot: false },
    ];
    const c = parseText(old);
    expect(c.kind).toBe('sfdisk');
    expect(c.confidence).toBeGreaterThanOrEqual(0.95);
    expect(c.warnings).toEqual([]);
    expect(c.facts.disks).toEqual([{ name: 'sda', partitions: 4 }]);
    // the empty slot sda4 is no partition
    expect(rows(c, 'sda').map((r) => [r.node, r.start, r.sectors, r.type, r.bootable === 1])).toEqual(
      jc.filter((p) => p.size > 0).map((p) => [p.device, p.start, p.size, p.id, p.boot]));
  });

  it('several disks one after another (a loop over disks), in JSON and as dumps', () => {
    const j = parseText(fixture('sfdisk', 'sfdisk-J-dos.txt') + fixture('sfdisk', 'sfdisk-J-gpt-4k.txt'));
    expect((j.facts.disks as Row[]).map((d) => d.name)).toEqual(['/tmp/sfdisk-dos.img', 'loop0']);
    const d = parseText(fixture('sfdisk', 'sfdisk-d-dos.txt') + '\n' + fixture('sfdisk', 'sfdisk-d-gpt-4k.txt'));
    expect(d.facts).toEqual(j.facts);
    expect(d.tables).toEqual(j.tables);
    expect(d.warnings).toEqual([]);
  });

  it('the commands it declares: -J and -d are sfdisk\'s, -l is fdisk\'s; a command told from outside reads as a prompt line', () => {
    for (const cmd of ['sfdisk -J /dev/vda', 'sudo sfdisk --json /dev/vda', 'sfdisk -d /dev/sda', 'sfdisk --dump /dev/nvme0n1']) expect(parserForCommand(cmd)?.id, cmd).toBe('sfdisk');
    for (const cmd of ['sfdisk -l', 'sfdisk -l /dev/vda', 'sfdisk --list /dev/vda']) expect(parserForCommand(cmd)?.id, cmd).toBe('fdisk');
    expect(parserForCommand('sfdisk /dev/vdb')).toBeUndefined();
    const told = parseText(fixture('sfdisk', 'sfdisk-J-gpt-4k.txt'), { context: { command: 'sfdisk -J /dev/loop0' } });
    expect(told.kind).toBe('sfdisk');
    expect(told.command).toBe('sfdisk -J /dev/loop0');
    expect(told.facts).toEqual(sfdisk('sfdisk-J-gpt-4k.txt').facts);
  });

  it('a prompt line gives the command; /dev/ is dropped from the disk name as fdisk does', () => {
    const text = '[root@db1 ~]# sfdisk -J /dev/loop0\n' + fixture('sfdisk', 'sfdisk-J-gpt-4k.txt');
    const c = parseText(text);
    expect(c.kind).toBe('sfdisk');
    expect(c.command).toBe('sfdisk -J /dev/loop0');
    expect((c.facts.disks as Row[])[0]!.name).toBe('loop0');
  });

  it('what it cannot read is a warning: a junk line, a broken JSON document, sfdisk\'s own error', () => {
    const junk = parseText(fixture('sfdisk', 'sfdisk-d-dos.txt') + 'something odd\n');
    expect(junk.warnings).toEqual(['line 12: could not read line: something odd']);
    expect((junk.facts.disks as Row[])[0]!.partitions).toBe(5);
    const cut = parseText(fixture('sfdisk', 'sfdisk-J-gpt.txt').slice(0, 400));
    expect(cut.kind).toBe('sfdisk');
    expect(cut.warnings.join('\n')).toMatch(/could not read sfdisk -J output/);
    const none = parseText('$ sfdisk -J /dev/vdb\nsfdisk: /dev/vdb: does not contain a recognized partition table\n');
    expect(none.kind).toBe('sfdisk');
    expect(none.warnings).toEqual(['line 2: sfdisk: /dev/vdb: does not contain a recognized partition table']);
    const badField = parseText('label: dos\nunit: sectors\n\n/dev/sdb1 : start=x, size=10, type=83\n');
    expect(badField.warnings).toEqual(['line 4: could not read partition: /dev/sdb1 : start=x, size=10, type=83']);
  });

  it('fills a hardware profile: the sector size from sfdisk, the size from fdisk, the block size from mkfs.ext4', () => {
    expect(FACT_KINDS).toContain('sfdisk');
    const c = (dir: string, name: string) => toCaptureJson(parseText(fixture(dir, name), { file: name }));
    const alone = profileFromCaptures([c('sfdisk', 'sfdisk-J-gpt-4k.txt')]);
    expect(alone.patch.disks).toEqual([{ name: 'loop0', sizeBytes: null, logicalSectorBytes: 4096, physicalSectorBytes: null, blockBytes: null, kind: 'unknown' }]);
    const all = profileFromCaptures([c('sfdisk', 'sfdisk-J-gpt-4k.txt'), c('fdisk', 'sfdisk-l-gpt-4k.txt'), c('mke2fs', 'mkfs-ext4-loop-4k.txt')]);
    expect(all.patch.disks).toEqual([{ name: 'loop0', sizeBytes: 67108864, logicalSectorBytes: 4096, physicalSectorBytes: 4096, blockBytes: 4096, kind: 'unknown' }]);
    expect(all.sources).toMatchObject({ 'disks.loop0': 'sfdisk-J-gpt-4k.txt', 'disks.loop0.blockBytes': 'mkfs-ext4-loop-4k.txt' });
    expect(all.notes.filter((n) => /says/.test(n))).toEqual([]);
  });
});

describe('sfdisk -F (--list-free): the unpartitioned space', () => {
  type Free = { start: number; end: number; sectors: number; bytes: number | null; size: string; line: number };
  const free = (c: ParsedCapture, key: string): Free[] => {
    const t = c.tables![key]!;
    return t.rows.map((r) => Object.fromEntries(t.columns.map((col, i) => [col, r[i]!]))) as Free[];
  };

  it('two disks: each one\'s free space as facts of the disk, and its ranges in bytes (sectors × its unit)', () => {
    const c = sfdisk('sfdisk-F-two-disks.txt');
    expect(c.kind).toBe('sfdisk');
    expect(c.confidence).toBeGreaterThanOrEqual(0.95);
    expect(c.warnings).toEqual([]);
    expect(c.facts.disks).toEqual([
      { name: 'tmp/sfdisk-free-gpt.img', logical_sector_bytes: 512, physical_sector_bytes: 512, unpartitioned_sectors: 1071071, unpartitioned_bytes: 548388352, free_ranges: 1 },
      { name: 'tmp/sfdisk-free-dos.img', logical_sector_bytes: 512, physical_sector_bytes: 512, unpartitioned_sectors: 739968, unpartitioned_bytes: 378863616, free_ranges: 2 },
    ].map((d) => ({ ...d, name: `/${d.name}` })));
    expect(free(c, 'free:/tmp/sfdisk-free-dos.img')).toEqual([
      { start: 206848, end: 399999, sectors: 193152, bytes: 193152 * 512, size: '94.3M', line: 14 },
      { start: 501760, end: 1048575, sectors: 546816, bytes: 546816 * 512, size: '267M', line: 15 },
    ]);
    // what sfdisk says in all is what its ranges add up to
    for (const d of c.facts.disks as Row[]) {
      const rows = free(c, `free:${String(d.name)}`);
      expect(rows.reduce((a, r) => a + r.sectors, 0)).toBe(d.unpartitioned_sectors);
      expect(rows.reduce((a, r) => a + r.bytes!, 0)).toBe(d.unpartitioned_bytes);
    }
  });

  it('-q prints the ranges alone (no device, no unit: bytes unknown); --bytes prints them in bytes', () => {
    const q = sfdisk('sfdisk-F-quiet.txt');
    expect(q.kind).toBe('sfdisk');
    expect(q.warnings).toEqual([]);
    const full = sfdisk('sfdisk-F-two-disks.txt');
    const strip = (rows: Free[]) => rows.map(({ start, end, sectors, size }) => ({ start, end, sectors, size }));
    expect(strip(free(q, 'free:1'))).toEqual(strip(free(full, 'free:/tmp/sfdisk-free-gpt.img')));
    expect(strip(free(q, 'free:2'))).toEqual(strip(free(full, 'free:/tmp/sfdisk-free-dos.img')));
    expect(free(q, 'free:2').map((r) => r.bytes)).toEqual([null, null]);
    // nameless, so no disk of a hardware profile
    expect(profileFromCaptures([toCaptureJson(q)]).patch.disks).toBeUndefined();
    const b = sfdisk('sfdisk-F-bytes.txt');
    expect(free(b, 'free:/tmp/sfdisk-free-dos.img').map((r) => [r.bytes, r.size])).toEqual([[98893824, '98893824'], [279969792, '279969792']]);
  });

  it('a 4096-byte-sector loop device, and a dump then -F of it: one disk with both', () => {
    const f = sfdisk('sfdisk-F-4k.txt');
    expect(f.facts.disks).toEqual([{ name: 'loop0', logical_sector_bytes: 4096, physical_sector_bytes: 4096, unpartitioned_sectors: 11006, unpartitioned_bytes: 45080576, free_ranges: 2 }]);
    expect(free(f, 'free:loop0').map((r) => r.bytes)).toEqual([3840 * 4096, 7166 * 4096]);
    const both = sfdisk('sfdisk-d-then-F-4k.txt');
    expect(both.warnings).toEqual([]);
    expect(both.facts.disks).toEqual([{
      name: 'loop0', logical_sector_bytes: 4096, physical_sector_bytes: 4096, label_type: 'gpt', identifier: expect.any(String),
      first_lba: 256, last_lba: 16381, partition_entries: 16, partitions: 2, unpartitioned_sectors: 11006, unpartitioned_bytes: 45080576, free_ranges: 2,
    }]);
    expect(Object.keys(both.tables!).sort()).toEqual(['free:loop0', 'partitions:loop0']);
    // the free ranges are the gaps between the partitions, up to the last LBA
    const parts = rows(both, 'loop0');
    expect(parts.map((p) => [p.start, p.end])).toEqual([[256, 4351], [8192, 9215]]);
    expect(free(both, 'free:loop0').map((r) => [r.start, r.end])).toEqual([[4352, 8191], [9216, 16381]]);
  });

  it('-F and --list-free are sfdisk\'s; a sum that does not add up is said', () => {
    for (const cmd of ['sfdisk -F', 'sfdisk -F /dev/vda', 'sudo sfdisk --list-free /dev/vda']) expect(parserForCommand(cmd)?.id, cmd).toBe('sfdisk');
    const off = parseText(fixture('sfdisk', 'sfdisk-F-4k.txt').replace(' 4352  8191    3840', ' 4352  8191    3841'));
    expect(off.warnings).toEqual(['line 1: the free ranges of loop0 add up to other than the 11006 sectors sfdisk says']);
  });
});
