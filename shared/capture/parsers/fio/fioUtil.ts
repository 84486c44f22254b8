/** Small helpers shared by the fio readers (normal, json, terse). Pure; never throw. */
import type { Metric, Unit } from '../../types';
import { lookupTable, metric, type MetricOptions } from '../kit';

/** "43.0k" → 43000, "2197" → 2197, "1.2M" → 1.2e6 (fio's num2str uses base 1000 for counts). */
export function fioCount(s: string | undefined): number {
  if (s === undefined) return NaN;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKMGT]?)\s*$/.exec(s);
  if (!m) return NaN;
  const mult = m[2] === '' ? 1 : m[2] === 'k' || m[2] === 'K' ? 1e3 : m[2] === 'M' ? 1e6 : m[2] === 'G' ? 1e9 : 1e12;
  return Number(m[1]) * mult;
}

/**
 * fio sizes: "8788KiB" (IEC, 1024), "8999kB" (SI, 1000), "173MiB", "4096B", "4k".
 * fio 2.x printed "KB"/"MB" meaning 1024 (kb_base=1024): pass legacy = true for those.
 * A trailing "/s" is ignored.
 */
export function fioSize(s: string | undefined, legacy = false): number {
  if (s === undefined) return NaN;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*?)(?:\/s)?\s*$/.exec(s);
  if (!m) return NaN;
  const v = Number(m[1]);
  const u = m[2]!;
  if (u === '' || u === 'B' || u === 'b') return v;
  const p = 'KMGTPE'.indexOf(u[0]!.toUpperCase());
  if (p < 0) return NaN;
  const rest = u.slice(1);
  if (rest !== '' && rest !== 'i' && rest !== 'iB' && rest !== 'B' && rest !== 'b') return NaN;
  const binary = rest.startsWith('i') || rest === '' || legacy;
  return v * (binary ? 1024 : 1000) ** (p + 1);
}

export const TIME_UNIT = lookupTable({ nsec: 1e-9, ns: 1e-9, usec: 1e-6, us: 1e-6, msec: 1e-3, ms: 1e-3, sec: 1, s: 1 });

/** Round away binary floating-point noise (1733090.60 usec → 1.7330906 s, not 1.7330906000000001). */
export function clean(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  return Number(v.toPrecision(12));
}

/** 99.9 → "p99_9", 50 → "p50", 99.99 → "p99_99". */
export function pctName(p: number): string {
  return 'p' + String(clean(p)).replace('.', '_');
}

export const DIRS = ['read', 'write', 'trim'] as const;

/** Collects metrics for one job (or group) report; labels get job/group at the end when needed. */
export interface JobReport {
  name: string;
  group: string;
  metrics: Metric[];
  first: number;
  last: number;
}

/**
 * The kit's metric as fio's readers make them: null for a figure that did not read (not finite),
 * bytes rounded to whole bytes and other values rid of float noise (clean).
 */
export function fioMetric(name: string, value: number, unit: Unit, opts: MetricOptions): Metric | null {
  if (!Number.isFinite(value)) return null;
  return metric(name, unit === 'B' || unit === 'B/s' ? Math.round(value) : clean(value), unit, opts);
}

export function push(list: Metric[], m: Metric | null): void {
  if (m) list.push(m);
}

/**
 * Give every job report its job/group labels when there is more than one report; repeated
 * names (numjobs without group_reporting print one section per clone, all with the same name)
 * get "#2", "#3" … in order.
 */
export function finishJobs(jobs: readonly JobReport[]): Metric[] {
  const out: Metric[] = [];
  if (jobs.length === 1) {
    for (const m of jobs[0]!.metrics) out.push(m);
    return out;
  }
  const seen = new Map<string, number>();
  for (const j of jobs) {
    const key = j.group + '\u0000' + j.name;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const job = n === 1 ? j.name : `${j.name}#${n}`;
    for (const m of j.metrics) { m.labels = { ...m.labels, job, group: j.group }; out.push(m); }
  }
  return out;
}

/** Parse "key=value" pairs separated by commas: "min=3, max=1005.2k, avg=28669.67" → map. */
export function kvPairs(s: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of s.split(',')) {
    // the last bucket of "IO depths" and "lat (usec)" is ">=64=90.9%": its key is ">=64"
    const ge = part.indexOf('>=');
    const eq = part.indexOf('=', ge >= 0 && part.slice(0, ge).trim() === '' ? ge + 2 : 0);
    if (eq <= 0) continue;
    out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** Split a fio command line into options: "-iodepth=64 --rw randwrite -group_reporting" → map. */
export function commandOptions(cmd: string): Map<string, string> {
  const out = new Map<string, string>();
  const words = cmd.trim().split(/\s+/);
  let i = 0;
  // skip up to the fio word
  while (i < words.length && !/(^|\/)fio$/.test(words[i]!)) i++;
  for (i++; i < words.length; i++) {
    const w = words[i]!.replace(/^["']|["']$/g, '');
    if (!w.startsWith('-')) continue;
    const body = w.replace(/^--?/, '');
    const eq = body.indexOf('=');
    if (eq > 0) out.set(body.slice(0, eq), body.slice(eq + 1).replace(/^["']|["']$/g, ''));
    else if (body) {
      const next = words[i + 1];
      // "--rw randwrite" style (fio's getopt accepts it for options that take values)
      if (next !== undefined && !next.startsWith('-') && VALUE_OPTS.has(body)) { out.set(body, next); i++; } else out.set(body, '1');
    }
  }
  return out;
}

const VALUE_OPTS = new Set(['rw', 'readwrite', 'bs', 'blocksize', 'ioengine', 'iodepth', 'numjobs', 'direct', 'size', 'runtime', 'name', 'filename', 'output-format', 'rwmixread', 'rwmixwrite', 'ramp_time', 'directory', 'output']);
