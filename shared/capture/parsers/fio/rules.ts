import type { FindingRule, Metric, RuleFinding } from '../../types';

function range(m: Metric): string | undefined {
  return m.lines ? (m.lines[0] === m.lines[1] ? `line ${m.lines[0]}` : `lines ${m.lines[0]}-${m.lines[1]}`) : undefined;
}

function fmtS(s: number): string {
  if (s >= 1) return `${Number(s.toPrecision(4))} s`;
  if (s >= 1e-3) return `${Number((s * 1e3).toPrecision(4))} ms`;
  return `${Number((s * 1e6).toPrecision(4))} µs`;
}

const sameSeries = (a: Metric, b: Metric) =>
  a.labels?.direction === b.labels?.direction && a.labels?.phase === b.labels?.phase && a.labels?.job === b.labels?.job && a.labels?.group === b.labels?.group;

/** The limits of fio.latency-explodes. */
const LATENCY_EXPLODES = {
  /** I/Os in flight (iodepth × numjobs) from which the queue counts as large */
  minInFlight: 256,
  /** p99 ÷ p50 of clat/lat from which the latency counts as exploding */
  minP99OverP50: 10,
  /** a p99 above this many seconds explodes whatever the p50, and makes the finding critical */
  criticalP99Seconds: 1,
} as const;

/** Completion-latency percentiles exploding at a large queue (iodepth × numjobs ≥ 256). */
export const latencyExplodes: FindingRule = {
  id: 'fio.latency-explodes',
  kinds: ['fio'],
  thresholds: LATENCY_EXPLODES,
  evaluate({ capture }) {
    const t = LATENCY_EXPLODES;
    const qd = Number(capture.settings.iodepth);
    const nj = Number(capture.settings.numjobs ?? '1');
    if (!(qd > 0) || !(nj > 0) || qd * nj < t.minInFlight) return [];
    const out: RuleFinding[] = [];
    for (const p99 of capture.metrics) {
      if (p99.name !== 'latency_p99_seconds') continue;
      const phase = p99.labels?.phase;
      if (phase !== 'clat' && phase !== 'lat') continue;
      const p50 = capture.metrics.find((m) => m.name === 'latency_p50_seconds' && sameSeries(m, p99));
      const ratio = p50 && p50.value > 0 ? p99.value / p50.value : NaN;
      if (!(ratio >= t.minP99OverP50) && !(p99.value > t.criticalP99Seconds)) continue;
      const dir = p99.labels?.direction ?? '';
      const who = p99.labels?.job ? ` (job ${p99.labels.job})` : '';
      const f: RuleFinding = {
        severity: p99.value > t.criticalP99Seconds ? 'critical' : 'warning',
        message: `${dir} ${phase} p99 is ${fmtS(p99.value)}${p50 ? ` (p50 ${fmtS(p50.value)}, ${Number(ratio.toFixed(1))}×)` : ''}${who} with iodepth ${qd} × numjobs ${nj} = ${qd * nj} I/Os in flight: the queue is deeper than the device can serve, so requests wait; lower iodepth/numjobs to find the knee of the latency curve.`,
        labels: { ...(dir ? { direction: dir } : {}), phase },
      };
      const ev = p50 && p50.lines && p99.lines ? `lines ${Math.min(p50.lines[0], p99.lines[0])}-${Math.max(p50.lines[1], p99.lines[1])}` : range(p99);
      if (ev) f.evidence = ev;
      out.push(f);
    }
    return out;
  },
};

/** The limits of io.device-saturated (fio's Disk stats). */
const DEVICE_SATURATED = {
  /** the device's util from which it counts as saturated, % */
  minUtilPercent: 99,
} as const;

/** The disk fio ran against was (nearly) 100 % busy. */
export const deviceSaturated: FindingRule = {
  id: 'io.device-saturated',
  kinds: ['fio'],
  thresholds: DEVICE_SATURATED,
  evaluate({ capture }) {
    const out: RuleFinding[] = [];
    for (const m of capture.metrics) {
      if (m.name !== 'disk_util_percent' || !(m.value >= DEVICE_SATURATED.minUtilPercent)) continue;
      const dev = m.labels?.device ?? '?';
      const f: RuleFinding = {
        severity: 'warning',
        message: `device ${dev} was ${m.value}% busy during the fio run (Disk stats util): the device, not fio, sets the limit; more iodepth or jobs will mostly add latency.`,
        labels: { device: dev },
      };
      const ev = range(m);
      if (ev) f.evidence = ev;
      out.push(f);
    }
    return out;
  },
};

export const rules: FindingRule[] = [latencyExplodes, deviceSaturated];
