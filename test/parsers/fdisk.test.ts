import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { expectLinear } from './scaling';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

describe('fdisk', () => {
  it('takes linear time on a disk line holding a long run of digits (it took seconds; found by fuzzing)', () => {
    const withDigits = (n: number) => readFileSync(join(__dirname, '../fixtures/captures/fdisk/image-dos.txt'), 'utf8')
      .replace(/^(Disk \S+: )[\d.]+/m, `$1${'9'.repeat(n)}.${'9'.repeat(n)}`);
    expectLinear((n) => { const t = withDigits(n); parseText(t); parseText(t, { kind: 'fdisk' }); }, 2_000, 'fdisk');
    const text = withDigits(15_000);
    parseText(text);
    const c = parseText(text, { kind: 'fdisk' });
    expect(c.kind).toBe('fdisk');
  });

  it('seed capture: disk vda, 53687091200 bytes, 512-byte logical sectors, partition row', () => {
    const c = parseText(fixture('fdisk', 'fdisk-l-vda.txt'));
    expect(c.kind).toBe('fdisk');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.command).toBe('fdisk -l');
    const disks = c.facts.disks as Record<string, unknown>[];
    expect(disks).toHaveLength(1);
    expect(disks[0]).toMatchObject({ name: 'vda', size_bytes: 53687091200, logical_sector_bytes: 512, physical_sector_bytes: 512, sectors: 104857600, label_type: 'dos', identifier: '0x000d64b4' });
    expect(c.metrics).toEqual([{ name: 'disk_size_bytes', value: 53687091200, unit: 'B', labels: { device: 'vda' }, column: 'bytes', lines: [3, 3] }]);
    expect(c.tables!['partitions:vda']).toEqual({ columns: ['Device', 'Boot', 'Start', 'End', 'Blocks', 'Id', 'System'], rows: [['/dev/vda1', '*', 2048, 104857599, 52427776, 83, 'Linux']] });
    expect(c.warnings).toEqual([]);
  });

  it('util-linux 2.38 dos label on an image file: "64 MiB", Boot column optional per row, type with spaces', () => {
    const c = parseText(fixture('fdisk', 'image-dos.txt'));
    expect(c.kind).toBe('fdisk');
    const d = (c.facts.disks as Record<string, unknown>[])[0]!;
    expect(d).toMatchObject({ name: '/tmp/x.img', size_bytes: 67108864, logical_sector_bytes: 512, io_optimal_bytes: 512, size: '64 MiB' });
    const rows = c.tables!['partitions:/tmp/x.img']!.rows;
    expect(rows[1]).toEqual(['/tmp/x.img2', null, 67584, 131071, 63488, '31M', 82, 'Linux swap / Solaris']);
    expect(c.warnings).toEqual([]);
  });

  it('gpt label', () => {
    const c = parseText(fixture('fdisk', 'image-gpt.txt'));
    const d = (c.facts.disks as Record<string, unknown>[])[0]!;
    expect(d).toMatchObject({ size_bytes: 134217728, label_type: 'gpt' });
    expect(c.tables!['partitions:/tmp/y.img']!.columns).toEqual(['Device', 'Start', 'End', 'Sectors', 'Size', 'Type']);
    expect(c.tables!['partitions:/tmp/y.img']!.rows[0]).toEqual(['/tmp/y.img1', 2048, 133119, 131072, '64M', 'Linux filesystem']);
  });

  it('zh_CN wording (labels translated from the seed capture as util-linux zh_CN prints them)', () => {
    const zh = fixture('fdisk', 'fdisk-l-vda.txt')
      .replace('Disk /dev/vda: 53.7 GB, 53687091200 bytes, 104857600 sectors', '磁盘 /dev/vda：53.7 GB, 53687091200 字节，104857600 个扇区')
      .replace('Units = sectors of', 'Units = 扇区 of')
      .replace('Sector size (logical/physical): 512 bytes / 512 bytes', '扇区大小(逻辑/物理)：512 字节 / 512 字节')
      .replace('I/O size (minimum/optimal): 512 bytes / 512 bytes', 'I/O 大小(最小/最佳)：512 字节 / 512 字节')
      .replace('Disk label type: dos', '磁盘标签类型：dos')
      .replace('Disk identifier: 0x000d64b4', '磁盘标识符：0x000d64b4')
      .replace('   Device Boot', '   设备 Boot');
    const c = parseText(zh);
    expect(c.kind).toBe('fdisk');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect((c.facts.disks as Record<string, unknown>[])[0]).toMatchObject({ name: 'vda', size_bytes: 53687091200, logical_sector_bytes: 512, label_type: 'dos', identifier: '0x000d64b4' });
    expect(c.tables!['partitions:vda']!.rows).toHaveLength(1);
    expect(c.warnings).toEqual([]);
  });

  it('several disks with a model line, and a junk line warned about', () => {
    const a = fixture('fdisk', 'fdisk-l-vda.txt');
    const b = fixture('fdisk', 'image-gpt.txt').replace('Units:', 'Disk model: QEMU HARDDISK\nUnits:');
    const c = parseText(a + '\n' + b + '\nsomething odd\n');
    const disks = c.facts.disks as Record<string, unknown>[];
    expect(disks.map((d) => d.name)).toEqual(['vda', '/tmp/y.img']);
    expect(disks[1]!.model).toBe('QEMU HARDDISK');
    expect(c.warnings.length).toBe(1);
  });
});
