/** Finding rules over settings and socket captures. Each rule is data: id, kinds, thresholds, evaluate. */
import type { FindingRule, Metric, ParsedCapture, RuleFinding } from '../../types';
import { num } from '../kit';
import { normalizeSpace } from './common';

/** Linux default net.ipv4.ip_local_port_range is 32768–60999. */
const DEFAULT_PORT_RANGE: readonly [number, number] = [32768, 60999];

function metric(c: ParsedCapture, name: string, labels?: Record<string, string>): Metric | undefined {
  return c.metrics.find((m) => m.name === name && (labels
    ? Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
    : !m.labels || Object.keys(m.labels).length === 0));
}

function evidence(m: Metric | undefined): string | undefined {
  if (!m?.lines) return undefined;
  return m.lines[0] === m.lines[1] ? `line ${m.lines[0]}` : `lines ${m.lines[0]}-${m.lines[1]}`;
}

function where(c: ParsedCapture): string { return c.file ? ` (${c.file})` : ''; }

function finding(f: RuleFinding, ev: string | undefined): RuleFinding {
  return ev ? { ...f, evidence: ev } : f;
}

/** TIME_WAIT sockets of an ss/netstat capture: listing count, else the ss -s "timewait" figure. */
function timeWait(c: ParsedCapture): Metric | undefined {
  return metric(c, 'sockets_total', { state: 'time_wait' }) ?? metric(c, 'tcp_timewait');
}

/** A sysctl setting from any sysctl capture of the experiment (the capture itself first). */
function sysctlSetting(all: readonly ParsedCapture[], key: string): { value: string; capture: ParsedCapture } | undefined {
  for (const c of all) {
    if (c.kind !== 'sysctl') continue;
    const v = c.settings[key];
    if (v !== undefined) return { value: v, capture: c };
  }
  return undefined;
}

const twRecycle: FindingRule = {
  id: 'net.tcp-tw-recycle',
  kinds: ['sysctl'],
  evaluate({ capture }) {
    const v = capture.settings['net.ipv4.tcp_tw_recycle'];
    if (v === undefined || !(num(v.trim()) > 0)) return [];
    return [finding({
      severity: 'critical',
      message: `net.ipv4.tcp_tw_recycle = ${v.trim()}: drops connections from clients behind NAT (per-host PAWS timestamp checks reject their SYNs), and the setting was removed in Linux 4.12. Set it to 0; to reuse TIME_WAIT sockets for outgoing connections use net.ipv4.tcp_tw_reuse = 1 instead.`,
    }, evidence(metric(capture, 'net_ipv4_tcp_tw_recycle')))];
  },
};

/** The limits of net.time-wait-near-port-range. */
const TIME_WAIT = {
  /** TIME_WAIT sockets ÷ local ports (net.ipv4.ip_local_port_range) from which the range is near full */
  minPortRangeShare: 0.5,
  /** TIME_WAIT sockets ÷ net.ipv4.tcp_max_tw_buckets from which the bucket table is near full */
  minTwBucketsShare: 0.5,
} as const;

const timeWaitNearPortRange: FindingRule = {
  id: 'net.time-wait-near-port-range',
  kinds: ['ss', 'netstat'],
  thresholds: TIME_WAIT,
  evaluate({ capture, all }) {
    const tw = timeWait(capture);
    if (!tw || tw.value <= 0) return [];
    const out: RuleFinding[] = [];
    const rangeSetting = sysctlSetting(all, 'net.ipv4.ip_local_port_range');
    let lo = DEFAULT_PORT_RANGE[0], hi = DEFAULT_PORT_RANGE[1];
    let source = `the Linux default ${lo}–${hi} (no sysctl capture with net.ipv4.ip_local_port_range in this experiment)`;
    if (rangeSetting) {
      const p = normalizeSpace(rangeSetting.value).split(' ').map((x) => num(x));
      const a = p[0], b = p[1];
      if (a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b >= a) {
        lo = a; hi = b;
        source = `net.ipv4.ip_local_port_range = ${lo} ${hi} from the sysctl capture${where(rangeSetting.capture)}`;
      }
    }
    const ports = hi - lo + 1;
    const share = tw.value / ports;
    if (share >= TIME_WAIT.minPortRangeShare) {
      out.push(finding({
        severity: 'warning',
        message: `${tw.value} sockets in TIME_WAIT = ${Math.round(share * 100)} % of the ${ports} local ports of ${source}. Outgoing connections to one destination run out of ephemeral ports when TIME_WAIT fills the range: reuse connections (keep-alive, pooling), widen the port range, or enable net.ipv4.tcp_tw_reuse.`,
      }, evidence(tw)));
    }
    const buckets = sysctlSetting(all, 'net.ipv4.tcp_max_tw_buckets');
    const max = buckets ? num(buckets.value.trim()) : NaN;
    if (Number.isFinite(max) && max > 0 && tw.value / max >= TIME_WAIT.minTwBucketsShare) {
      out.push(finding({
        severity: 'warning',
        message: `${tw.value} sockets in TIME_WAIT = ${Math.round((tw.value / max) * 100)} % of net.ipv4.tcp_max_tw_buckets = ${max}${buckets ? where(buckets.capture) : ''}; beyond it the kernel destroys TIME_WAIT sockets early ("TCP: time wait bucket table overflow").`,
      }, evidence(tw)));
    }
    return out;
  },
};

/** The limits of fd.ulimit-low. */
const ULIMIT_LOW = {
  /** the experiment's peak socket count ÷ nofile from which the limit is close (info) */
  infoSocketShare: 0.5,
  /** … and from which it is a warning */
  warnSocketShare: 0.8,
  /** a nofile limit at or below this is low for a server whatever the sockets (info) */
  maxLowNofile: 1024,
} as const;

const ulimitLow: FindingRule = {
  id: 'fd.ulimit-low',
  kinds: ['ulimit'],
  thresholds: ULIMIT_LOW,
  evaluate({ capture, all }) {
    const t = ULIMIT_LOW;
    const v = capture.settings.nofile;
    if (v === undefined) return [];
    const limit = num(v.trim());
    if (!Number.isFinite(limit)) return []; // unlimited
    // the largest socket count among the experiment's ss/netstat captures
    let best: { n: number; c: ParsedCapture; what: string } | undefined;
    for (const c of all) {
      if (c.kind !== 'ss' && c.kind !== 'netstat') continue;
      const m = metric(c, 'sockets_total') ?? metric(c, 'tcp_total');
      if (m && (!best || m.value > best.n)) best = { n: m.value, c, what: m.name === 'tcp_total' ? 'TCP sockets' : 'sockets' };
    }
    if (best && best.n >= limit * t.infoSocketShare) {
      return [{
        severity: best.n >= limit * t.warnSocketShare ? 'warning' : 'info',
        message: `open files limit (ulimit -n) is ${limit}, and the ${best.c.kind} capture${where(best.c)} shows ${best.n} ${best.what} (${Math.round((best.n / limit) * 100)} % of it). Each connection uses a file descriptor: raise nofile (LimitNOFILE=, /etc/security/limits.conf) above the peak connection count.`,
      }];
    }
    if (limit <= t.maxLowNofile) {
      return [{
        severity: 'info',
        message: `open files limit (ulimit -n) is ${limit}${best ? ` (${best.n} ${best.what} in the ${best.c.kind} capture)` : ''}: low for a server workload, where every connection and open file needs a descriptor; servers commonly run with 65536 or more.`,
      }];
    }
    return [];
  },
};

/** The limits of php.opcache-validate-timestamps. */
const OPCACHE_TIMESTAMPS = {
  /** opcache.revalidate_freq (seconds; PHP's default is 2) up to which timestamps are checked too often */
  maxRevalidateFreqSeconds: 2,
} as const;

const opcacheTimestamps: FindingRule = {
  id: 'php.opcache-validate-timestamps',
  kinds: ['ini'],
  thresholds: OPCACHE_TIMESTAMPS,
  evaluate({ capture }) {
    const s = capture.settings;
    const vt = s['opcache.validate_timestamps'];
    if (vt === undefined || !/^(1|on|true|yes)$/i.test(vt.trim())) return [];
    if (s['opcache.enable'] !== undefined && /^(0|off|false|no)$/i.test(s['opcache.enable'].trim())) return [];
    const rf = s['opcache.revalidate_freq'];
    const freq = rf === undefined ? 2 : num(rf.trim());
    if (!Number.isFinite(freq) || freq > OPCACHE_TIMESTAMPS.maxRevalidateFreqSeconds) return [];
    return [{
      severity: 'info',
      message: `opcache.validate_timestamps = ${vt.trim()} with opcache.revalidate_freq = ${rf === undefined ? '2 (default)' : freq}: PHP checks every cached script's timestamp ${freq === 0 ? 'on every request' : `every ${freq} s`}, a stat() per included file. With immutable deploys set opcache.validate_timestamps = 0 and reset the cache on deploy (or raise revalidate_freq).`,
    }];
  },
};

const listenOverflows: FindingRule = {
  id: 'net.listen-overflows',
  kinds: ['netstat'],
  evaluate({ capture, all }) {
    const o = metric(capture, 'tcp_listen_overflows');
    const d = metric(capture, 'tcp_listen_drops');
    const n = Math.max(o?.value ?? 0, d?.value ?? 0);
    if (n <= 0) return [];
    const somax = sysctlSetting(all, 'net.core.somaxconn');
    return [finding({
      severity: 'warning',
      message: `${o ? `${o.value} times the listen queue of a socket overflowed` : ''}${o && d ? ', ' : ''}${d ? `${d.value} SYNs to LISTEN sockets dropped` : ''} (netstat -s counts since boot): a server accepted connections more slowly than they arrived or its backlog is too small. Raise the listen() backlog of the server${somax ? ` and net.core.somaxconn (now ${somax.value.trim()})` : ' and net.core.somaxconn'}, or find why accept() lags.`,
    }, evidence(o ?? d))];
  },
};

/** The limits of net.retransmits. */
const RETRANSMITS = {
  /** retransmitted ÷ sent TCP segments from which loss shows (≈ 1 %) */
  minRatio: 0.01,
  /** fewer retransmitted segments than this are too few to judge by */
  minRetransmittedSegments: 100,
  /** retransmitted ÷ sent from which the finding is critical */
  criticalRatio: 0.05,
} as const;

const retransmits: FindingRule = {
  id: 'net.retransmits',
  kinds: ['netstat'],
  thresholds: RETRANSMITS,
  evaluate({ capture }) {
    const t = RETRANSMITS;
    const r = metric(capture, 'tcp_retransmit_ratio');
    const retr = metric(capture, 'tcp_segments_retransmitted');
    const sent = metric(capture, 'tcp_segments_sent');
    if (!r || !retr || !sent || r.value < t.minRatio || retr.value < t.minRetransmittedSegments) return [];
    return [finding({
      severity: r.value >= t.criticalRatio ? 'critical' : 'warning',
      message: `${retr.value} of ${sent.value} TCP segments were retransmitted (${(r.value * 100).toFixed(2)} %, netstat -s counts since boot): packet loss or overloaded receivers; above ~1 % throughput and latency suffer.`,
    }, evidence(r))];
  },
};

export const rules: FindingRule[] = [twRecycle, timeWaitNearPortRange, ulimitLow, opcacheTimestamps, listenOverflows, retransmits];
