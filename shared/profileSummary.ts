/**
 * A hardware profile in one line, the way people describe a machine:
 * "4C/8G · vda 50 GiB, 512 B sectors, 4 KiB blocks · CentOS 7". What the profile leaves empty is
 * left out, with its separator. Shared by the app (profile list, experiment) and the reports.
 */
import type { Disk, HardwareProfile } from './model';
import { formatBytes } from './format';

type Summarised = Pick<HardwareProfile, 'cores' | 'threads' | 'memoryBytes' | 'disks' | 'os'>;

const KIND_LABEL: Partial<Record<Disk['kind'], string>> = { ssd: 'SSD', hdd: 'HDD', nvme: 'NVMe' };

/** x rounded to one decimal, without a trailing ".0" */
const oneDecimal = (x: number): string => String(Math.round(x * 10) / 10);
/** x is a whole number of tenths (as typed: 8, 7.8), give or take the rounding of bytes to an integer */
const typedAs = (x: number): boolean => Math.abs(x * 10 - Math.round(x * 10)) < 1e-6;

/**
 * Memory the cloud way: "8G", "7.8G", "512M", "1.5T". Binary units (8 GiB → 8G), unless the size was
 * given in decimal ones (8 GB → 8G, not 7.5G); otherwise the binary value to one decimal.
 */
export function memoryShort(bytes: number): string {
  for (const [letter, exp] of [['T', 4], ['G', 3], ['M', 2], ['K', 1]] as const) {
    const binary = bytes / 1024 ** exp;
    if (binary < 1 && letter !== 'K') continue;
    const decimal = bytes / 1000 ** exp;
    const v = typedAs(binary) ? binary : typedAs(decimal) ? decimal : binary;
    return `${oneDecimal(v)}${letter}`;
  }
  return `${bytes}B`;
}

/** "4C/8G", "4C8T/16G", "8T", "8G": cores (and threads when they differ) and memory. */
function computePart(p: Summarised): string {
  const cpu = p.cores && p.threads && p.threads !== p.cores ? `${p.cores}C${p.threads}T`
    : p.cores ? `${p.cores}C`
      : p.threads ? `${p.threads}T` : '';
  const mem = p.memoryBytes ? memoryShort(p.memoryBytes) : '';
  return [cpu, mem].filter(Boolean).join('/');
}

/** "vda 50 GiB, 512 B sectors, 4 KiB blocks"; "nvme0n1 1 TiB NVMe, 512 B/4 KiB sectors". */
export function diskSummary(d: Disk): string {
  const head = [d.name.trim(), d.sizeBytes ? formatBytes(d.sizeBytes) : '', KIND_LABEL[d.kind] ?? ''].filter(Boolean).join(' ');
  const logical = d.logicalSectorBytes || null;
  const physical = d.physicalSectorBytes || null;
  const sectors = logical && physical && logical !== physical ? `${formatBytes(logical)}/${formatBytes(physical)} sectors`
    : logical || physical ? `${formatBytes(logical ?? physical)} sectors` : '';
  const blocks = d.blockBytes ? `${formatBytes(d.blockBytes)} blocks` : '';
  return [head, sectors, blocks].filter(Boolean).join(', ');
}

/** The whole line; empty when the profile says nothing of the machine. */
export function profileSummary(p: Summarised): string {
  return [computePart(p), ...p.disks.map(diskSummary), p.os.trim()].filter(Boolean).join(' · ');
}
