/**
 * "Fill from captures": turns parsed hardware captures (lscpu, /proc/cpuinfo, free, /proc/meminfo,
 * fdisk -l, tune2fs -l, uname, os-release …) into hardware-profile fields, remembering which file
 * each field came from. Pure TypeScript (no node, electron or react): the renderer runs it on the
 * CaptureJson the back end returns; tests run it on the real parsers' output.
 *
 * Rules
 *  - Only what the captures say is in the patch; every other field is left to the caller.
 *  - The hardware-facts captures (the kinds in FACT_KINDS) are the authority. Other captures carry
 *    some of the same facts in their banners (iostat/sar: kernel and CPU count, top: memory rounded
 *    to MiB, vmstat -s …); those only fill a field no facts capture gives.
 *  - When two captures disagree on a field, the later one (in the order given) wins and a note says so.
 *  - cores are physical cores (cpu_cores); with only a logical CPU count, cores = threads and a note.
 *  - tune2fs's block size goes onto the disk its device belongs to (/dev/vda1 → vda,
 *    /dev/nvme0n1p2 → nvme0n1), or onto the only disk when the device is unknown.
 */
import type { CaptureJson } from './capture/json';
import type { Disk, DiskKind, HardwareProfileInput } from './model';

type Facts = CaptureJson['facts'];
type FactValue = Facts[string];

/** The parsers whose facts describe the machine (docs/parsers/facts.md). */
export const FACT_KINDS: readonly string[] = ['lscpu', 'proc-cpuinfo', 'free', 'proc-meminfo', 'fdisk', 'lsblk', 'sfdisk', 'tune2fs', 'mke2fs', 'uname', 'os-release'];

export interface ProfileFromCaptures {
  patch: Partial<HardwareProfileInput>;
  /** field → the file it came from: cpuModel, cores, threads, memoryBytes, os, kernel, disks.<name>, disks.<name>.blockBytes */
  sources: Record<string, string>;
  notes: string[];
}

/** The name a capture is shown by: its file, else its position and kind. */
export function captureLabel(c: CaptureJson, index: number): string {
  return c.file && c.file.trim() ? c.file : `capture ${index + 1} (${c.kind})`;
}

const str = (v: FactValue | undefined): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const posInt = (v: FactValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : null);
const isRecord = (v: FactValue | undefined): v is { [key: string]: FactValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

function showValue(field: string, v: unknown): string {
  if (typeof v === 'number' && /bytes$/i.test(field) && v >= 1024) return `${v} bytes`;
  if (typeof v === 'string') return `"${v}"`;
  return String(v);
}

/** "/dev/vda1" → "vda1"; paths outside /dev stay whole (fdisk keeps image files that way). */
function devName(path: string): string {
  return path.replace(/^\/dev\//, '');
}

/** The whole-disk name of a block device, when its name follows the usual patterns. */
export function diskOfDevice(device: string): string | null {
  const n = devName(device.trim());
  if (!n || n.includes('/')) return null; // /dev/mapper/…, /dev/disk/by-uuid/…: not a partition name
  let m = /^((?:nvme\d+n\d+)|(?:mmcblk\d+)|(?:loop\d+)|(?:md\d+))(?:p\d+)?$/.exec(n);
  if (m) return m[1]!;
  m = /^((?:x?[svh]d|xvd)[a-z]+)\d*$/.exec(n);
  if (m) return m[1]!;
  return null;
}

/** What a disk is, from its name and, when known, whether it rotates. */
export function diskKind(name: string, rotational?: boolean | null): DiskKind {
  const n = devName(name);
  if (/^(?:vd|xvd)[a-z]/.test(n)) return 'virtual';
  if (/^nvme\d/.test(n)) return 'nvme';
  if (rotational === true) return 'hdd';
  if (rotational === false) return 'ssd';
  return 'unknown';
}

function rotationalOf(v: FactValue | undefined): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1') return true;
  if (v === 0 || v === '0') return false;
  return null;
}

interface Candidate<T> { value: T; source: string; primary: boolean }

/**
 * Collects candidate values per field and decides: facts captures over others, later over earlier,
 * a note when they disagree.
 */
class Chooser {
  private picks = new Map<string, Candidate<unknown>>();
  constructor(private notes: string[], private sources: Record<string, string>) {}

  /** Returns whether the capture said anything about the field. */
  offer<T>(field: string, label: string, value: T | null, source: string, primary: boolean): boolean {
    if (value === null) return false;
    const had = this.picks.get(field);
    if (had) {
      if (had.primary && !primary) return true; // a banner never overrides a facts capture
      if (had.value === value) return true; // agreement: keep the first file as the source
      if (had.primary === primary) {
        this.notes.push(`${label}: ${source} says ${showValue(field, value)}, ${had.source} said ${showValue(field, had.value)}; the later capture (${source}) wins.`);
      }
    }
    this.picks.set(field, { value, source, primary });
    this.sources[field] = source;
    return true;
  }

  get<T>(field: string): Candidate<T> | undefined {
    return this.picks.get(field) as Candidate<T> | undefined;
  }
}

interface DiskDraft {
  disk: Disk;
  source: string;
}

export function profileFromCaptures(captures: readonly CaptureJson[]): ProfileFromCaptures {
  const notes: string[] = [];
  const sources: Record<string, string> = {};
  const chooser = new Chooser(notes, sources);
  const patch: Partial<HardwareProfileInput> = {};
  const disks = new Map<string, DiskDraft>();
  const blocks: { device: string | null; bytes: number; source: string }[] = [];
  const virtualization = new Map<string, string>();
  const used = new Set<number>();

  captures.forEach((c, i) => {
    const f: Facts = c.facts ?? {};
    const source = captureLabel(c, i);
    const primary = FACT_KINDS.includes(c.kind);
    const said = [
      chooser.offer('cpuModel', 'CPU model', str(f.cpu_model), source, primary),
      chooser.offer('cores', 'Cores', posInt(f.cpu_cores), source, primary),
      chooser.offer('threads', 'Threads', posInt(f.cpu_threads), source, primary),
      chooser.offer('memoryBytes', 'Memory', posInt(f.memory_total_bytes), source, primary),
      chooser.offer('kernel', 'Kernel', str(f.kernel), source, primary),
      chooser.offer('os', 'OS', osOf(f), source, primary),
    ].some(Boolean);
    if (said) used.add(i);

    if (Array.isArray(f.disks)) {
      for (const raw of f.disks) {
        if (!isRecord(raw)) continue;
        const name = str(raw.name);
        if (!name) continue;
        const key = devName(name);
        const next: Disk = {
          name: key,
          sizeBytes: posInt(raw.size_bytes),
          logicalSectorBytes: posInt(raw.logical_sector_bytes),
          physicalSectorBytes: posInt(raw.physical_sector_bytes),
          blockBytes: null,
          kind: diskKind(key, rotationalOf(raw.rotational)),
        };
        used.add(i);
        const had = disks.get(key);
        if (had) {
          mergeDisk(had, next, source, notes);
        } else {
          disks.set(key, { disk: next, source });
          sources[`disks.${key}`] = source;
        }
      }
    }

    const block = posInt(f.filesystem_block_bytes);
    if (block !== null && primary) { blocks.push({ device: str(f.filesystem_device), bytes: block, source }); used.add(i); }

    const virt = str(f.virtualization);
    if (virt) {
      const type = str(f.virtualization_type);
      virtualization.set(source, `${source}: hypervisor ${virt}${type ? ` (${type} virtualization)` : ''}: a virtual machine. Cloud / instance is left for you to fill in.`);
      used.add(i);
    } else if (f.cpu_hypervisor_flag === true) {
      virtualization.set(source, `${source}: the CPU has the hypervisor flag: a virtual machine. Cloud / instance is left for you to fill in.`);
      used.add(i);
    }
  });

  // Physical cores: from lscpu / cpuinfo; with only a CPU count, use it and say so.
  const cpuModel = chooser.get<string>('cpuModel');
  if (cpuModel) patch.cpuModel = cpuModel.value;
  const cores = chooser.get<number>('cores');
  const threads = chooser.get<number>('threads');
  if (threads) patch.threads = threads.value;
  if (cores) {
    patch.cores = cores.value;
  } else if (threads) {
    const t = threads;
    patch.cores = t.value;
    sources.cores = t.source;
    notes.push(`Cores: no capture gives physical cores, so cores is set to the ${t.value} logical CPUs of ${t.source}. lscpu or /proc/cpuinfo tell cores from threads.`);
  }
  const memory = chooser.get<number>('memoryBytes');
  if (memory) patch.memoryBytes = memory.value;
  const os = chooser.get<string>('os');
  if (os) patch.os = os.value;
  const kernel = chooser.get<string>('kernel');
  if (kernel) patch.kernel = kernel.value;

  placeBlockSizes(blocks, disks, sources, notes);
  if (disks.size) patch.disks = [...disks.values()].map((d) => d.disk);

  notes.push(...virtualization.values());

  // Warnings of the captures that filled something (e.g. free without its command line: KiB assumed).
  captures.forEach((c, i) => {
    if (!used.has(i)) return;
    for (const w of c.warnings ?? []) notes.push(`${captureLabel(c, i)}: ${w}`);
  });
  const unused = captures.map((c, i) => (used.has(i) ? null : `${captureLabel(c, i)} (${c.kind})`)).filter((s): s is string => s !== null);
  if (unused.length) notes.push(`Nothing about the hardware in ${unused.join(', ')}.`);

  return { patch, sources, notes };
}

/** "CentOS Linux 7 (Core)": PRETTY_NAME when there is one, else name + version (+ codename). */
function osOf(f: Facts): string | null {
  const pretty = str(f.os_pretty_name);
  if (pretty) return pretty;
  const name = str(f.os_name);
  if (!name) return null;
  const full = str(f.os_version_full);
  const version = full ?? str(f.os_version) ?? (typeof f.os_version === 'number' ? String(f.os_version) : null);
  const codename = str(f.os_codename);
  let out = version ? `${name} ${version}` : name;
  if (codename && !out.includes(codename)) out += ` (${codename})`;
  return out;
}

function mergeDisk(had: DiskDraft, next: Disk, source: string, notes: string[]): void {
  const labels: Record<'sizeBytes' | 'logicalSectorBytes' | 'physicalSectorBytes', string> = {
    sizeBytes: 'size', logicalSectorBytes: 'logical sector', physicalSectorBytes: 'physical sector',
  };
  for (const k of ['sizeBytes', 'logicalSectorBytes', 'physicalSectorBytes'] as const) {
    const v = next[k];
    if (v === null) continue;
    const old = had.disk[k];
    if (old !== null && old !== v) notes.push(`Disk ${had.disk.name} ${labels[k]}: ${source} says ${v} bytes, ${had.source} said ${old} bytes; the later capture (${source}) wins.`);
    had.disk[k] = v;
  }
  if (next.kind !== 'unknown') had.disk.kind = next.kind;
}

/** Puts each tune2fs block size on its disk; later captures win per disk. */
function placeBlockSizes(
  blocks: { device: string | null; bytes: number; source: string }[],
  disks: Map<string, DiskDraft>,
  sources: Record<string, string>,
  notes: string[],
): void {
  const placedBy = new Map<string, { bytes: number; source: string }>();
  for (const b of blocks) {
    let name: string | null = null;
    const parent = b.device ? diskOfDevice(b.device) : null;
    const whole = b.device ? devName(b.device) : null;
    if (whole && disks.has(whole)) name = whole; // tune2fs on a whole disk, or an image file fdisk listed
    else if (parent && disks.has(parent)) name = parent;
    else if (disks.size === 1 && !parent) {
      name = [...disks.keys()][0]!;
      if (b.device) notes.push(`Block size ${b.bytes} of ${b.device} (${b.source}) put on the only disk, ${name}: the device name does not say which disk it is on.`);
    } else if (parent) {
      // a partition of a disk no fdisk capture listed: the disk is known by name only
      disks.set(parent, { disk: { name: parent, sizeBytes: null, logicalSectorBytes: null, physicalSectorBytes: null, blockBytes: null, kind: diskKind(parent) }, source: b.source });
      sources[`disks.${parent}`] = b.source;
      notes.push(`Disk ${parent} comes from ${b.device} in ${b.source} only: no fdisk -l capture lists it, so its size and sectors are unknown.`);
      name = parent;
    } else if (disks.size === 0 && !b.device) {
      notes.push(`Block size ${b.bytes} (${b.source}) not used: no disk is known (add an fdisk -l capture) and tune2fs's command line, with the device, is missing.`);
    } else {
      notes.push(`Block size ${b.bytes} (${b.source}) not used: ${b.device ? `${b.device} is on none of the disks ${[...disks.keys()].join(', ')}` : `tune2fs's command line, with the device, is missing and there are ${disks.size} disks`}.`);
    }
    if (name === null) continue;
    const draft = disks.get(name)!;
    const prev = placedBy.get(name);
    if (prev && prev.bytes !== b.bytes) notes.push(`Disk ${name} block size: ${b.source} says ${b.bytes}, ${prev.source} said ${prev.bytes}; the later capture (${b.source}) wins.`);
    draft.disk.blockBytes = b.bytes;
    placedBy.set(name, { bytes: b.bytes, source: b.source });
    sources[`disks.${name}.blockBytes`] = b.source;
  }
}

/**
 * The form after a fill: the patch's fields replace the form's; disks are matched by name (a
 * value the captures do not know keeps the form's), disks the captures do not mention stay, and
 * blank disk rows go when the captures bring disks.
 */
export function applyProfilePatch(current: HardwareProfileInput, patch: Partial<HardwareProfileInput>): HardwareProfileInput {
  const { disks, ...fields } = patch;
  const out: HardwareProfileInput = { ...current, ...fields };
  if (!disks || !disks.length) return out;
  const merged: Disk[] = [];
  const left = new Map(disks.map((d) => [d.name, d]));
  for (const d of current.disks) {
    const name = d.name.trim();
    if (!name && d.sizeBytes === null) continue; // an empty "Add disk" row
    const next = left.get(name);
    if (!next) { merged.push(d); continue; }
    left.delete(name);
    merged.push({
      name,
      sizeBytes: next.sizeBytes ?? d.sizeBytes,
      logicalSectorBytes: next.logicalSectorBytes ?? d.logicalSectorBytes,
      physicalSectorBytes: next.physicalSectorBytes ?? d.physicalSectorBytes,
      blockBytes: next.blockBytes ?? d.blockBytes,
      kind: next.kind !== 'unknown' ? next.kind : d.kind,
    });
  }
  merged.push(...left.values());
  return { ...out, disks: merged };
}
