/**
 * mkfs.ext4 / mkfs.ext3 / mkfs.ext2 / mke2fs (e2fsprogs 1.47.0), real runs on image files and a loop
 * device, stdout and stderr together as a terminal shows them (progress counters with their
 * backspaces, one run recorded by script(1) with CRLF). jc 1.22.5 has no mkfs parser: the facts are
 * checked against tune2fs -l of the filesystem mkfs.ext4 had just made, and against the fixture text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText, parserForCommand } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { FACT_KINDS, profileFromCaptures } from '../../shared/profileFromCaptures';

const DIR = join(__dirname, '../fixtures/captures/mke2fs');
const fixture = (name: string) => readFileSync(join(DIR, name), 'utf8');
const mkfs = (name: string) => parseText(fixture(name), { file: name });

describe('mke2fs (mkfs.ext4)', () => {
  it('every real run is read whole, with no warning: the version, block size and count, inodes', () => {
    const names = readdirSync(DIR).filter((f) => f.endsWith('.txt') && !f.endsWith('.cmd.txt'));
    expect(names.length).toBeGreaterThanOrEqual(14);
    for (const name of names) {
      const c = mkfs(name);
      expect(c.kind, name).toBe('mke2fs');
      expect(c.confidence, name).toBeGreaterThanOrEqual(0.9);
      expect(c.toolVersion, name).toBe('mke2fs 1.47.0 (5-Feb-2023)');
      expect(c.warnings, name).toEqual([]);
      const m = /Creating filesystem with (\d+) (\d+)k blocks and (\d+) inodes|(\d+) inodes, (\d+) blocks/.exec(fixture(name))!;
      const blocks = Number(m[1] ?? m[5]);
      expect(c.facts.filesystem_block_count, name).toBe(blocks);
      expect(c.facts.filesystem_inode_count, name).toBe(Number(m[3] ?? m[4]));
      if (m[2]) expect(c.facts.filesystem_block_bytes, name).toBe(Number(m[2]) * 1024);
      expect(c.facts.filesystem_size_bytes, name).toBe(blocks * (c.facts.filesystem_block_bytes as number));
      expect(c.metrics.map((x) => x.name), name).toEqual(['filesystem_block_bytes', 'filesystem_size_bytes']);
    }
  });

  it('a 64 MiB image: 1 KiB blocks (the "small" type), UUID, superblock backups, journal', () => {
    const c = mkfs('mkfs-ext4-64M.txt');
    expect(c.facts).toEqual({
      filesystem_block_count: 65536, filesystem_block_bytes: 1024, filesystem_inode_count: 16384,
      filesystem_uuid: '79192527-4c42-4af5-aca4-36c607f5698d', filesystem_superblock_backups: [8193, 24577, 40961, 57345],
      filesystem_has_journal: true, filesystem_journal_blocks: 4096, filesystem_size_bytes: 64 * 1024 ** 2,
    });
    expect(c.metrics[0]).toEqual({ name: 'filesystem_block_bytes', value: 1024, unit: 'B', column: 'Creating filesystem with … blocks', lines: [3, 3] });
  });

  it('-b, -N, -T small, an 8 GiB image, ext3 with -J size=, ext2 without a journal', () => {
    expect(mkfs('mkfs-ext4-b4096-L.txt').facts).toMatchObject({ filesystem_block_bytes: 4096, filesystem_block_count: 16384, filesystem_inode_count: 16384 });
    expect(mkfs('mkfs-ext4-N.txt').facts.filesystem_inode_count).toBe(49984);
    expect(mkfs('mkfs-ext4-T-small.txt').facts).toMatchObject({ filesystem_block_bytes: 1024, filesystem_inode_count: 131072, filesystem_journal_blocks: 16384 });
    const big = mkfs('mkfs-ext4-8G-L.txt');
    expect(big.facts).toMatchObject({ filesystem_block_bytes: 4096, filesystem_block_count: 2097152, filesystem_inode_count: 524288, filesystem_size_bytes: 8 * 1024 ** 3 });
    expect(big.facts.filesystem_superblock_backups).toEqual([32768, 98304, 163840, 229376, 294912, 819200, 884736, 1605632]);
    expect(mkfs('mkfs-ext3-J.txt').facts.filesystem_journal_blocks).toBe(8192);
    const ext2 = mkfs('mkfs-ext2.txt');
    expect(ext2.facts.filesystem_has_journal).toBeUndefined();
    expect(ext2.facts.filesystem_journal_blocks).toBeUndefined();
    expect(mkfs('mkfs-ext4-too-small.txt').facts.filesystem_has_journal).toBe(false);
    // one block group: mke2fs prints neither UUID nor backups
    expect(mkfs('mkfs-ext4-loop-4k.txt').facts.filesystem_uuid).toBeUndefined();
  });

  it('-v: inodes and blocks per group, groups, stride, reserved blocks, the fs type; the same facts as tune2fs -l of that filesystem', () => {
    const c = mkfs('mkfs-ext4-v-L-pair.txt');
    expect(c.facts).toMatchObject({
      filesystem_type: 'ext4', filesystem_usage_types: ['small'], filesystem_volume_name: 'tbdata', filesystem_block_bytes: 1024,
      filesystem_block_count: 262144, filesystem_inode_count: 65536, filesystem_inodes_per_group: 2048, filesystem_blocks_per_group: 8192,
      filesystem_block_groups: 32, filesystem_raid_stride: 16, filesystem_raid_stripe_width: 32, filesystem_reserved_blocks: 13107,
      filesystem_reserved_percent: 5, filesystem_uuid: 'fcbbf63c-e46f-4a0a-83aa-5d4236fd41b7', filesystem_journal_blocks: 8192,
    });
    const t = parseText(readFileSync(join(__dirname, '../fixtures/captures/tune2fs/tune2fs-l-after-mkfs.txt'), 'utf8'));
    expect(t.kind).toBe('tune2fs');
    const shared = Object.keys(t.facts).filter((k) => k in c.facts);
    expect(shared.sort()).toEqual(['filesystem_block_bytes', 'filesystem_block_count', 'filesystem_inode_count', 'filesystem_raid_stride',
      'filesystem_raid_stripe_width', 'filesystem_size_bytes', 'filesystem_type', 'filesystem_uuid', 'filesystem_volume_name']);
    for (const k of shared) expect(c.facts[k], k).toEqual(t.facts[k]);
    expect(Number(t.settings['Inodes per group'])).toBe(c.facts.filesystem_inodes_per_group);
    expect(Number(t.settings['Blocks per group'])).toBe(c.facts.filesystem_blocks_per_group);
    expect(Number(t.settings['Reserved block count'])).toBe(c.facts.filesystem_reserved_blocks);
  });

  it('-v with bigalloc: the cluster size, one group of 524288 blocks', () => {
    expect(mkfs('mkfs-ext4-v-bigalloc.txt').facts).toMatchObject({
      filesystem_block_bytes: 4096, filesystem_cluster_bytes: 65536, filesystem_block_groups: 1, filesystem_blocks_per_group: 524288, filesystem_inodes_per_group: 16384,
    });
  });

  it('recorded by script(1): CRLF, backspaces, an existing filesystem and the answer on the "Proceed anyway?" line', () => {
    const raw = fixture('mkfs-ext4-tty.txt');
    expect(raw).toContain('\r\n');
    expect(raw).toContain('\b');
    const c = mkfs('mkfs-ext4-tty.txt');
    expect(c.facts).toMatchObject({ filesystem_device: '/tmp/mkfs-e2.img', filesystem_previous_type: 'ext2', filesystem_block_bytes: 4096, filesystem_block_count: 8192 });
  });

  it('the device of a new regular file and of a dry run (-n) are read the same as a real run', () => {
    expect(mkfs('mke2fs-new-file.txt').facts.filesystem_device).toBe('/tmp/mkfs-new.img');
    const dry = mkfs('mkfs-ext4-n.txt');
    const real = mkfs('mkfs-ext4-8G-L.txt');
    for (const k of ['filesystem_block_bytes', 'filesystem_block_count', 'filesystem_inode_count', 'filesystem_superblock_backups']) expect(dry.facts[k], k).toEqual(real.facts[k]);
  });

  it('the command line gives what the output does not: device, label, type', () => {
    const c = parseText('root@db1:~# mkfs.ext4 -L data -b 4096 /dev/vdb1\n' + fixture('mkfs-ext4-b4096-L.txt'));
    expect(c.kind).toBe('mke2fs');
    expect(c.command).toBe('mkfs.ext4 -L data -b 4096 /dev/vdb1');
    expect(c.facts).toMatchObject({ filesystem_device: '/dev/vdb1', filesystem_volume_name: 'data', filesystem_type: 'ext4', filesystem_block_bytes: 4096 });
    const t = parseText('$ sudo mke2fs -t ext3 -Lscratch /dev/sdc 2>&1\n' + fixture('mkfs-ext3-J.txt'));
    expect(t.facts).toMatchObject({ filesystem_device: '/dev/sdc', filesystem_volume_name: 'scratch', filesystem_type: 'ext3' });
  });

  it('the commands it declares; a command told from outside (a capture kit\'s manifest) reads as a prompt line', () => {
    for (const cmd of ['mkfs.ext4 /dev/vdb', 'sudo mkfs.ext3 -F x.img', 'mke2fs -t ext4 /dev/sdc', 'mkfs -t ext4 /dev/vdb1']) expect(parserForCommand(cmd)?.id, cmd).toBe('mke2fs');
    expect(parserForCommand('mkfs -t xfs /dev/vdb')).toBeUndefined();
    const c = parseText(fixture('mkfs-ext4-b4096-L.txt'), { context: { command: 'mkfs.ext4 -L data /dev/vdb1' } });
    expect(c.kind).toBe('mke2fs');
    expect(c.facts).toMatchObject({ filesystem_device: '/dev/vdb1', filesystem_volume_name: 'data', filesystem_type: 'ext4' });
  });

  it('-q prints nothing: the prompt line alone says what it was: the device and type', () => {
    const c = parseText('$ mkfs.ext4 -q -F /dev/vdb\n');
    expect(c.kind).toBe('mke2fs');
    expect(c.facts).toEqual({ filesystem_device: '/dev/vdb', filesystem_type: 'ext4' });
  });

  it('lines it cannot read are warnings (mke2fs\'s own errors among them)', () => {
    const c = parseText(fixture('mkfs-ext4-64M.txt') + 'mke2fs: Device size reported to be zero.\n');
    expect(c.warnings).toEqual(['line 13: could not read line: mke2fs: Device size reported to be zero.']);
    expect(c.facts.filesystem_block_bytes).toBe(1024);
  });

  it('fills a hardware profile: the block size goes onto the disk of the device mkfs.ext4 was given', () => {
    expect(FACT_KINDS).toContain('mke2fs');
    const fdisk = toCaptureJson(parseText(readFileSync(join(__dirname, '../fixtures/captures/fdisk/fdisk-l-vda.txt'), 'utf8'), { file: 'fdisk-l-vda.txt' }));
    const mk = toCaptureJson(parseText('[root@7DGroup ~]# mkfs.ext4 /dev/vda1\n' + fixture('mkfs-ext4-8G-L.txt'), { file: 'mkfs.txt' }));
    const r = profileFromCaptures([fdisk, mk]);
    expect(r.patch.disks).toEqual([{ name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }]);
    expect(r.sources['disks.vda.blockBytes']).toBe('mkfs.txt');
  });
});
