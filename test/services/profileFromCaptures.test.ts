/**
 * Fill from captures: the real fixtures through the real parsers (parseText + toCaptureJson, what
 * the back end returns to the renderer), then profileFromCaptures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toCaptureJson } from '../../shared/capture/json';
import type { CaptureJson } from '../../shared/capture/json';
import { parseText } from '../../shared/capture/registry';
import type { HardwareProfileInput } from '../../shared/model';
import { applyProfilePatch, diskKind, diskOfDevice, profileFromCaptures } from '../../shared/profileFromCaptures';

const FIXTURES = join(__dirname, '../fixtures/captures');

/** One fixture, parsed the way the back end does, named by its file like a dropped file. */
function capture(dir: string, name: string): CaptureJson {
  const c = toCaptureJson(parseText(readFileSync(join(FIXTURES, dir, name), 'utf8'), { file: name }));
  expect(c.kind).toBe(dir === 'iostat' ? 'iostat' : dir);
  return c;
}
/** A capture typed in, for the cases no fixture has. */
function pasted(name: string, text: string): CaptureJson {
  return toCaptureJson(parseText(text, { file: name }));
}

const EMPTY: HardwareProfileInput = {
  name: '', cpuModel: '', cores: null, threads: null, memoryBytes: null, disks: [],
  os: '', kernel: '', cloud: '', software: '', notes: '',
};

describe('profileFromCaptures', () => {
  it('case study C seeds: fdisk -l (vda) + tune2fs block size → one virtual disk vda with 4096-byte blocks', () => {
    const r = profileFromCaptures([capture('fdisk', 'fdisk-l-vda.txt'), capture('tune2fs', 'tune2fs-block-size.txt')]);
    expect(r.patch).toEqual({
      disks: [{ name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }],
    });
    expect(r.sources).toEqual({ 'disks.vda': 'fdisk-l-vda.txt', 'disks.vda.blockBytes': 'tune2fs-block-size.txt' });
    expect(r.notes).toEqual([]);
  });

  it('the order of the files does not matter for the block size', () => {
    const r = profileFromCaptures([capture('tune2fs', 'tune2fs-block-size.txt'), capture('fdisk', 'fdisk-l-vda.txt')]);
    expect(r.patch.disks).toEqual([{ name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }]);
  });

  it('lscpu + free + uname + os-release: CPU, cores, threads, memory, kernel, OS, each with its file', () => {
    const r = profileFromCaptures([
      capture('lscpu', 'lscpu.txt'),
      capture('free', 'free.txt'),
      capture('uname', 'uname-a.txt'),
      capture('os-release', 'os-release.txt'),
    ]);
    expect(r.patch).toEqual({
      cpuModel: 'AMD EPYC',
      cores: 2,
      threads: 2,
      memoryBytes: 24684092 * 1024,
      kernel: '6.18.44-fc-v657',
      os: 'Debian GNU/Linux 12 (bookworm)',
    });
    expect(r.sources).toEqual({
      cpuModel: 'lscpu.txt', cores: 'lscpu.txt', threads: 'lscpu.txt',
      memoryBytes: 'free.txt', kernel: 'uname-a.txt', os: 'os-release.txt',
    });
    // lscpu's hypervisor goes to the notes (cloud is left alone); free's unit warning is passed on
    expect(r.patch).not.toHaveProperty('cloud');
    expect(r.notes).toContain('lscpu.txt: hypervisor KVM (full virtualization): a virtual machine. Cloud / instance is left for you to fill in.');
    expect(r.notes.some((n) => n.startsWith('free.txt: ') && /KiB/.test(n))).toBe(true);
    expect(r.notes.some((n) => /wins/.test(n))).toBe(false);
  });

  it('lscpu -J, /proc/cpuinfo and /proc/meminfo agree with the plain captures: no conflict notes', () => {
    const r = profileFromCaptures([
      capture('lscpu', 'lscpu.txt'),
      capture('lscpu', 'lscpu-json.txt'),
      capture('proc-cpuinfo', 'cpuinfo.txt'),
      capture('free', 'free.txt'),
      capture('proc-meminfo', 'meminfo.txt'),
    ]);
    expect(r.patch).toMatchObject({ cpuModel: 'AMD EPYC', cores: 2, threads: 2, memoryBytes: 25276510208 });
    expect(r.sources.cpuModel).toBe('lscpu.txt'); // agreement keeps the first file
    expect(r.notes.some((n) => /wins/.test(n))).toBe(false);
    expect(r.notes.some((n) => n.startsWith('cpuinfo.txt: the CPU has the hypervisor flag') || n.startsWith('lscpu.txt: hypervisor KVM'))).toBe(true);
  });

  it('lsb_release -a gives the OS from its description', () => {
    const r = profileFromCaptures([capture('os-release', 'lsb-release-a.txt')]);
    expect(r.patch).toEqual({ os: 'Debian GNU/Linux 12 (bookworm)' });
    expect(r.sources).toEqual({ os: 'lsb-release-a.txt' });
  });

  it('CentOS 7 os-release → "CentOS Linux 7 (Core)"; a redhat-release line is used as printed', () => {
    const osRelease = pasted('os-release', 'NAME="CentOS Linux"\nVERSION="7 (Core)"\nID="centos"\nID_LIKE="rhel fedora"\nVERSION_ID="7"\nPRETTY_NAME="CentOS Linux 7 (Core)"\nANSI_COLOR="0;31"\n');
    expect(osRelease.kind).toBe('os-release');
    expect(profileFromCaptures([osRelease]).patch).toEqual({ os: 'CentOS Linux 7 (Core)' });
    const release = pasted('redhat-release', 'CentOS Linux release 7.5.1804 (Core)\n');
    expect(release.kind).toBe('os-release');
    expect(profileFromCaptures([release]).patch).toEqual({ os: 'CentOS Linux release 7.5.1804 (Core)' });
  });

  it('when two captures disagree the later one wins, and a note says so', () => {
    // free -h rounds to 23Gi; /proc/meminfo is exact
    const a = profileFromCaptures([capture('free', 'free-h.txt'), capture('proc-meminfo', 'meminfo.txt')]);
    expect(a.patch.memoryBytes).toBe(25276510208);
    expect(a.sources.memoryBytes).toBe('meminfo.txt');
    expect(a.notes).toContain(`Memory: meminfo.txt says 25276510208 bytes, free-h.txt said ${23 * 2 ** 30} bytes; the later capture (meminfo.txt) wins.`);
    const b = profileFromCaptures([capture('proc-meminfo', 'meminfo.txt'), capture('free', 'free-h.txt')]);
    expect(b.patch.memoryBytes).toBe(23 * 2 ** 30);
    expect(b.sources.memoryBytes).toBe('free-h.txt');
    expect(b.notes.some((n) => n.startsWith('Memory: free-h.txt says') && n.endsWith('wins.'))).toBe(true);

    const kernels = profileFromCaptures([capture('uname', 'uname-a.txt'), pasted('uname-el7', '$ uname -r\n3.10.0-862.el7.x86_64\n')]);
    expect(kernels.patch.kernel).toBe('3.10.0-862.el7.x86_64');
    expect(kernels.notes).toContain('Kernel: uname-el7 says "3.10.0-862.el7.x86_64", uname-a.txt said "6.18.44-fc-v657"; the later capture (uname-el7) wins.');
  });

  it('a CPU count without physical cores: cores = threads, with a note', () => {
    // iostat's banner: "(2 CPU)" and the kernel, no cores
    const r = profileFromCaptures([capture('iostat', 'iostat-x-d-1-during-randwrite.txt')]);
    expect(r.patch).toMatchObject({ threads: 2, cores: 2, kernel: '3.10.0-862.el7.x86_64' });
    expect(r.sources.cores).toBe('iostat-x-d-1-during-randwrite.txt');
    expect(r.notes.some((n) => n.startsWith('Cores: no capture gives physical cores'))).toBe(true);
  });

  it('banners of other tools never override a facts capture, whatever the order', () => {
    const r = profileFromCaptures([capture('uname', 'uname-a.txt'), capture('iostat', 'iostat-x-d-1-during-randwrite.txt')]);
    expect(r.patch.kernel).toBe('6.18.44-fc-v657');
    expect(r.sources.kernel).toBe('uname-a.txt');
    expect(r.notes.some((n) => /wins/.test(n))).toBe(false);
  });

  it('captures without hardware facts are named in the notes and change nothing', () => {
    const r = profileFromCaptures([capture('fio', 'fio-randwrite-4k-qd64-j64.txt'), pasted('notes.txt', 'we rebooted the box at 10:42\n')]);
    expect(r.patch).toEqual({});
    expect(r.sources).toEqual({});
    expect(r.notes).toEqual(['Nothing about the hardware in fio-randwrite-4k-qd64-j64.txt (fio), notes.txt (text).']);
  });

  it('tune2fs on a partition of a disk fdisk did not list: the disk is added by name, with a note', () => {
    const r = profileFromCaptures([pasted('tune2fs-sdb1', '# tune2fs -l /dev/sdb1 | grep "Block size"\nBlock size:               1024\n')]);
    expect(r.patch.disks).toEqual([{ name: 'sdb', sizeBytes: null, logicalSectorBytes: null, physicalSectorBytes: null, blockBytes: 1024, kind: 'unknown' }]);
    expect(r.notes.some((n) => n.startsWith('Disk sdb comes from /dev/sdb1'))).toBe(true);
  });

  it('tune2fs -l without its command line goes onto the only disk', () => {
    const r = profileFromCaptures([capture('fdisk', 'fdisk-l-vda.txt'), capture('tune2fs', 'tune2fs-l.txt')]);
    expect(r.patch.disks).toEqual([{ name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }]);
    expect(r.sources['disks.vda.blockBytes']).toBe('tune2fs-l.txt');
  });

  it('two block sizes for one disk: the later wins', () => {
    const r = profileFromCaptures([
      capture('fdisk', 'fdisk-l-vda.txt'),
      capture('tune2fs', 'tune2fs-block-size.txt'),
      pasted('tune2fs-vda2', '# tune2fs -l /dev/vda2 | grep "Block size"\nBlock size:               1024\n'),
    ]);
    expect(r.patch.disks?.[0]?.blockBytes).toBe(1024);
    expect(r.notes).toContain('Disk vda block size: tune2fs-vda2 says 1024, tune2fs-block-size.txt said 4096; the later capture (tune2fs-vda2) wins.');
  });

  it('fdisk on image files keeps their paths as names; the kind is unknown', () => {
    const r = profileFromCaptures([capture('fdisk', 'image-gpt.txt')]);
    expect(r.patch.disks).toEqual([{ name: '/tmp/y.img', sizeBytes: 134217728, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: null, kind: 'unknown' }]);
  });
});

describe('disk names and kinds', () => {
  it('partition → disk', () => {
    expect(diskOfDevice('/dev/vda1')).toBe('vda');
    expect(diskOfDevice('/dev/xvda1')).toBe('xvda');
    expect(diskOfDevice('/dev/sdb')).toBe('sdb');
    expect(diskOfDevice('/dev/nvme0n1p2')).toBe('nvme0n1');
    expect(diskOfDevice('/dev/mmcblk0p1')).toBe('mmcblk0');
    expect(diskOfDevice('/dev/mapper/centos-root')).toBeNull();
  });
  it('kind from the name, then from rotational', () => {
    expect(diskKind('vda')).toBe('virtual');
    expect(diskKind('xvdb')).toBe('virtual');
    expect(diskKind('nvme0n1')).toBe('nvme');
    expect(diskKind('sda', true)).toBe('hdd');
    expect(diskKind('sda', false)).toBe('ssd');
    expect(diskKind('sda')).toBe('unknown');
  });
});

describe('applyProfilePatch', () => {
  it('fills what the captures say and keeps everything else as it was', () => {
    const current: HardwareProfileInput = {
      ...EMPTY, name: 'ECS 2C', cloud: 'Alibaba ECS', software: 'fio 3.7', notes: 'mine', os: 'typed by hand',
      disks: [
        { name: 'vda', sizeBytes: null, logicalSectorBytes: null, physicalSectorBytes: null, blockBytes: 4096, kind: 'ssd' },
        { name: 'vdb', sizeBytes: 10, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' },
        { name: '', sizeBytes: null, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'unknown' },
      ],
    };
    const r = profileFromCaptures([capture('fdisk', 'fdisk-l-vda.txt'), capture('lscpu', 'lscpu.txt')]);
    const next = applyProfilePatch(current, r.patch);
    expect(next).toEqual({
      ...current,
      cpuModel: 'AMD EPYC', cores: 2, threads: 2,
      disks: [
        { name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' },
        { name: 'vdb', sizeBytes: 10, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' },
      ],
    });
    expect(current.disks).toHaveLength(3); // not mutated
  });
  it('without disks in the patch the form\'s disks stay untouched', () => {
    const current: HardwareProfileInput = { ...EMPTY, disks: [{ name: '', sizeBytes: null, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'unknown' }] };
    expect(applyProfilePatch(current, { kernel: '6.1' })).toEqual({ ...current, kernel: '6.1' });
  });
});
