import { describe, expect, it } from 'vitest';
import { KNOWN_METRICS, metricInfo } from '../../shared/metrics';
import { BASE_UNITS } from '../../shared/units';

describe('KNOWN_METRICS', () => {
  it.each([
    ['requests_per_second', '1/s', 'higher'], ['iops', '1/s', 'higher'], ['bandwidth_bytes_per_second', 'B/s', 'higher'],
    ['latency_mean_seconds', 's', 'lower'], ['latency_p50_seconds', 's', 'lower'], ['latency_p90_seconds', 's', 'lower'],
    ['latency_p95_seconds', 's', 'lower'], ['latency_p99_seconds', 's', 'lower'], ['latency_max_seconds', 's', 'lower'],
    ['error_ratio', 'ratio', 'lower'], ['requests_failed_total', 'count', 'lower'], ['cpu_util_percent', '%', 'lower'],
    ['db_load_percent', '%', 'lower'], ['transactions_per_second', '1/s', 'higher'], ['queries_per_second', '1/s', 'higher'],
    ['events_per_second', '1/s', 'higher'], ['transfer_bytes_per_second', 'B/s', 'higher'],
  ])('%s: %s, %s is better', (name, unit, better) => {
    const info = metricInfo(name);
    expect(info).toMatchObject({ name, unit, better });
    expect(KNOWN_METRICS).toContain(info);
  });

  it('has one entry per name, in base units, each with a label', () => {
    expect(new Set(KNOWN_METRICS.map((m) => m.name)).size).toBe(KNOWN_METRICS.length);
    for (const m of KNOWN_METRICS) {
      expect(BASE_UNITS).toContain(m.unit);
      expect(m.label).not.toBe('');
    }
    expect(metricInfo('requests_per_second').label).toBe('Requests per second');
  });
});

describe('metricInfo for unknown names', () => {
  it.each([
    ['cache_hits_per_second', '1/s', 'higher'], ['disk_read_bytes_per_second', 'B/s', 'higher'],
    ['bytes_per_second', 'B/s', 'higher'], ['gc_pause_seconds', 's', 'lower'], ['heap_used_bytes', 'B', 'higher'],
    ['gpu_busy_percent', '%', 'higher'], ['cache_miss_ratio', 'ratio', 'lower'], ['retries_total', 'count', 'higher'],
    ['timeouts_failed_total', 'count', 'lower'], ['queue_depth', '', 'lower'], ['packets_dropped', '', 'lower'],
    ['tcp_retransmits', '', 'lower'], ['io_wait', '', 'lower'], ['memory_util', '', 'lower'], ['throughput', '', 'higher'],
    ['p99_latency', '', 'lower'], ['Errors', '', 'lower'],
  ])('%s: %s, %s is better', (name, unit, better) => {
    expect(metricInfo(name)).toEqual(expect.objectContaining({ name, unit, better }));
  });

  it('labels the name with spaces, capitalised', () => {
    expect(metricInfo('cache_hits_per_second').label).toBe('Cache hits per second');
    expect(metricInfo('throughput').label).toBe('Throughput');
    expect(metricInfo('_odd__name_').label).toBe('Odd name');
    expect(metricInfo('').label).toBe('');
  });
});
