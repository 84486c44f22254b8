/**
 * mpstat (sysstat): plain, -P ALL / -P n, -N (NODE), -I SUM|CPU|SCPU|ALL, -A, 12-hour and
 * localized clocks, "Average:" blocks.
 */
import type { CaptureParser } from '../../types';
import { lookupTable } from '../kit';
import { TimeTableSink, CPU_PERCENT, type ToolSpec } from './timeTable';

const SOFTIRQS = new Set(['HI', 'TIMER', 'NET_TX', 'NET_RX', 'BLOCK', 'BLOCK_IOPOLL', 'IRQ_POLL', 'TASKLET', 'SCHED', 'HRTIMER', 'RCU']);

export const MPSTAT_SPEC: ToolSpec = {
  tool: 'mpstat',
  keys: lookupTable({ CPU: 'cpu', NODE: 'node' }),
  columns: CPU_PERCENT,
  pad: true,
  sinceBootPossible: true,
  unknown(col) {
    // mpstat -I CPU / SCPU: one column per interrupt ("24/s", "LOC/s") or softirq ("NET_RX/s")
    const m = /^(.+)\/s$/.exec(col);
    if (!m) return undefined;
    const irq = m[1]!;
    return SOFTIRQS.has(irq)
      ? { spec: { name: 'softirqs_per_second', unit: '1/s' }, labels: { irq } }
      : { spec: { name: 'interrupts_per_second', unit: '1/s' }, labels: { irq } };
  },
};

const HEADER = /^\S+(?:\s+[AP]M)?\s+(?:CPU|NODE)\s+(?:%usr|%user|intr\/s)(?:\s|$)/;

export const mpstat: CaptureParser = {
  id: 'mpstat',
  title: 'mpstat (sysstat)',
  commands: [{ program: 'mpstat' }],
  detect(head) {
    let score = 0;
    for (const l of head) {
      const t = l.trim();
      if (HEADER.test(t)) {
        // sar -u / -P prints the same first columns: mpstat has %irq/%soft/%gnice in that order
        if (/%usr\s+%nice\s+%sys\s+%iowait\s+%irq\s+%soft\s+%steal\s+%guest\s+%gnice\s+%idle/.test(t)) return 0.97;
        if (/\sCPU\s+intr\/s$/.test(t)) score = Math.max(score, 0.9);
        if (/%user\s+%nice\s+%sys\s+%iowait\s+%irq\s+%soft/.test(t)) score = Math.max(score, 0.9);
      }
      if (/^\S+(?:\s+[AP]M)?\s+CPU\s+(?:\d+|[A-Z]+)\/s\s+/.test(t)) score = Math.max(score, 0.85);
      if (/^"(?:cpu-load|sum-interrupts|individual-interrupts|soft-interrupts)":/.test(t)) score = Math.max(score, 0.95);
    }
    return score;
  },
  open: (opts) => new TimeTableSink(MPSTAT_SPEC, opts),
};
