/**
 * What Tunebook knows about metric names: the unit values are stored in, which direction is an
 * improvement, and a readable label. Unknown names (custom results, new parsers) get a guess from
 * the name itself, so every metric can be charted and compared.
 */

export interface MetricInfo {
  /** canonical snake_case name, e.g. requests_per_second */
  name: string;
  /** base unit the values are stored in (see units.ts) */
  unit: string;
  better: 'higher' | 'lower';
  label: string;
}

export const KNOWN_METRICS: readonly MetricInfo[] = [
  { name: 'requests_per_second', unit: '1/s', better: 'higher', label: 'Requests per second' },
  { name: 'iops', unit: '1/s', better: 'higher', label: 'IOPS' },
  { name: 'bandwidth_bytes_per_second', unit: 'B/s', better: 'higher', label: 'Bandwidth' },
  { name: 'transfer_bytes_per_second', unit: 'B/s', better: 'higher', label: 'Transfer rate' },
  { name: 'transactions_per_second', unit: '1/s', better: 'higher', label: 'Transactions per second' },
  { name: 'queries_per_second', unit: '1/s', better: 'higher', label: 'Queries per second' },
  { name: 'events_per_second', unit: '1/s', better: 'higher', label: 'Events per second' },
  { name: 'latency_mean_seconds', unit: 's', better: 'lower', label: 'Mean latency' },
  { name: 'latency_min_seconds', unit: 's', better: 'lower', label: 'Min latency' },
  { name: 'latency_p50_seconds', unit: 's', better: 'lower', label: 'p50 latency' },
  { name: 'latency_p90_seconds', unit: 's', better: 'lower', label: 'p90 latency' },
  { name: 'latency_p95_seconds', unit: 's', better: 'lower', label: 'p95 latency' },
  { name: 'latency_p99_seconds', unit: 's', better: 'lower', label: 'p99 latency' },
  { name: 'latency_max_seconds', unit: 's', better: 'lower', label: 'Max latency' },
  { name: 'error_ratio', unit: 'ratio', better: 'lower', label: 'Error ratio' },
  { name: 'requests_failed_total', unit: 'count', better: 'lower', label: 'Failed requests' },
  { name: 'cpu_util_percent', unit: '%', better: 'lower', label: 'CPU utilisation' },
  { name: 'db_load_percent', unit: '%', better: 'lower', label: 'Database load' },
];

const BY_NAME = new Map(KNOWN_METRICS.map((m) => [m.name, m]));

/** Names people give the known metrics (any case): "IOPS", "QPS", "rps" … */
const ALIASES: Readonly<Record<string, string>> = {
  rps: 'requests_per_second', req_per_sec: 'requests_per_second', requests_per_sec: 'requests_per_second',
  qps: 'queries_per_second', tps: 'transactions_per_second', eps: 'events_per_second',
  bandwidth: 'bandwidth_bytes_per_second', bw: 'bandwidth_bytes_per_second',
};

/** Words that make a metric a cost: less of it is an improvement. */
const COST = /latency|_seconds|error|fail|util|load|cpu|wait|queue|drop|retrans|miss/;

/** Unit by name suffix; …_per_second is a byte rate when the name counts bytes. */
const SUFFIX_UNITS: ReadonlyArray<readonly [string, string]> = [
  ['_seconds', 's'],
  ['_bytes', 'B'],
  ['_percent', '%'],
  ['_ratio', 'ratio'],
  ['_total', 'count'],
];

function guessUnit(name: string): string {
  if (name.endsWith('_per_second')) return name.includes('bytes') ? 'B/s' : '1/s';
  return SUFFIX_UNITS.find(([suffix]) => name.endsWith(suffix))?.[1] ?? '';
}

/** The known entry for `name`, or a guess from the name: cost words mean lower is better. */
export function metricInfo(name: string): MetricInfo {
  const exact = BY_NAME.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  // "IOPS", "QPS", "Requests_per_second": the known metric, under the name the user gave it
  const known = BY_NAME.get(lower) ?? BY_NAME.get(ALIASES[lower] ?? '');
  if (known) return { ...known, name };
  const spaced = name.replace(/_+/g, ' ').trim();
  return {
    name,
    unit: guessUnit(lower),
    better: COST.test(lower) ? 'lower' : 'higher',
    label: spaced.charAt(0).toUpperCase() + spaced.slice(1),
  };
}
