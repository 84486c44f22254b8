/** /proc/meminfo → memory facts and one metric per line (kB values in bytes, page counts as counts). */
import type { CaptureParser } from '../../types';
import { headCommand, lookupTable, metric } from '../kit';
import { FactsSink } from './common';

const CANON = lookupTable({
  MemTotal: 'memory_total_bytes', MemFree: 'memory_free_bytes', MemAvailable: 'memory_available_bytes',
  Buffers: 'memory_buffers_bytes', Cached: 'memory_cached_bytes', SwapTotal: 'swap_total_bytes', SwapFree: 'swap_free_bytes',
  SwapCached: 'swap_cached_bytes', Dirty: 'memory_dirty_bytes', Writeback: 'memory_writeback_bytes',
});

/** "Active(anon)" → "active_anon", "HugePages_Total" → "hugepages_total", "DirectMap4k" → "direct_map_4k". */
export function snake(key: string): string {
  return key
    .replace(/\(([^)]*)\)/g, '_$1')
    .replace(/HugePages/g, 'Hugepages')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/([a-zA-Z])(\d)/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

class MeminfoSink extends FactsSink {
  constructor() { super(['cat', 'head', 'grep', 'less', 'more', 'tail']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    const m = /^([A-Za-z][\w()]*):\s+(\d+)(?:\s+(kB))?$/.exec(t);
    if (!m) { this.warn(lineNo, text); return; }
    const key = m[1]!;
    const v = Number(m[2]);
    const bytes = m[3] !== undefined;
    const name = CANON[key] ?? (bytes ? `meminfo_${snake(key)}_bytes` : `meminfo_${snake(key)}`);
    this.metrics.push(metric(name, bytes ? v * 1024 : v, bytes ? 'B' : 'count', { column: key, lines: lineNo }));
    if (key === 'MemTotal') this.facts.memory_total_bytes = v * 1024;
    else if (key === 'SwapTotal') this.facts.swap_total_bytes = v * 1024;
    else if (key === 'MemAvailable') this.facts.memory_available_bytes = v * 1024;
    else if (key === 'Hugepagesize') this.facts.hugepage_size_bytes = v * 1024;
    else if (key === 'HugePages_Total') this.facts.hugepages_total = v;
  }
}

export const procMeminfoParser: CaptureParser = {
  id: 'proc-meminfo',
  title: '/proc/meminfo',
  commands: [{ program: 'cat', args: /\/proc\/meminfo\b/ }],
  detect(head) {
    let hits = 0;
    const n = Math.min(head.length, 100);
    for (let i = 0; i < n; i++) {
      if (/^(MemTotal|MemFree|MemAvailable|SwapTotal|Buffers|Cached|Active|Inactive|Dirty|Slab|Committed_AS|HugePages_Total):\s+\d+( kB)?\s*$/.test(head[i]!)) hits++;
    }
    if (hits >= 3) return 0.95;
    if (hits >= 1 && headCommand(head, ['cat', 'grep', 'head']) !== undefined) return 0.7;
    return hits ? 0.4 : 0;
  },
  open: () => new MeminfoSink(),
};
