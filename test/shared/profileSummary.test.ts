import { describe, expect, it } from 'vitest';
import type { Disk, HardwareProfile } from '../../shared/model';
import { diskSummary, memoryShort, profileSummary } from '../../shared/profileSummary';

const GiB = 2 ** 30;

const profile = (patch: Partial<HardwareProfile> = {}): HardwareProfile => ({
  id: 1, name: 'vm', cpuModel: '', cores: null, threads: null, memoryBytes: null, disks: [],
  os: '', kernel: '', cloud: '', software: '', notes: '', usedBy: 0, ...patch,
});
const disk = (patch: Partial<Disk> = {}): Disk => ({
  name: 'vda', sizeBytes: 50 * GiB, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual', ...patch,
});

describe('profileSummary', () => {
  it('reads like the way people describe a machine', () => {
    expect(profileSummary(profile({ cores: 4, threads: 4, memoryBytes: 8 * GiB, disks: [disk()], os: 'CentOS 7' })))
      .toBe('4C/8G · vda 50 GiB, 512 B sectors, 4 KiB blocks · CentOS 7');
  });

  it('shows threads only when they differ from the cores, and either alone', () => {
    expect(profileSummary(profile({ cores: 4, threads: 8, memoryBytes: 16 * GiB }))).toBe('4C8T/16G');
    expect(profileSummary(profile({ cores: 2 }))).toBe('2C');
    expect(profileSummary(profile({ threads: 8 }))).toBe('8T');
    expect(profileSummary(profile({ memoryBytes: 8 * GiB }))).toBe('8G');
  });

  it('rounds memory to one decimal, binary units unless it was given in decimal ones', () => {
    expect(memoryShort(8 * GiB)).toBe('8G');
    expect(memoryShort(Math.round(7.8 * GiB))).toBe('7.8G');
    expect(memoryShort(7.84 * GiB)).toBe('7.8G');
    expect(memoryShort(8e9)).toBe('8G'); // typed as 8 GB
    expect(memoryShort(8e9 + 12345)).toBe('7.5G');
    expect(memoryShort(512 * 2 ** 20)).toBe('512M');
    expect(memoryShort(1.5 * 2 ** 40)).toBe('1.5T');
  });

  it('describes disks with size, kind, sectors and blocks, leaving out what is unknown', () => {
    expect(diskSummary(disk({ name: 'nvme0n1', sizeBytes: 2 ** 40, kind: 'nvme', physicalSectorBytes: 4096 })))
      .toBe('nvme0n1 1 TiB NVMe, 512 B/4 KiB sectors, 4 KiB blocks');
    expect(diskSummary(disk({ logicalSectorBytes: null, physicalSectorBytes: null, blockBytes: null }))).toBe('vda 50 GiB');
    expect(diskSummary(disk({ name: '', sizeBytes: null, logicalSectorBytes: null }))).toBe('512 B sectors, 4 KiB blocks');
    expect(profileSummary(profile({ disks: [disk(), disk({ name: 'vdb', sizeBytes: 200 * GiB, kind: 'ssd' })] })))
      .toBe('vda 50 GiB, 512 B sectors, 4 KiB blocks · vdb 200 GiB SSD, 512 B sectors, 4 KiB blocks');
  });

  it('leaves out missing fields without stray separators', () => {
    expect(profileSummary(profile())).toBe('');
    expect(profileSummary(profile({ os: 'Ubuntu 22.04' }))).toBe('Ubuntu 22.04');
    expect(profileSummary(profile({ cores: 2, os: '  ' }))).toBe('2C');
    expect(profileSummary(profile({ cores: 0, threads: 0, memoryBytes: 0, os: 'CentOS 7' }))).toBe('CentOS 7');
    const s = profileSummary(profile({ cores: 4, disks: [disk({ name: '', sizeBytes: null, logicalSectorBytes: null, physicalSectorBytes: null, blockBytes: null })], os: 'CentOS 7' }));
    expect(s).toBe('4C · CentOS 7');
    expect(s).not.toMatch(/· ·|^ ·|· $|, ,|\/$/);
  });
});
