/** tune2fs -l / dumpe2fs -h (e2fsprogs), or just a grep'd line of it ("Block size: 4096") → filesystem facts. */
import type { CaptureParser } from '../../types';
import { headCommand, metric } from '../kit';
import { FactsSink, keyValue } from './common';

class Tune2fsSink extends FactsSink {
  constructor() { super(['tune2fs', 'dumpe2fs']); }

  protected override onCommand(cmd: string): void {
    // "tune2fs -l /dev/vda1 | grep 'Block size'" → /dev/vda1
    const main = cmd.split('|')[0]!.trim().split(/\s+/);
    const dev = main.slice(1).filter((w) => !w.startsWith('-')).pop();
    if (dev) this.facts.filesystem_device = dev;
  }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    const v = /^(tune2fs|dumpe2fs) (\d+\.\d+\S*)(.*)$/.exec(t);
    if (v) { this.toolVersion = t; return; }
    const kv = keyValue(t);
    if (!kv) { this.warn(lineNo, text); return; }
    const [key, value] = kv;
    this.settings[key] = value;
    const int = Number(value);
    switch (key) {
      case 'Block size':
        this.facts.filesystem_block_bytes = int;
        this.metrics.push(metric('filesystem_block_bytes', int, 'B', { column: key, lines: lineNo }));
        break;
      case 'Block count': this.facts.filesystem_block_count = int; break;
      case 'Inode count': this.facts.filesystem_inode_count = int; break;
      case 'Free blocks': this.facts.filesystem_free_blocks = int; break;
      case 'Inode size': this.facts.filesystem_inode_bytes = int; break;
      case 'Filesystem volume name': this.facts.filesystem_volume_name = value === '<none>' ? '' : value; break;
      case 'Filesystem UUID': this.facts.filesystem_uuid = value; break;
      case 'Filesystem features': this.facts.filesystem_features = value.split(/\s+/).filter(Boolean); break;
      case 'Filesystem state': this.facts.filesystem_state = value; break;
      case 'Default mount options': this.facts.filesystem_default_mount_options = value; break;
      case 'Last mounted on': if (value !== '<not available>') this.facts.filesystem_mount_point = value; break;
      case 'RAID stride': this.facts.filesystem_raid_stride = int; break;
      case 'RAID stripe width': this.facts.filesystem_raid_stripe_width = int; break;
      default: break;
    }
  }

  protected override finish(): void {
    const bs = this.facts.filesystem_block_bytes;
    const bc = this.facts.filesystem_block_count;
    if (typeof bs === 'number' && typeof bc === 'number') {
      this.facts.filesystem_size_bytes = bs * bc;
      this.metrics.push(metric('filesystem_size_bytes', bs * bc, 'B', { column: 'Block count × Block size' }));
    }
    const features = this.facts.filesystem_features;
    if (Array.isArray(features)) this.facts.filesystem_type = features.includes('extent') ? 'ext4' : features.includes('has_journal') ? 'ext3' : 'ext2';
  }
}

export const tune2fsParser: CaptureParser = {
  id: 'tune2fs',
  title: 'tune2fs -l',
  commands: [{ program: 'tune2fs' }],
  detect(head) {
    let magic = false, block = false, other = 0;
    const n = Math.min(head.length, 100);
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (/^Filesystem magic number:\s+0xEF53/.test(l)) magic = true;
      else if (/^Block size:\s+\d+\s*$/.test(l)) block = true;
      else if (/^(Filesystem volume name|Filesystem UUID|Filesystem features|Inode count|Block count|Reserved block count):/.test(l)) other++;
    }
    if (magic || (block && other >= 2)) return 0.95;
    if (block && headCommand(head, ['tune2fs', 'dumpe2fs']) !== undefined) return 0.9;
    if (block || other >= 2) return 0.5;
    return 0;
  },
  open: () => new Tune2fsSink(),
};
