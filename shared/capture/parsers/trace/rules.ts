/** Finding rules of the trace group (top, proc-interrupts, strace, perf). */
import type { FindingRule, Metric, ParsedCapture, RuleFinding, Series } from '../../types';
import { summarizeSeries } from '../../series';
import { evidence, pct } from './helpers';
import { lookupTable } from '../kit';

function seriesOf(c: ParsedCapture, name: string): Series[] {
  return c.series.filter((s) => s.name === name && (Array.isArray(s.values) || s.values instanceof Float64Array));
}

/** The limits of a top CPU share rule (the mean of the overall line, else of the busiest CPU, %). */
type CpuLimits = {
  /** from this mean a warning */
  readonly warnPercent: number;
  /** from this mean critical */
  readonly criticalPercent: number;
};

function cpuRule(id: string, seriesName: string, what: string, t: CpuLimits, advice: string): FindingRule {
  return {
    id,
    kinds: ['top'],
    thresholds: t,
    evaluate({ capture }): RuleFinding[] {
      const list = seriesOf(capture, seriesName);
      // the overall line first (no cpu label), then per-cpu lines
      const overall = list.find((s) => !s.labels?.cpu);
      const cand = overall ? [overall] : list;
      let worst: { s: Series; mean: number; max: number } | null = null;
      for (const s of cand) {
        const sum = summarizeSeries(s);
        if (sum.mean === null || sum.max === null) continue;
        if (!worst || sum.mean > worst.mean) worst = { s, mean: sum.mean, max: sum.max };
      }
      if (!worst || worst.mean < t.warnPercent) return [];
      const where = worst.s.labels?.cpu !== undefined ? ` on cpu ${worst.s.labels.cpu}` : '';
      const f: RuleFinding = {
        severity: worst.mean >= t.criticalPercent ? 'critical' : 'warning',
        message: `${what} averages ${pct(worst.mean)} %${where} (max ${pct(worst.max)} %). ${advice}`,
      };
      const ev = evidence(worst.s.lines);
      if (ev) f.evidence = ev;
      return [f];
    },
  };
}

const stealHigh = cpuRule('cpu.steal-high', 'cpu_steal_percent', 'CPU steal time', { warnPercent: 10, criticalPercent: 30 },
  'The hypervisor is giving this VM\'s CPU time to other guests: measurements are unstable; ask for dedicated vCPUs or a less loaded host.');
const iowaitHigh = cpuRule('cpu.iowait-high', 'cpu_iowait_percent', 'CPU iowait', { warnPercent: 20, criticalPercent: 50 },
  'CPUs sit idle waiting for disk I/O: look at iostat -x (await, %util) for the device that is saturated.');

/** The limits of cpu.sleeping-processes-busy. */
const SLEEPING_BUSY = {
  /** sleeping processes with %CPU > 0 in one frame from which they are many */
  minProcesses: 5,
} as const;

/** Sleeping processes (state S) that still show %CPU: busy workers that block between requests. */
const sleepingBusy: FindingRule = {
  id: 'cpu.sleeping-processes-busy',
  kinds: ['top'],
  thresholds: SLEEPING_BUSY,
  evaluate({ capture }): RuleFinding[] {
    const t = capture.tables?.processes;
    if (!t) return [];
    const iS = t.columns.includes('S') ? t.columns.indexOf('S') : t.columns.indexOf('STAT'); // STAT: BusyBox
    const iCpu = t.columns.indexOf('%CPU');
    const iCmd = t.columns.findIndex((c) => c === 'COMMAND' || c === 'Command');
    const iFrame = t.columns.indexOf('frame');
    if (iS < 0 || iCpu < 0) return [];
    const frames = new Map<number, { count: number; cpu: number; byCmd: Map<string, number> }>();
    for (const r of t.rows) {
      const cpu = r[iCpu];
      if (!String(r[iS]).startsWith('S') || typeof cpu !== 'number' || !(cpu > 0)) continue;
      const fr = typeof r[iFrame] === 'number' ? (r[iFrame] as number) : 1;
      let f = frames.get(fr);
      if (!f) { f = { count: 0, cpu: 0, byCmd: new Map() }; frames.set(fr, f); }
      f.count++;
      f.cpu += cpu;
      const cmd = iCmd >= 0 ? String(r[iCmd]).split(/\s/)[0]!.replace(/\+$/, '') : '?';
      f.byCmd.set(cmd, (f.byCmd.get(cmd) ?? 0) + 1);
    }
    const nFrames = new Set(t.rows.map((r) => r[iFrame])).size;
    // the first frame's %CPU is not an interval figure when there are more frames
    let best: [number, { count: number; cpu: number; byCmd: Map<string, number> }] | null = null;
    for (const [fr, f] of frames) {
      if (nFrames > 1 && fr === 1) continue;
      if (!best || f.count > best[1].count) best = [fr, f];
    }
    if (!best || best[1].count < SLEEPING_BUSY.minProcesses) return [];
    const cmds = [...best[1].byCmd.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([c, n]) => `${c} ×${n}`).join(', ');
    return [{
      severity: 'info',
      message: `${best[1].count} processes in state S (sleeping) still used CPU in frame ${best[0]} (${pct(best[1].cpu)} % together; ${cmds}): many workers each doing a little work and blocking in between, e.g. php-fpm children waiting on I/O or locks. Compare the worker count with the CPU count and look at what they wait on (strace -c, /proc/interrupts RES).`,
    }];
  },
};

// ---------------------------------------------------------------- interrupts

const IRQ_TEXT = lookupTable({
  RES: 'rescheduling IPIs: the scheduler is waking or moving tasks across CPUs, typically too many processes/threads competing for too few CPUs (e.g. a large php-fpm pool). Reduce the worker count towards the number of CPUs, or pin workers',
  CAL: 'function-call IPIs: cross-CPU work such as TLB or cache flushes and membarrier calls, often from many threads changing memory mappings',
  TLB: 'TLB shootdowns: memory mappings changing under many threads (munmap, mprotect, page migration)',
  LOC: 'local timer interrupts: normal scheduler ticks, expected to lead on a lightly loaded machine',
  NMI: 'non-maskable interrupts (perf counters or watchdog)',
});

function irqTotals(c: ParsedCapture, name: string): Map<string, { v: number; m: Metric }> {
  const out = new Map<string, { v: number; m: Metric }>();
  for (const m of c.metrics) if (m.name === name && m.labels?.irq) out.set(m.labels.irq, { v: m.value, m });
  return out;
}

/** The limits of irq.dominated-by. */
const IRQ_DOMINATED = {
  /** the top IRQ's share of all interrupts, %, above which it is a warning (LOC, the timer, stays info) */
  warnSharePercent: 50,
} as const;

const irqDominated: FindingRule = {
  id: 'irq.dominated-by',
  kinds: ['proc-interrupts'],
  thresholds: IRQ_DOMINATED,
  evaluate({ capture, all }): RuleFinding[] {
    let values = irqTotals(capture, 'interrupts_delta');
    let basis = 'between the snapshots';
    if (!values.size) {
      // single-snapshot captures of one experiment: this one minus the one taken just before it. Counters only
      // grow, so "before" is the capture whose every counter is <= ours, with the largest sum (any file order).
      const mine = irqTotals(capture, 'interrupts_total');
      let best: { c: ParsedCapture; d: Map<string, { v: number; m: Metric }>; sum: number } | null = null;
      for (const other of all) {
        if (other === capture || other.kind !== 'proc-interrupts' || other.metrics.some((m) => m.name === 'interrupts_delta')) continue;
        const a = irqTotals(other, 'interrupts_total');
        const d = new Map<string, { v: number; m: Metric }>();
        let ok = a.size > 0;
        let sum = 0;
        for (const [irq, x] of mine) {
          const y = a.get(irq);
          if (!y) continue;
          if (x.v < y.v) { ok = false; break; }
          d.set(irq, { v: x.v - y.v, m: x.m });
          sum += y.v;
        }
        let grew = false;
        for (const e of d.values()) if (e.v > 0) { grew = true; break; }
        if (ok && grew && (!best || sum > best.sum)) best = { c: other, d, sum };
      }
      if (best) { values = best.d; basis = `since ${best.c.file ?? 'the previous capture'}`; }
    }
    if (!values.size) { values = irqTotals(capture, 'interrupts_total'); basis = 'since boot'; }
    let total = 0;
    let top: [string, { v: number; m: Metric }] | null = null;
    for (const e of values) {
      total += e[1].v;
      if (!top || e[1].v > top[1].v) top = e;
    }
    if (!top || total <= 0) return [];
    const share = (top[1].v / total) * 100;
    const irq = top[0];
    const desc = top[1].m.labels?.description;
    // arm64 names its IPIs IPI0…IPI6 and describes them: map them to the x86 names
    const key = IRQ_TEXT[irq] ? irq : desc && /^Rescheduling interrupts/.test(desc) ? 'RES' : desc && /^Function call interrupts/.test(desc) ? 'CAL' : desc && /^Timer (broadcast )?interrupts/.test(desc) && /^IPI/.test(irq) ? 'LOC' : irq;
    const device = desc ? desc.split(' ').pop() : undefined;
    const why = IRQ_TEXT[key] ?? `device interrupts${device ? ` of ${device}` : ''}: the device (disk, NIC queue…) is busy; check that its queues are spread over CPUs (irqbalance, smp_affinity)`;
    const severity = share > IRQ_DOMINATED.warnSharePercent && key !== 'LOC' ? 'warning' : 'info';
    const f: RuleFinding = {
      severity,
      message: `IRQ ${irq}${desc ? ` (${desc})` : ''} makes up ${pct(share)} % of all interrupts ${basis} (${top[1].v} of ${total}): ${why}.`,
      labels: { irq },
    };
    const ev = evidence(top[1].m.lines);
    if (ev) f.evidence = ev;
    return [f];
  },
};

// ---------------------------------------------------------------- strace

const STAT_FAMILY = new Set(['stat', 'lstat', 'fstat', 'newfstatat', 'fstatat64', 'stat64', 'lstat64', 'fstat64', 'statx', 'access', 'faccessat', 'faccessat2', 'readlink', 'readlinkat']);

/** The limits of syscall.stat-storm. */
const STAT_STORM = {
  /** stat-like calls plus failed opens: fewer than this are too few to judge by */
  minCalls: 200,
  /** their share of all system calls, %, from which they are a storm (if they also outnumber every other syscall) */
  minSharePercent: 30,
  /** a share, %, from which the finding is a warning … */
  warnSharePercent: 50,
  /** … as is a share of failed ones among them, %, from this */
  warnFailedSharePercent: 30,
} as const;

const statStorm: FindingRule = {
  id: 'syscall.stat-storm',
  kinds: ['strace-summary', 'strace-log'],
  thresholds: STAT_STORM,
  evaluate({ capture }): RuleFinding[] {
    const t = STAT_STORM;
    let total = 0;
    let stat = 0;
    let statErr = 0;
    let openErr = 0;
    let enoent = 0;
    let lines: [number, number] | undefined;
    const tally: [string, number][] = [];
    for (const m of capture.metrics) {
      const sc = m.labels?.syscall;
      if (m.name === 'syscall_calls_total' && !sc) total = m.value;
      if (!sc || m.labels?.personality) continue;
      if (m.name === 'syscall_calls_total' && STAT_FAMILY.has(sc)) { stat += m.value; tally.push([sc, m.value]); if (m.lines) lines = lines ? [Math.min(lines[0], m.lines[0]), Math.max(lines[1], m.lines[1])] : [m.lines[0], m.lines[1]]; }
      if (m.name === 'syscall_errors_total' && STAT_FAMILY.has(sc)) statErr += m.value;
      if (m.name === 'syscall_errors_total' && (sc === 'openat' || sc === 'open')) openErr += m.value;
      if (m.name === 'syscall_errno_total' && m.labels?.errno === 'ENOENT' && (STAT_FAMILY.has(sc) || sc === 'open' || sc === 'openat')) enoent += m.value;
    }
    if (!total) total = capture.metrics.filter((m) => m.name === 'syscall_calls_total' && m.labels?.syscall && !m.labels.personality).reduce((a, m) => a + m.value, 0);
    const storm = stat + openErr;
    if (!total || storm < t.minCalls) return [];
    const share = (storm / total) * 100;
    // "dominating": the stat-like group outnumbers every other single syscall, and is a large share
    const biggestOther = capture.metrics.filter((m) => m.name === 'syscall_calls_total' && m.labels?.syscall && !m.labels.personality && !STAT_FAMILY.has(m.labels.syscall))
      .reduce((a, m) => Math.max(a, m.value), 0);
    if (share < t.minSharePercent || storm <= biggestOther) return [];
    const failed = statErr + openErr;
    const failedShare = (failed / storm) * 100;
    tally.sort((a, b) => b[1] - a[1]);
    const f: RuleFinding = {
      severity: share >= t.warnSharePercent || failedShare >= t.warnFailedSharePercent ? 'warning' : 'info',
      message: `${pct(share)} % of all system calls (${storm} of ${total}) are stat-like file checks (${tally.slice(0, 3).map(([s, n]) => `${s} ${n}`).join(', ')}${openErr ? `, failed opens ${openErr}` : ''})` +
        (failed ? `; ${failed} of them failed${enoent ? ` (${enoent} ENOENT)` : ''}` : '') +
        '. Checking the same files over and over means a cache is not doing its job. In PHP this is opcache revalidating file timestamps and include_path lookups that miss: set opcache.validate_timestamps=0 (deploy with a reload) or raise opcache.revalidate_freq, raise realpath_cache_size/realpath_cache_ttl, and use absolute include paths / an optimized autoloader.',
    };
    const ev = evidence(lines);
    if (ev) f.evidence = ev;
    return [f];
  },
};

export const rules: FindingRule[] = [stealHigh, iowaitHigh, sleepingBusy, irqDominated, statStorm];

