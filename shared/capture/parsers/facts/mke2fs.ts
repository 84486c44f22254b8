/**
 * mkfs.ext4 / mkfs.ext3 / mkfs.ext2 / mke2fs (e2fsprogs 1.4x), stdout and stderr as the terminal shows
 * them: "Creating filesystem with 65536 4k blocks and 16384 inodes", the UUID and superblock backups,
 * the journal, the `-v` (and pre-1.43 default) block "Block size=4096 (log=2)" … "8192 inodes per group",
 * the progress counters (their backspaces are gone once the line is cleaned) and the questions about an
 * existing filesystem → filesystem facts named as tune2fs names them (filesystem_block_bytes …).
 * `-q` prints nothing.
 */
import type { CaptureParser } from '../../types';
import { commandParts, headCommand, metric } from '../kit';
import { FactsSink } from './common';

/** longer lines are not mke2fs's */
const MAX_LINE = 1000;
const TOOLS = ['mke2fs', 'mkfs.ext4', 'mkfs.ext3', 'mkfs.ext2', 'mkfs'];
/** mke2fs options that take a value (mke2fs(8)) */
const WITH_VALUE = new Set('bCdeEgGiIJlLmMNoOrtTUz'.split(''));

/** Steps mke2fs reports with a progress counter and "done" (or a failure) after it. */
const STEP = /^(?:Discarding device blocks|Allocating group tables|Writing inode tables|Writing superblocks and filesystem accounting information|Copying files into the device|Zeroing journal device|Adding journal to device \S+):/;
/** Lines that say nothing a fact needs (mke2fs.c, lib/support/plausible.c). */
const KNOWN = new RegExp('^(?:' + [
  'Discard succeeded and will return 0s', 'OS type:', 'First data block=', 'Maximum filesystem blocks=', 'Fragment size=',
  'Root directory owner=', 'Proceed anyway\\?', '\\tcreated on ', '\\tlast mounted on ', 'created on ', 'last mounted on ',
  'Overwriting existing filesystem', 'e2undo ', 'Multiple mount protection is enabled', 'Skipping journal creation',
  'Using journal device', 'This may result in very poor performance', 'Warning: ', 'warning: ', 'Found a \\S+ partition table in ',
  'Your mke2fs.conf file', 'You probably need to install', 'Running command:',
].join('|') + ')');

class Mke2fsSink extends FactsSink {
  private backups = false;
  private cmdType: string | undefined;
  private cmdLabel: string | undefined;

  constructor() { super(TOOLS); }

  protected override onCommand(cmd: string): void {
    const { program, args } = commandParts(cmd.split('|')[0]!);
    const m = /^mkfs\.(ext[234])$/.exec(program);
    if (m) this.cmdType = m[1];
    const plain: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (/^[<>&]|^\d?>/.test(a)) break;
      if (a.startsWith('-') && a.length > 1) {
        const opt = a[1]!;
        const value = WITH_VALUE.has(opt) ? (a.length > 2 ? a.slice(2) : args[++i]) : undefined;
        if (opt === 't' && value) this.cmdType = value;
        if (opt === 'L' && value !== undefined) this.cmdLabel = value.replace(/^(['"])(.*)\1$/, '$2');
        continue;
      }
      plain.push(a);
    }
    if (plain[0]) this.facts.filesystem_device = plain[0];
  }

  protected read(text: string, lineNo: number): void {
    let t = text.trim();
    if (t === '') { this.backups = false; return; }
    // no line of mke2fs's is long (the backup list wraps at 72 columns): the patterns see short lines only
    if (t.length > MAX_LINE) { this.backups = false; this.warn(lineNo, t); return; }
    // the answer to "Proceed anyway? (y,N)" is printed on the same line as what follows it
    const q = /^Proceed anyway\? \([^)]*\)\s*/.exec(t);
    if (q) { t = t.slice(q[0].length); if (t === '') return; }
    let m = /^mke2fs (\d+\.\d+\S*)\s*(?:\(.*\))?$/.exec(t);
    if (m) { this.toolVersion = t; return; }
    if (this.backups && /^\d+(?:,\s*\d+)*,?$/.test(t)) { this.addBackups(t); return; }
    this.backups = false;
    if (/^Superblock backups stored on blocks:/.test(t)) {
      this.backups = true;
      this.facts.filesystem_superblock_backups ??= [];
      const rest = t.slice(t.indexOf(':') + 1).trim();
      if (rest) this.addBackups(rest);
      return;
    }
    m = /^Creating filesystem with (\d+) (\d+)k blocks and (\d+) inodes$/.exec(t);
    if (m) {
      this.setNumber('filesystem_block_count', m[1]!);
      this.blockBytes(Number(m[2]) * 1024, lineNo, 'Creating filesystem with … blocks');
      this.setNumber('filesystem_inode_count', m[3]!);
      return;
    }
    if (STEP.test(t)) {
      const dev = /^Adding journal to device (\S+):/.exec(t);
      if (dev) { this.facts.filesystem_has_journal = true; this.facts.filesystem_journal_device = dev[1]!; }
      return;
    }
    m = /^Creating journal \((\d+) blocks\)/.exec(t);
    if (m) { this.facts.filesystem_has_journal = true; this.setNumber('filesystem_journal_blocks', m[1]!); return; }
    if (t === 'Filesystem too small for a journal') { this.facts.filesystem_has_journal = false; return; }
    m = /^Filesystem UUID: ([0-9a-fA-F-]{36})$/.exec(t);
    if (m) { this.facts.filesystem_uuid = m[1]!; return; }
    m = /^Creating regular file (\S.*)$/.exec(t) ?? /^(\S+) contains an? (\S+) file system/.exec(t) ?? /^Found a \S+ partition table in (\S+)$/.exec(t);
    if (m) { this.facts.filesystem_device ??= m[1]!; if (m[2]) this.facts.filesystem_previous_type = m[2]; return; }
    m = /^fs_types for mke2fs\.conf resolution: (.*)$/.exec(t);
    if (m) {
      const types = [...m[1]!.matchAll(/'([^']*)'/g)].map((x) => x[1]!);
      if (types[0]) this.facts.filesystem_type = types[0];
      if (types.length > 1) this.facts.filesystem_usage_types = types.slice(1);
      return;
    }
    if (/^128-byte inodes cannot handle dates beyond 2038/.test(t)) { this.facts.filesystem_inode_bytes = 128; return; }
    if (this.verbose(t, lineNo)) return;
    if (KNOWN.test(t) || /^[yYnN]$/.test(t)) return;
    this.warn(lineNo, text);
  }

  /** The block mke2fs prints with -v (and by default before 1.43). */
  private verbose(t: string, lineNo: number): boolean {
    let m = /^Filesystem label=(.*)$/.exec(t);
    if (m) { this.facts.filesystem_volume_name = m[1]!; return true; }
    m = /^Block size=(\d+) \(log=\d+\)$/.exec(t);
    if (m) { this.blockBytes(Number(m[1]), lineNo, 'Block size'); return true; }
    m = /^Cluster size=(\d+) \(log=\d+\)$/.exec(t);
    if (m) { this.setNumber('filesystem_cluster_bytes', m[1]!); return true; }
    m = /^Stride=(\d+) blocks, Stripe width=(\d+) blocks$/.exec(t);
    if (m) { this.setNumber('filesystem_raid_stride', m[1]!); this.setNumber('filesystem_raid_stripe_width', m[2]!); return true; }
    m = /^(\d+) inodes, (\d+) blocks$/.exec(t);
    if (m) { this.setNumber('filesystem_inode_count', m[1]!); this.setNumber('filesystem_block_count', m[2]!); return true; }
    m = /^(\d+) blocks \(\s*(\d+(?:\.\d+)?)%\) reserved for the super user$/.exec(t);
    if (m) { this.setNumber('filesystem_reserved_blocks', m[1]!); this.facts.filesystem_reserved_percent = Number(m[2]); return true; }
    m = /^(\d+) block groups?$/.exec(t);
    if (m) { this.setNumber('filesystem_block_groups', m[1]!); return true; }
    m = /^(\d+) blocks per group, (\d+) (?:fragments|clusters) per group$/.exec(t);
    if (m) { this.setNumber('filesystem_blocks_per_group', m[1]!); return true; }
    m = /^(\d+) inodes per group$/.exec(t);
    if (m) { this.setNumber('filesystem_inodes_per_group', m[1]!); return true; }
    return false;
  }

  private setNumber(fact: string, digits: string): void {
    const n = Number(digits);
    if (Number.isSafeInteger(n)) this.facts[fact] = n; else this.warnings.push(`${fact}: ${digits.slice(0, 30)} is not a number Tunebook can keep exactly`);
  }

  private blockBytes(n: number, lineNo: number, column: string): void {
    if (!Number.isSafeInteger(n)) return;
    if (this.facts.filesystem_block_bytes === n) return;
    this.facts.filesystem_block_bytes = n;
    const i = this.metrics.findIndex((x) => x.name === 'filesystem_block_bytes');
    if (i >= 0) this.metrics.splice(i, 1);
    this.metrics.push(metric('filesystem_block_bytes', n, 'B', { column, lines: lineNo }));
  }

  private addBackups(t: string): void {
    const list = this.facts.filesystem_superblock_backups as number[];
    for (const x of t.split(',')) { const n = Number(x.trim()); if (x.trim() !== '' && Number.isSafeInteger(n)) list.push(n); }
  }

  protected override finish(): void {
    if (this.cmdType && this.facts.filesystem_type === undefined) this.facts.filesystem_type = this.cmdType;
    if (this.cmdLabel !== undefined && this.facts.filesystem_volume_name === undefined) this.facts.filesystem_volume_name = this.cmdLabel;
    const bs = this.facts.filesystem_block_bytes;
    const bc = this.facts.filesystem_block_count;
    if (typeof bs === 'number' && typeof bc === 'number' && Number.isSafeInteger(bs * bc)) {
      this.facts.filesystem_size_bytes = bs * bc;
      this.metrics.push(metric('filesystem_size_bytes', bs * bc, 'B', { column: 'blocks × block size' }));
    }
  }
}

export const mke2fsParser: CaptureParser = {
  id: 'mke2fs',
  title: 'mkfs.ext4 / mke2fs',
  commands: [
    { program: 'mke2fs' }, { program: 'mkfs.ext4' }, { program: 'mkfs.ext3' }, { program: 'mkfs.ext2' },
    { program: 'mkfs', args: /(?:^|\s)-t\s*ext[234](?:\s|$)/ },
  ],
  detect(head) {
    const n = Math.min(head.length, 100);
    let banner = false, creating = false, verbose = 0;
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (l.length > 300) continue;
      if (/^mke2fs \d+\.\d+\S* \(/.test(l)) banner = true;
      else if (/^(?:Proceed anyway\? \([^)]*\)\s*)?Creating filesystem with \d+ \d+k blocks and \d+ inodes\s*$/.test(l)) creating = true;
      else if (/^(?:Block size=\d+ \(log=\d+\)|\d+ inodes per group|\d+ blocks per group, \d+ (?:fragments|clusters) per group|Stride=\d+ blocks, Stripe width=\d+ blocks)\s*$/.test(l)) verbose++;
    }
    if (creating || verbose >= 2) return banner ? 0.97 : 0.9;
    if (banner) return 0.8;
    if (headCommand(head, ['mke2fs', 'mkfs.ext4', 'mkfs.ext3', 'mkfs.ext2']) !== undefined) return 0.5;
    return 0;
  },
  open: () => new Mke2fsSink(),
};
