/**
 * What each finding means and what is usually tried next, with the effect to expect and the risk,
 * and — where one config change is the usual first step — that step as a planned experiment the
 * user can add in one click. Keyed by the finding rules' ids (shared/capture/parsers/<group>/rules.ts);
 * a test checks every rule has an entry.
 */
import type { ConfigChangeInput } from './model';

export interface Advice {
  /** what the finding says about the system, in a sentence */
  meaning: string;
  /** what is usually tried next */
  tryNext: string;
  /** the effect to expect when it is the cause */
  effect: string;
  /** what can go wrong */
  risk: string;
  /** the first step as a planned experiment: its title and config changes */
  plan?: { title: string; changes: (Partial<ConfigChangeInput> & { key: string })[] };
}

export const FINDING_ADVICE: Readonly<Record<string, Advice>> = {
  'syscall.stat-storm': {
    meaning: 'The process checks the same files again and again (stat, access, failed opens): a cache that should remember them is not doing its job.',
    tryNext: 'For PHP: opcache with validate_timestamps off (deploy with a reload of PHP-FPM), a larger realpath cache, absolute include paths and an optimized autoloader.',
    effect: 'Fewer system calls per request; in the PHP health-check case study this took 140 to 205 req/s.',
    risk: 'With timestamps not checked, changed PHP files are not picked up until PHP-FPM is reloaded: make the reload part of every deploy.',
    plan: {
      title: 'opcache: stop revalidating timestamps',
      changes: [{ scope: 'php.ini', key: 'opcache.validate_timestamps', before: '1', after: '0', why: 'stat() on every request (syscall.stat-storm)' }],
    },
  },
  'php.opcache-validate-timestamps': {
    meaning: 'opcache checks every script file\'s timestamp on each request (or every revalidate_freq seconds).',
    tryNext: 'Turn validate_timestamps off in production and reload PHP-FPM on deploy.',
    effect: 'The stat() calls per request go away; throughput rises when they were a visible share of the time.',
    risk: 'A deploy that does not reload PHP-FPM keeps serving the old code.',
    plan: {
      title: 'opcache: validate_timestamps off',
      changes: [{ scope: 'php.ini', key: 'opcache.validate_timestamps', before: '1', after: '0', why: 'no timestamp checks in production' }],
    },
  },
  'net.time-wait-near-port-range': {
    meaning: 'Sockets in TIME_WAIT are close to the number of local ports: new outgoing connections will soon fail to find a free port.',
    tryNext: 'Reuse connections (HTTP keep-alive, connection pools); allow reusing TIME_WAIT sockets for outgoing connections (net.ipv4.tcp_tw_reuse=1); widen net.ipv4.ip_local_port_range. Never tcp_tw_recycle.',
    effect: 'Outgoing connections stop failing or stalling under load; in the Python case study this step took 22k to 50k QPS.',
    risk: 'A wider port range can collide with services listening on high ports; tcp_tw_reuse applies to outgoing connections only and relies on TCP timestamps.',
    plan: {
      title: 'TIME_WAIT: reuse sockets, widen the port range',
      changes: [
        { scope: 'sysctl', key: 'net.ipv4.tcp_tw_reuse', before: '0', after: '1', why: 'TIME_WAIT near the port range' },
        { scope: 'sysctl', key: 'net.ipv4.ip_local_port_range', before: '32768 60999', after: '1024 65000', why: 'more ephemeral ports' },
      ],
    },
  },
  'net.tcp-tw-recycle': {
    meaning: 'net.ipv4.tcp_tw_recycle is on: it drops connections from clients behind NAT (their timestamps interleave), and Linux 4.12 removed it.',
    tryNext: 'Turn it off; use tcp_tw_reuse and keep-alive instead.',
    effect: 'Clients behind NAT stop seeing random connection failures.',
    risk: 'None known; the setting does not exist on newer kernels.',
    plan: {
      title: 'tcp_tw_recycle off',
      changes: [{ scope: 'sysctl', key: 'net.ipv4.tcp_tw_recycle', before: '1', after: '0', why: 'breaks clients behind NAT; removed in Linux 4.12' }],
    },
  },
  'fd.ulimit-low': {
    meaning: 'The open-files limit is low for a server: each connection and each file takes a descriptor, and "too many open files" errors follow.',
    tryNext: 'Raise nofile for the service (systemd LimitNOFILE, /etc/security/limits.conf, ulimit -n) above the connections it must hold.',
    effect: 'No more EMFILE errors under load; in the Python case study this was one step towards 50k QPS.',
    risk: 'Each descriptor costs a little kernel memory; a leak takes longer to notice.',
    plan: {
      title: 'ulimit -n 100001',
      changes: [{ scope: 'ulimit', key: 'nofile', before: '1024', after: '100001', why: 'open-files limit too low (fd.ulimit-low)' }],
    },
  },
  'io.random-writes': {
    meaning: 'Writes are small and scattered (the request size is near 4 KiB): the disk spends its time seeking or, on a virtual disk, on per-request overhead.',
    tryNext: 'Batch writes or append them (a log, a write-ahead buffer); a larger block size or queue depth where the application allows it.',
    effect: 'On the vda disk of the fio case study, sequential 4 KiB writes gave 43.0k IOPS against 2,197 for random ones.',
    risk: 'Batching adds latency to each write and loses more on a crash unless flushed.',
  },
  'io.sequential-writes': {
    meaning: 'Writes are large or consecutive: the disk works at its streaming rate.',
    tryNext: 'Nothing, unless the bandwidth is below the device\'s: then look at the queue depth and the file system.',
    effect: '—',
    risk: '—',
  },
  'io.device-saturated': {
    meaning: 'The device is busy nearly all the time (%util near 100) with requests waiting: it is the bottleneck.',
    tryNext: 'Fewer or larger requests (caching, batching), a faster disk or more of them; check await against the device\'s normal latency.',
    effect: 'Lower request latency and higher throughput for the work that waits on the disk.',
    risk: 'On SSDs and virtual disks %util overstates saturation: confirm with await and the queue size.',
  },
  'irq.dominated-by': {
    meaning: 'One interrupt source dominates. Rescheduling IPIs (RES) mean processes keep waking each other across CPUs: many short-lived or ping-ponging processes.',
    tryNext: 'Fewer processes or workers that wake each other (for PHP-FPM, pm.max_children nearer the CPU count), persistent connections instead of one per request, CPU affinity for the busiest ones.',
    effect: 'Less time switching contexts, more for the work itself.',
    risk: 'Too few workers leaves CPUs idle when requests block on I/O.',
  },
  'cpu.context-switches-high': {
    meaning: 'The CPUs switch between tasks very often: many runnable processes or threads competing, or much blocking I/O.',
    tryNext: 'Fewer workers, or connection reuse; look at which processes switch most (pidstat -w).',
    effect: 'More CPU for useful work.',
    risk: 'Fewer workers may leave CPUs idle when work blocks.',
  },
  'cpu.iowait-high': {
    meaning: 'CPUs are idle while waiting for I/O: the disk (or network storage) is what the work waits on.',
    tryNext: 'Find the device (iostat -x) and the process (pidstat -d); cache, batch or move the I/O.',
    effect: 'Shorter waits once the I/O is cheaper.',
    risk: 'iowait is idle time: it is a hint about the disk, not a CPU problem.',
  },
  'cpu.steal-high': {
    meaning: 'The hypervisor gives this virtual machine\'s CPU time to others: the host is oversubscribed.',
    tryNext: 'A larger or dedicated instance, or another host.',
    effect: 'CPU time the guest was promised comes back.',
    risk: 'Measurements taken under steal are noisy: compare runs at the same time of day.',
  },
  'cpu.sleeping-processes-busy': {
    meaning: 'Processes shown as sleeping still use CPU between samples: many short bursts, typical of workers woken per request.',
    tryNext: 'Look at what wakes them (strace -c, perf record -g); fewer wake-ups per request.',
    effect: 'Less scheduling overhead.',
    risk: '—',
  },
  'net.listen-overflows': {
    meaning: 'The listen queue overflowed: connections were dropped before the server accepted them.',
    tryNext: 'A larger accept backlog (net.core.somaxconn and the server\'s own backlog), and a server that accepts faster.',
    effect: 'No more dropped connections at bursts of load.',
    risk: 'A long queue hides a server that is too slow: latency grows instead of errors.',
    plan: {
      title: 'larger accept backlog',
      changes: [{ scope: 'sysctl', key: 'net.core.somaxconn', before: '128', after: '4096', why: 'listen queue overflows' }],
    },
  },
  'net.retransmits': {
    meaning: 'TCP retransmits segments: packets are lost or delayed on the way.',
    tryNext: 'Check the network path (interface errors in netstat -i, drops), buffer sizes, and whether the peer is overloaded.',
    effect: 'Lower tail latency once losses stop.',
    risk: '—',
  },
  'load.ab-failed-requests': {
    meaning: 'ab counted failed requests: connections refused or reset, or responses of another length than the first (ab\'s "Length" failures are often harmless for dynamic pages).',
    tryNext: 'Look at which kind failed; for Length failures of dynamic pages, run with -l.',
    effect: 'A result that counts only real failures.',
    risk: '—',
  },
  'load.errors': {
    meaning: 'The load generator saw errors: the measured throughput includes failures.',
    tryNext: 'Find the error type (connect, read, timeout, status) before comparing throughput.',
    effect: 'Results compared on successful requests only.',
    risk: '—',
  },
  'load.non2xx': {
    meaning: 'Some responses were not 2xx: the server answered, but with errors or redirects.',
    tryNext: 'Check the server\'s error log and the status codes.',
    effect: 'Throughput that means what it says.',
    risk: '—',
  },
  'fio.latency-explodes': {
    meaning: 'The high percentiles of latency are far above the median: a few requests wait very long (queueing, garbage collection in the SSD, throttling of the virtual disk).',
    tryNext: 'A lower queue depth, or look for throttling limits of the virtual disk (IOPS or bandwidth caps).',
    effect: 'A tail latency closer to the median.',
    risk: 'Lower queue depth can lower the peak IOPS.',
  },
};

export function adviceFor(findingId: string): Advice | undefined {
  return FINDING_ADVICE[findingId];
}
