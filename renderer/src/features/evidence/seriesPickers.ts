/**
 * The dimension pickers of a capture's chart (SeriesExplorer): which series of one column are
 * drawn, given what the user picked for each label (device, cpu, command, pid, endpoint …).
 */

/** the choice "every value of this dimension" */
export const ALL = '\u0000all';
/** most lines drawn at once when "all" is chosen */
export const MAX_TRACES = 12;

export interface Dimension {
  key: string;
  /** the values of the series left by the choices before this one */
  values: string[];
  /** a value of `values`, or ALL */
  choice: string;
  /** some of those series have no such label (locust's Aggregated row has no method) */
  missing: boolean;
}

/**
 * The pickers for one column's series, narrowing one after the other: a dimension's values are
 * those of the series matching the choices before it; a dimension none of them has is left out;
 * a pick that is not among its values (any more) falls back to the default — the whole machine
 * ("all", as mpstat names it) when there is one, else the first value. Names come before numbers
 * (command before pid), otherwise the order the parser gave. At least one series is left when
 * there was one.
 */
export function narrowDimensions<T extends { labels?: Readonly<Record<string, string>> }>(series: readonly T[], picked: Readonly<Record<string, string>>): { dims: Dimension[]; chosen: T[] } {
  const keys: string[] = [];
  for (const s of series) for (const k of Object.keys(s.labels ?? {})) if (!keys.includes(k)) keys.push(k);
  const numeric = (k: string) => series.every((s) => s.labels?.[k] === undefined || /^\d+$/.test(s.labels[k]!));
  const order = [...keys.filter((k) => !numeric(k)), ...keys.filter(numeric)];
  const dims: Dimension[] = [];
  let left = series;
  for (const key of order) {
    const values = [...new Set(left.flatMap((s) => (s.labels?.[key] === undefined ? [] : [s.labels[key]!])))];
    if (!values.length) continue;
    const missing = left.some((s) => s.labels?.[key] === undefined);
    const p = picked[key];
    const choice = p === ALL && (values.length > 1 || missing) ? ALL
      : p !== undefined && values.includes(p) ? p
        : values.includes('all') ? 'all' : values[0]!;
    dims.push({ key, values, choice, missing });
    if (choice !== ALL) left = left.filter((s) => s.labels?.[key] === choice);
  }
  return { dims, chosen: left.slice(0, MAX_TRACES) };
}
