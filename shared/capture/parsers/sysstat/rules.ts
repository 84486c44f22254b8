/**
 * Finding rules over sysstat / procps captures. Each rule states the figures it saw.
 */
import type { FindingContext, FindingRule, RuleFinding, Series } from '../../types';
import { median, medianInPlace } from '../../../stats';
import { statSum, statSumAll } from '../../series';

/** interval samples only (the since-boot report is left out), finite values */
function intervalValues(s: Series): number[] {
  const out: number[] = [];
  for (let i = s.firstSampleSinceBoot ? 1 : 0; i < s.values.length; i++) {
    const v = s.values[i]!;
    if (Number.isFinite(v)) out.push(v);
  }
  return out;
}

/**
 * Count, mean and max of the interval samples (finite only). Exact for a thinned series too: taken
 * from its `stats`, which cover every sample, not only the kept points.
 */
function intervalFigures(s: Series): { n: number; mean: number; max: number } {
  const st = s.stats;
  if (st) {
    const withFirst = !s.firstSampleSinceBoot && st.first !== null;
    const n = st.n + (withFirst ? 1 : 0);
    const max = withFirst ? (st.n && st.max! > st.first! ? st.max! : st.first!) : st.max ?? NaN;
    return { n, mean: n ? (withFirst ? statSumAll(st) : statSum(st)) / n : NaN, max };
  }
  const v = intervalValues(s);
  let max = -Infinity;
  for (const x of v) if (x > max) max = x;
  return { n: v.length, mean: mean(v), max: v.length ? max : NaN };
}

function mean(a: number[]): number {
  let s = 0;
  for (const v of a) s += v;
  return a.length ? s / a.length : NaN;
}

/** 2199 → "2,200"; 8808 → "8,810"; 4.04 → "4.04" (3 significant digits, thousands separators) */
export function approx(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const r = Number(v.toPrecision(3));
  return r.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

function evidence(...ss: (Series | undefined)[]): string | undefined {
  let a = Infinity, b = -Infinity;
  for (const s of ss) if (s?.lines) { a = Math.min(a, s.lines[0]); b = Math.max(b, s.lines[1]); }
  return Number.isFinite(a) ? `lines ${a}-${b}` : undefined;
}

function find(list: readonly Series[], name: string, labels?: Record<string, string>): Series | undefined {
  return list.find((s) => s.name === name && (!labels || Object.entries(labels).every(([k, v]) => s.labels?.[k] === v)));
}

function devicesOf(list: readonly Series[], name: string): Series[] {
  return list.filter((s) => s.name === name && s.labels?.device !== undefined);
}

const KIB = 1024;

/** What writeSizes counts as a device that writes (io.random-writes and io.sequential-writes). */
type WritingLimits = {
  /** a sample with fewer writes per second than this is left out (no writes in it) */
  readonly minSampleWritesPerSecond: number;
  /** a device writing fewer times per second than this on average (over its samples with writes) is idle */
  readonly minWritesPerSecond: number;
};

type WriteSize = { s: Series; b: Series; perWrite: number; wps: number; kbps: number; n: number };

/**
 * writeSizes of one evaluation of a capture's findings (its context: findingsOf gives every rule the
 * same), by the limits they were taken with: io.random-writes and io.sequential-writes take the same
 */
const writeSizesSeen = new WeakMap<FindingContext, Map<string, WriteSize[]>>();

/** scratch arrays for the samples whose medians are taken (sorted in place), reused from device to device */
let scratchW = new Float64Array(0), scratchB = new Float64Array(0);

/** Request size per write from write bytes ÷ writes over the interval samples with writes. */
function writeSizes(ctx: FindingContext, t: WritingLimits): WriteSize[] {
  const key = `${t.minSampleWritesPerSecond} ${t.minWritesPerSecond}`;
  let seen = writeSizesSeen.get(ctx);
  if (seen === undefined) writeSizesSeen.set(ctx, seen = new Map());
  let out = seen.get(key);
  if (out === undefined) seen.set(key, out = takeWriteSizes(ctx, t));
  return out;
}

function takeWriteSizes(ctx: FindingContext, t: WritingLimits): WriteSize[] {
  const out = [];
  const list = ctx.capture.series;
  for (const w of devicesOf(list, 'writes_per_second')) {
    const b = find(list, 'write_bytes_per_second', { device: w.labels!.device! });
    if (!b) continue;
    const start = w.firstSampleSinceBoot ? 1 : 0;
    let sw = 0, sb = 0, n = 0;
    const wv = w.values, bv = b.values;
    const end = Math.min(wv.length, bv.length);
    if (scratchW.length < end) { scratchW = new Float64Array(end); scratchB = new Float64Array(end); }
    const ws = scratchW, bs = scratchB;
    for (let i = start; i < end; i++) {
      const x = wv[i]!, y = bv[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y) || x < t.minSampleWritesPerSecond) continue;
      sw += x; sb += y; ws[n] = x; bs[n] = y; n++;
    }
    if (n === 0 || sw < t.minWritesPerSecond * Math.max(1, n)) continue; // idle device
    out.push({ s: w, b, perWrite: sb / sw, wps: medianInPlace(ws.subarray(0, n)), kbps: medianInPlace(bs.subarray(0, n)) / KIB, n });
  }
  return out;
}

/** The limits of io.random-writes. */
const RANDOM_WRITES = {
  /** bytes per write (wkB/s ÷ w/s) up to which writes are small (random) */
  maxBytesPerWrite: 8 * KIB,
  /** samples with fewer writes per second are left out */
  minSampleWritesPerSecond: 1,
  /** a device with fewer writes per second on average is idle */
  minWritesPerSecond: 10,
} as const;

const randomWrites: FindingRule = {
  id: 'io.random-writes',
  kinds: ['iostat'],
  thresholds: RANDOM_WRITES,
  evaluate(ctx) {
    const out: RuleFinding[] = [];
    for (const x of writeSizes(ctx, RANDOM_WRITES)) {
      if (x.perWrite > RANDOM_WRITES.maxBytesPerWrite) continue;
      const dev = x.s.labels!.device!;
      out.push({
        severity: 'info', labels: { device: dev },
        message: `${dev}: w/s ≈ ${approx(x.wps)}, wkB/s ≈ ${approx(x.kbps)}: ${(x.perWrite / KIB).toFixed(1)} KiB per write over ${x.n} samples — small (random) writes; IOPS, not bandwidth, is the limit`,
        ...(evidence(x.s, x.b) ? { evidence: evidence(x.s, x.b)! } : {}),
      });
    }
    return out;
  },
};

/** The limits of io.sequential-writes. */
const SEQUENTIAL_WRITES = {
  /** bytes per write (wkB/s ÷ w/s) from which writes are large (sequential, merged) */
  minBytesPerWrite: 32 * KIB,
  /** samples with fewer writes per second are left out */
  minSampleWritesPerSecond: 1,
  /** a device with fewer writes per second on average is idle */
  minWritesPerSecond: 10,
} as const;

const sequentialWrites: FindingRule = {
  id: 'io.sequential-writes',
  kinds: ['iostat'],
  thresholds: SEQUENTIAL_WRITES,
  evaluate(ctx) {
    const out: RuleFinding[] = [];
    for (const x of writeSizes(ctx, SEQUENTIAL_WRITES)) {
      if (x.perWrite < SEQUENTIAL_WRITES.minBytesPerWrite) continue;
      const dev = x.s.labels!.device!;
      const merges = find(ctx.capture.series, 'write_merges_per_second', { device: dev });
      const mv = merges ? median(intervalValues(merges)) : NaN;
      out.push({
        severity: 'info', labels: { device: dev },
        message: `${dev}: w/s ≈ ${approx(x.wps)}, wkB/s ≈ ${approx(x.kbps)}${Number.isFinite(mv) && mv > 0 ? `, wrqm/s ≈ ${approx(mv)}` : ''}: ${(x.perWrite / KIB).toFixed(1)} KiB per write over ${x.n} samples — large (sequential, merged) writes`,
        ...(evidence(x.s, x.b) ? { evidence: evidence(x.s, x.b)! } : {}),
      });
    }
    return out;
  },
};

/** The limits of io.device-saturated (iostat). */
const DEVICE_SATURATED = {
  /** %util from which a sample counts as busy */
  busyUtilPercent: 99,
  /** busy samples ÷ interval samples that must be exceeded (more than half) */
  minBusyShare: 0.5,
  /** fewer interval samples than this are too few to judge by */
  minSamples: 2,
} as const;

const deviceSaturated: FindingRule = {
  id: 'io.device-saturated',
  kinds: ['iostat'],
  thresholds: DEVICE_SATURATED,
  evaluate(ctx) {
    const t = DEVICE_SATURATED;
    const out: RuleFinding[] = [];
    for (const u of devicesOf(ctx.capture.series, 'util_percent')) {
      const v = intervalValues(u);
      if (v.length < t.minSamples) continue;
      const busy = v.filter((x) => x >= t.busyUtilPercent).length;
      if (busy <= v.length * t.minBusyShare) continue;
      const dev = u.labels!.device!;
      const q = find(ctx.capture.series, 'avg_queue_size', { device: dev });
      const qv = q ? median(intervalValues(q)) : NaN;
      out.push({
        severity: 'warning', labels: { device: dev },
        message: `${dev}: %util ≥ 99 % in ${busy} of ${v.length} samples (mean ${mean(v).toFixed(1)} %)${Number.isFinite(qv) ? `, queue ≈ ${approx(qv)}` : ''}: the device is busy all the time (on SSD/NVMe %util can reach 100 % before the device's limit)`,
        ...(evidence(u) ? { evidence: evidence(u)! } : {}),
      });
    }
    return out;
  },
};

function cpuCount(ctx: FindingContext): number | undefined {
  const own = ctx.capture.facts.cpu_threads;
  if (typeof own === 'number' && own > 0) return own;
  for (const c of ctx.all) {
    const v = c.facts.cpu_threads;
    if (typeof v === 'number' && v > 0) return v;
  }
  return undefined;
}

/** The limits of cpu.context-switches-high (medians of the interval samples). */
const CONTEXT_SWITCHES = {
  /** context switches per CPU per second above which they are many (when the CPU count is known) */
  maxPerCpuPerSecond: 5000,
  /** context switches per second above which they are many (when the CPU count is not known) */
  maxPerSecond: 20000,
  /** interrupts per second above which interrupts can be heavy … */
  minInterruptsPerSecond: 5000,
  /** … when they also exceed the context switches by this factor */
  minInterruptsPerContextSwitch: 1.5,
} as const;

const contextSwitches: FindingRule = {
  id: 'cpu.context-switches-high',
  kinds: ['vmstat', 'sar'],
  thresholds: CONTEXT_SWITCHES,
  evaluate(ctx) {
    const t = CONTEXT_SWITCHES;
    const list = ctx.capture.series;
    const cs = list.find((s) => s.name === 'context_switches_per_second' && !s.labels);
    if (!cs) return [];
    const cv = intervalValues(cs);
    if (!cv.length) return [];
    const csm = median(cv);
    const inS = list.find((s) => s.name === 'interrupts_per_second' && !s.labels);
    const im = inS ? median(intervalValues(inS)) : NaN;
    const cpus = cpuCount(ctx);
    const perCpu = cpus ? csm / cpus : NaN;
    const highCs = cpus ? perCpu > t.maxPerCpuPerSecond : csm > t.maxPerSecond;
    const irqHeavy = Number.isFinite(im) && im > t.minInterruptsPerSecond && im > t.minInterruptsPerContextSwitch * csm;
    if (!highCs && !irqHeavy) return [];
    const parts = [`cs ≈ ${approx(csm)}/s`];
    if (Number.isFinite(im)) parts.push(`in ≈ ${approx(im)}/s`);
    let msg = parts.join(' and ');
    if (cpus) msg += ` on ${cpus} CPUs (${approx(perCpu)} context switches per CPU per second)`;
    if (irqHeavy) msg += `; interrupts outnumber context switches ${(im / csm).toFixed(1)}:1 — look at /proc/interrupts (rescheduling IPIs RES, timer LOC, the NIC)`;
    if (highCs) msg += '; many context switches: too many runnable threads/processes for the CPUs, or lock/IO contention';
    return [{ severity: 'warning', message: msg, ...(evidence(cs, inS) ? { evidence: evidence(cs, inS)! } : {}) }];
  },
};

/** the whole-machine CPU series for a name: unlabelled (vmstat, iostat) or cpu="all" (mpstat, sar) */
function machineCpu(list: readonly Series[], name: string): Series | undefined {
  return list.find((s) => s.name === name && (!s.labels || (s.labels.cpu === 'all' && Object.keys(s.labels).length === 1)));
}

/** The limits of a whole-machine CPU share rule (the mean of the interval samples, %). */
type CpuShareLimits = {
  /** from this mean a warning */
  readonly warnPercent: number;
  /** from this mean critical */
  readonly criticalPercent: number;
};

function cpuShareRule(id: string, name: string, what: string, t: CpuShareLimits, advice: string): FindingRule {
  return {
    id,
    kinds: ['vmstat', 'mpstat', 'sar', 'iostat'],
    thresholds: t,
    evaluate(ctx) {
      const s = machineCpu(ctx.capture.series, name);
      if (!s) return [];
      const { n, mean: m, max: mx } = intervalFigures(s);
      if (!n) return [];
      if (m < t.warnPercent) return [];
      return [{
        severity: m >= t.criticalPercent ? 'critical' : 'warning',
        message: `${what} (${s.column}) averages ${m.toFixed(1)} % over ${n} samples (max ${mx.toFixed(1)} %): ${advice}`,
        ...(evidence(s) ? { evidence: evidence(s)! } : {}),
      }];
    },
  };
}

const iowaitHigh = cpuShareRule('cpu.iowait-high', 'cpu_iowait_percent', 'CPU time waiting for I/O', { warnPercent: 20, criticalPercent: 40 },
  'the CPUs sit idle waiting for the disks; look at iostat -x (await, %util) for the device');
const stealHigh = cpuShareRule('cpu.steal-high', 'cpu_steal_percent', 'CPU time stolen by the hypervisor', { warnPercent: 10, criticalPercent: 20 },
  'the VM does not get the CPU it asks for (noisy neighbours or CPU credits); results on this host vary');

export const rules: FindingRule[] = [randomWrites, sequentialWrites, deviceSaturated, contextSwitches, iowaitHigh, stealHigh];
