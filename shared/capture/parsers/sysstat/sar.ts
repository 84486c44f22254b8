/**
 * sar (sysstat), live (`sar -u 1 3`) or from a file (`sar -f saDD`): -u [ALL], -P, -q, -r [ALL],
 * -b, -d [-p] (with -p/--pretty the name is the last column), -n DEV/EDEV/TCP/ETCP/SOCK/IP…, -w, -W, -B,
 * -S, -I, and any other block by its column labels; several activities in one capture, each under
 * its own header; "Average:" blocks become metrics; "LINUX RESTART" and "COM" records go to
 * tables.records.
 */
import type { CaptureParser } from '../../types';
import { lookupTable } from '../kit';
import { TimeTableSink, CPU_PERCENT, type ColSpec, type ToolSpec } from './timeTable';
import { IOSTAT_COLUMNS } from './iostat';

const KB = 1024;

const OWN_COLUMNS: Record<string, ColSpec> = {
  ...CPU_PERCENT,
  // -n DEV
  'rxpck/s': { name: 'rx_packets_per_second', unit: '1/s' },
  'txpck/s': { name: 'tx_packets_per_second', unit: '1/s' },
  'rxkB/s': { name: 'rx_bytes_per_second', unit: 'B/s', mult: KB },
  'txkB/s': { name: 'tx_bytes_per_second', unit: 'B/s', mult: KB },
  'rxcmp/s': { name: 'rx_compressed_per_second', unit: '1/s' },
  'txcmp/s': { name: 'tx_compressed_per_second', unit: '1/s' },
  'rxmcst/s': { name: 'rx_multicast_per_second', unit: '1/s' },
  '%ifutil': { name: 'ifutil_percent', unit: '%' },
  // sysstat < 8.1 printed bytes: rxbyt/s txbyt/s
  'rxbyt/s': { name: 'rx_bytes_per_second', unit: 'B/s' },
  'txbyt/s': { name: 'tx_bytes_per_second', unit: 'B/s' },
  // -n TCP / ETCP
  'active/s': { name: 'tcp_active_opens_per_second', unit: '1/s' },
  'passive/s': { name: 'tcp_passive_opens_per_second', unit: '1/s' },
  'iseg/s': { name: 'tcp_segments_in_per_second', unit: '1/s' },
  'oseg/s': { name: 'tcp_segments_out_per_second', unit: '1/s' },
  'atmptf/s': { name: 'tcp_attempt_fails_per_second', unit: '1/s' },
  'estres/s': { name: 'tcp_established_resets_per_second', unit: '1/s' },
  'retrans/s': { name: 'tcp_retransmits_per_second', unit: '1/s' },
  'isegerr/s': { name: 'tcp_segments_in_errors_per_second', unit: '1/s' },
  'orsts/s': { name: 'tcp_resets_out_per_second', unit: '1/s' },
  // -n SOCK
  totsck: { name: 'sockets_total', unit: 'count' },
  tcpsck: { name: 'tcp_sockets', unit: 'count' },
  udpsck: { name: 'udp_sockets', unit: 'count' },
  rawsck: { name: 'raw_sockets', unit: 'count' },
  'ip-frag': { name: 'ip_fragments', unit: 'count' },
  'tcp-tw': { name: 'tcp_time_wait_sockets', unit: 'count' },
  // -q
  'runq-sz': { name: 'run_queue_size', unit: 'count' },
  'plist-sz': { name: 'process_list_size', unit: 'count' },
  'ldavg-1': { name: 'load_average_1m', unit: '' },
  'ldavg-5': { name: 'load_average_5m', unit: '' },
  'ldavg-15': { name: 'load_average_15m', unit: '' },
  blocked: { name: 'procs_blocked', unit: 'count' },
  // -r
  kbmemfree: { name: 'memory_free_bytes', unit: 'B', mult: KB },
  kbavail: { name: 'memory_available_bytes', unit: 'B', mult: KB },
  kbmemused: { name: 'memory_used_bytes', unit: 'B', mult: KB },
  '%memused': { name: 'memory_used_percent', unit: '%' },
  kbbuffers: { name: 'buffer_bytes', unit: 'B', mult: KB },
  kbcached: { name: 'cache_bytes', unit: 'B', mult: KB },
  kbcommit: { name: 'memory_commit_bytes', unit: 'B', mult: KB },
  '%commit': { name: 'memory_commit_percent', unit: '%' },
  kbactive: { name: 'memory_active_bytes', unit: 'B', mult: KB },
  kbinact: { name: 'memory_inactive_bytes', unit: 'B', mult: KB },
  kbdirty: { name: 'memory_dirty_bytes', unit: 'B', mult: KB },
  // -S
  kbswpfree: { name: 'swap_free_bytes', unit: 'B', mult: KB },
  kbswpused: { name: 'swap_used_bytes', unit: 'B', mult: KB },
  '%swpused': { name: 'swap_used_percent', unit: '%' },
  kbswpcad: { name: 'swap_cached_bytes', unit: 'B', mult: KB },
  // -b
  rtps: { name: 'reads_per_second', unit: '1/s' },
  wtps: { name: 'writes_per_second', unit: '1/s' },
  dtps: { name: 'discards_per_second', unit: '1/s' },
  'bread/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: 512 },
  'bwrtn/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: 512 },
  'bdscd/s': { name: 'discard_bytes_per_second', unit: 'B/s', mult: 512 },
  // -d (older layout)
  'rd_sec/s': { name: 'read_bytes_per_second', unit: 'B/s', mult: 512 },
  'wr_sec/s': { name: 'write_bytes_per_second', unit: 'B/s', mult: 512 },
  // -w / -W
  'proc/s': { name: 'processes_created_per_second', unit: '1/s' },
  'cswch/s': { name: 'context_switches_per_second', unit: '1/s' },
  'pswpin/s': { name: 'swap_pages_in_per_second', unit: '1/s' },
  'pswpout/s': { name: 'swap_pages_out_per_second', unit: '1/s' },
  // -B
  'pgpgin/s': { name: 'paged_in_bytes_per_second', unit: 'B/s', mult: KB },
  'pgpgout/s': { name: 'paged_out_bytes_per_second', unit: 'B/s', mult: KB },
  'fault/s': { name: 'page_faults_per_second', unit: '1/s' },
  'majflt/s': { name: 'major_faults_per_second', unit: '1/s' },
};

/** -d shares iostat's column labels (tps rkB/s wkB/s areq-sz aqu-sz await %util …): those sar's own do not name */
function iostatColumns(): Record<string, ColSpec> {
  const out: Record<string, ColSpec> = {};
  for (const [k, v] of Object.entries(IOSTAT_COLUMNS)) {
    if (Object.hasOwn(OWN_COLUMNS, k)) continue;
    out[k] = v.mult === 0.001 ? { name: v.name, unit: v.unit, div: 1000 } : { name: v.name, unit: v.unit, mult: v.mult === 1 ? undefined : v.mult };
  }
  return out;
}

export const SAR_COLUMNS = lookupTable({ ...OWN_COLUMNS, ...iostatColumns() });

export const INTERRUPTS: ColSpec = { name: 'interrupts_per_second', unit: '1/s' };

export const SAR_SPEC: ToolSpec = {
  tool: 'sar',
  keys: lookupTable({ CPU: 'cpu', IFACE: 'iface', DEV: 'device', TTY: 'tty', INTR: 'irq', NODE: 'node', FILESYSTEM: 'filesystem', MOUNTPOINT: 'mountpoint', BUS: 'bus', DEVICE: 'device', FCHOST: 'fchost' }),
  columns: SAR_COLUMNS,
  pad: true,
  sinceBootPossible: false,
  // -I (sysstat 12): "INTR all CPU0 CPU1" → interrupts per second {irq, cpu}
  unknown: (col) => (col === 'all' || /^CPU\d+$/.test(col) ? { spec: INTERRUPTS, labels: { cpu: col === 'all' ? 'all' : col.slice(3) } } : undefined),
};

const HEADER = /^\S+(?:\s+[AP]M)?\s+(?:CPU\s+%user\s+%nice\s+%system\s+%iowait\s+%steal\s+%idle|CPU\s+%usr\s+%nice\s+%sys\s+%iowait\s+%steal\s+%irq|IFACE\s+rxpck\/s|IFACE\s+rxerr\/s|IFACE\s+rxbyt\/s|DEV\s+tps\s|runq-sz\s+plist-sz|kbmemfree\s|tps\s+rtps\s|active\/s\s+passive\/s|atmptf\/s|proc\/s\s+cswch\/s|pswpin\/s|pgpgin\/s|totsck\s|kbswpfree\s|INTR\s+intr\/s)/;

/** -p / --pretty (sysstat 12): the device or interface name is the last column ("… %util DEV") */
const KEY_LAST = /^\S+(?:\s+[AP]M)?\s+(?:tps\s+rkB\/s\s+wkB\/s|tps\s+rd_sec\/s\s+wr_sec\/s|rxpck\/s\s+txpck\/s\s+rxkB\/s|rxerr\/s\s+txerr\/s\s+coll\/s)\s/;
const KEY_LAST_END = /\s(?:DEV|IFACE)$/;

export const sar: CaptureParser = {
  id: 'sar',
  title: 'sar (sysstat)',
  commands: [{ program: 'sar' }],
  detect(head) {
    let score = 0;
    for (const l of head) {
      const t = l.trim();
      if (HEADER.test(t) || (KEY_LAST.test(t) && KEY_LAST_END.test(t))) return 0.96;
      if (/^\S+(?:\s+[AP]M)?\s+LINUX RESTART/.test(t)) score = Math.max(score, 0.9);
    }
    return score;
  },
  open: (opts) => new TimeTableSink(SAR_SPEC, opts),
};
