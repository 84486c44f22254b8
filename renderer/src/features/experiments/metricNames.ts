import type { Better } from '../../../../shared/model';

/** Canonical metric names offered as suggestions (free text is allowed). */
export const METRIC_SUGGESTIONS: readonly { name: string; unit: string; better: Better }[] = [
  { name: 'requests_per_second', unit: '1/s', better: 'higher' },
  { name: 'latency_mean_seconds', unit: 's', better: 'lower' },
  { name: 'latency_p99_seconds', unit: 's', better: 'lower' },
  { name: 'error_ratio', unit: 'ratio', better: 'lower' },
  { name: 'cpu_util_percent', unit: '%', better: 'lower' },
  { name: 'db_load_percent', unit: '%', better: 'lower' },
  { name: 'iops', unit: '1/s', better: 'higher' },
  { name: 'bandwidth_bytes_per_second', unit: 'B/s', better: 'higher' },
];

export const SCOPE_SUGGESTIONS = ['php.ini', 'sysctl', 'ulimit', 'app config', 'code', 'other'] as const;
