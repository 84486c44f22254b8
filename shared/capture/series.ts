import type { Labels, Series, SeriesSummary, Unit } from './types';

/** Summary of a series: count of all samples; min/mean/max/last of the interval samples. */
export function summarizeSeries(s: Series): SeriesSummary {
  const start = s.firstSampleSinceBoot ? 1 : 0;
  let min = Infinity, max = -Infinity, sum = 0, n = 0, last: number | null = null;
  for (let i = start; i < s.values.length; i++) {
    const v = s.values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v; n++; last = v;
  }
  const out: SeriesSummary = {
    name: s.name, column: s.column, unit: s.unit,
    count: s.values.length,
    min: n ? min : null,
    mean: n ? Math.round((sum / n) * 1e6) / 1e6 : null,
    max: n ? max : null,
    last,
  };
  if (s.labels && Object.keys(s.labels).length) out.labels = s.labels;
  if (s.firstSampleSinceBoot) out.firstSampleSinceBoot = true;
  return out;
}

function labelKey(name: string, labels: Labels | undefined): string {
  if (!labels) return name;
  let k = name;
  for (const key of Object.keys(labels).sort()) k += '\u0000' + key + '=' + labels[key];
  return k;
}

/**
 * Collects series keyed by name + labels. A series that first appears late (a device that shows
 * up in the 5th report) is padded with NaN so every series of a capture lines up by sample index.
 */
export class SeriesSet {
  private readonly byKey = new Map<string, Series>();
  readonly list: Series[] = [];

  get(name: string, column: string, unit: Unit, labels?: Labels): Series {
    const key = labelKey(name, labels);
    let s = this.byKey.get(key);
    if (!s) {
      s = { name, column, unit, values: [] };
      if (labels && Object.keys(labels).length) s.labels = labels;
      this.byKey.set(key, s);
      this.list.push(s);
    }
    return s;
  }

  /** Append one value; `lineNo` widens the series' evidence range. */
  push(name: string, column: string, unit: Unit, labels: Labels | undefined, value: number, lineNo?: number, time?: number | null): Series {
    const s = this.get(name, column, unit, labels);
    s.values.push(value);
    if (time !== undefined) {
      if (!s.times) s.times = new Array<number | null>(s.values.length - 1).fill(null);
      s.times.push(time);
    } else if (s.times) {
      s.times.push(null);
    }
    if (lineNo !== undefined) s.lines = s.lines ? [s.lines[0], lineNo] : [lineNo, lineNo];
    return s;
  }
}
