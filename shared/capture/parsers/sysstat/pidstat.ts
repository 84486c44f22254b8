/**
 * pidstat (sysstat): -u -r -d -w -s -v -R -t (TGID/TID), -h (one line per pid), -H (epoch),
 * -l (full command line), -p, -U, 12-hour and localized clocks, with or without "Average:" blocks.
 */
import type { CaptureParser } from '../../types';
import { lookupTable } from '../kit';
import { TimeTableSink, CPU_PERCENT, type ColSpec, type ToolSpec } from './timeTable';

const COLUMNS = lookupTable<ColSpec>({
  ...CPU_PERCENT,
  '%wait': { name: 'cpu_wait_percent', unit: '%' },
  '%CPU': { name: 'cpu_percent', unit: '%' },
  CPU: { name: 'cpu_number', unit: '' },
  'minflt/s': { name: 'minor_faults_per_second', unit: '1/s' },
  'majflt/s': { name: 'major_faults_per_second', unit: '1/s' },
  VSZ: { name: 'virtual_memory_bytes', unit: 'B', mult: 1024 },
  RSS: { name: 'rss_bytes', unit: 'B', mult: 1024 },
  '%MEM': { name: 'memory_percent', unit: '%' },
  'kB_rd/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: 1024 },
  'kB_wr/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: 1024 },
  'kB_ccwr/s': { name: 'cancelled_write_bytes_per_second', unit: 'B/s', mult: 1024 },
  iodelay: { name: 'io_delay_ticks', unit: 'count' },
  'cswch/s': { name: 'voluntary_switches_per_second', unit: '1/s' },
  'nvcswch/s': { name: 'nonvoluntary_switches_per_second', unit: '1/s' },
  StkSize: { name: 'stack_size_bytes', unit: 'B', mult: 1024 },
  StkRef: { name: 'stack_referenced_bytes', unit: 'B', mult: 1024 },
  threads: { name: 'threads', unit: 'count' },
  'fd-nr': { name: 'open_files', unit: 'count' },
  prio: { name: 'priority', unit: '' },
});

export const PIDSTAT_SPEC: ToolSpec = {
  tool: 'pidstat',
  keys: lookupTable({ UID: '', USER: '', PID: 'pid', TGID: 'tgid', TID: 'tid', Command: 'command' }),
  columns: COLUMNS,
  pad: false,
  sinceBootPossible: true,
};

const HEADER = /^(?:#\s+Time\s+|\S+(?:\s+[AP]M)?\s+)(?:UID|USER)?\s*(?:PID|TGID)\s+(?:TID\s+)?(?:%usr|minflt\/s|kB_rd\/s|cswch\/s|StkSize|threads|prio)\b/;

export const pidstat: CaptureParser = {
  id: 'pidstat',
  title: 'pidstat (sysstat)',
  commands: [{ program: 'pidstat' }],
  detect(head) {
    for (const l of head) {
      const t = l.trim();
      if (HEADER.test(t)) return 0.97;
    }
    return 0;
  },
  open: (opts) => new TimeTableSink(PIDSTAT_SPEC, opts),
};
