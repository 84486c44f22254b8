/**
 * The three case studies Tunebook was shaped by, built through the API (any client: the Backend's
 * own, or the page's in a Playwright spec — every call is awaited). A and B are typed as a user
 * types them; C is imported from its seed captures, given by `source` (a path in the tests, the
 * text itself in the example notebook). The example notebook (example.ts) and the tests of reports
 * and bundles are built from these.
 */
import type { ApiMethods } from '../../../shared/api';
import type { ImportSource } from '../../../shared/model';

/** The seed captures of case C. */
export type SeedName = 'fio-randwrite-4k-qd64-j64.txt' | 'fio-write-4k-qd64-j64.txt' | 'iostat-x-d-1-during-randwrite.txt' | 'iostat-x-d-1-during-seqwrite.txt';

type Awaitable<T> = T | Promise<T>;
/** The API with each method's result possibly a Promise (the Backend answers long work with one). */
export type AnyApi = { [K in keyof ApiMethods]: (...a: Parameters<ApiMethods[K]>) => Awaitable<ReturnType<ApiMethods[K]>> };

export const CASE_A = 'PHP health-check API: 140 → 286 req/s';
export const CASE_B = 'Python service to 50k QPS';
export const CASE_C = 'fio random vs sequential writes';

export async function buildCaseA(api: AnyApi): Promise<number> {
  const study = await api.createStudy({ title: CASE_A, goal: 'Find why a trivial health-check endpoint serves only 140 req/s under ab -n 100000 -c 1000.' });
  await api.setRequirements(study.id, [{ metric: 'requests_per_second', comparator: '>=', threshold: 250, unit: 'req/s', label: 'health check' }]);
  const vm = await api.createProfile({
    name: 'Cloud VM 4C8G', cpuModel: 'Intel Xeon Platinum', cores: 4, threads: 4, memoryBytes: 8 * 2 ** 30, os: 'CentOS 7.5 (BBR)', kernel: '3.10.0-862',
    cloud: 'Alibaba Cloud ECS 4C8G', software: 'nginx 1.15, PHP-FPM + Laravel 5.7 (opcache on), MySQL 5.7, Redis 5, docker-compose',
  });
  const base = await api.createExperiment(study.id, {
    title: 'Baseline', profileId: vm.id, date: '2019-03-01', status: 'kept',
    notes: '`ab -n 100000 -c 1000` on the health endpoint.\n\n**top**: CPU 100 %, about 80 % user and 20 % system; sleeping php-fpm processes still show CPU.\n\n'
      + '- vmstat: cs ≈ 7,000/s, in ≈ 14,000/s\n- /proc/interrupts: RES (rescheduling IPIs) rising fastest\n- strace: mostly `stat()` — opcache revalidating timestamps',
  });
  await api.addResultMetric(base.id, { name: 'requests_per_second', value: 140, unit: 'req/s', better: 'higher', primary: true });
  const opcache = await api.createExperiment(study.id, { title: 'opcache: stop revalidating timestamps', profileId: vm.id, date: '2019-03-02', status: 'kept' });
  await api.addConfigChange(opcache.id, { scope: 'php.ini', key: 'opcache.validate_timestamps', before: '1', after: '0', why: 'strace showed stat() on every request' });
  await api.addConfigChange(opcache.id, { scope: 'php.ini', key: 'opcache.revalidate_freq', before: '2', after: '0', why: 'no revalidation at all in production' });
  await api.addResultMetric(opcache.id, { name: 'requests_per_second', value: 205, unit: 'req/s', better: 'higher', primary: true });
  const redis = await api.createExperiment(study.id, {
    title: 'phpredis instead of predis', profileId: vm.id, date: '2019-03-03', status: 'kept',
    notes: '`perf record -g` showed time in the send/ip/tcp paths: Redis was reached through predis (pure PHP).',
  });
  await api.addConfigChange(redis.id, { scope: 'app config', key: 'config/database.php redis.client', before: 'predis', after: 'phpredis', why: 'a C extension instead of PHP sockets' });
  await api.addResultMetric(redis.id, { name: 'requests_per_second', value: 286, unit: 'req/s', better: 'higher', primary: true });
  return study.id;
}

type Result = [name: string, value: number, unit: string, better: 'higher' | 'lower'];

export async function buildCaseB(api: AnyApi): Promise<number> {
  const study = await api.createStudy({ title: CASE_B, goal: 'Split the module out of the main site without hurting it.' });
  await api.setRequirements(study.id, [
    { metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: 'req/s', label: 'QPS' },
    { metric: 'db_load_percent', comparator: '<=', threshold: 50, unit: '%', label: 'database load' },
    { metric: 'cpu_util_percent', comparator: '<=', threshold: 70, unit: '%', label: 'server load' },
    { metric: 'latency_mean_seconds', comparator: '<=', threshold: 70, unit: 'ms', label: 'each request' },
    { metric: 'error_ratio', comparator: '<=', threshold: 5, unit: '%', label: 'errors' },
  ]);
  const vm = await api.createProfile({ name: 'Python VM 4C8G SSD', cores: 4, memoryBytes: 8 * 2 ** 30, os: 'CentOS 7', software: 'MySQL 5.7 (max_connections 800), Redis (1 GB), Locust (distributed)' });
  const step = async (title: string, results: Result[], status: 'kept' | 'reverted' = 'kept', changes: { scope: string; key: string; before: string; after: string; why: string }[] = []) => {
    const e = await api.createExperiment(study.id, { title, status, profileId: vm.id, date: '2019-06-01' });
    for (const c of changes) await api.addConfigChange(e.id, c);
    for (const [i, [name, value, unit, better]] of results.entries()) await api.addResultMetric(e.id, { name, value, unit, better, primary: i === 0 });
    return e.id;
  };
  await step('writes through a Redis FIFO queue', [
    ['requests_per_second', 6000, 'req/s', 'higher'], ['db_load_percent', 100, '%', 'lower'], ['cpu_util_percent', 65, '%', 'lower'],
    ['latency_mean_seconds', 160, 'ms', 'lower'], ['error_ratio', 30, '%', 'lower'],
  ]);
  await step('configs cached in Redis', [['requests_per_second', 20000, 'req/s', 'higher'], ['cpu_util_percent', 80, '%', 'lower']]);
  await step('DB pool raised to 2000', [['requests_per_second', 18000, 'req/s', 'higher']], 'reverted');
  await step('ulimit -n 100001', [['requests_per_second', 22000, 'req/s', 'higher']], 'kept', [
    { scope: 'ulimit', key: 'nofile', before: '65535', after: '100001', why: '≈ 17,000 new TCP connections/s' },
  ]);
  await step('TIME_WAIT: tw_reuse, port range, buckets', [
    ['requests_per_second', 50000, 'req/s', 'higher'], ['db_load_percent', 30, '%', 'lower'], ['cpu_util_percent', 70, '%', 'lower'],
    ['latency_mean_seconds', 60, 'ms', 'lower'], ['error_ratio', 0, '%', 'lower'],
  ], 'kept', [
    { scope: 'sysctl', key: 'net.ipv4.tcp_max_tw_buckets', before: '', after: '6000', why: 'cap TIME_WAIT sockets' },
    { scope: 'sysctl', key: 'net.ipv4.ip_local_port_range', before: '32768 60999', after: '1024 65000', why: 'more ephemeral ports' },
    { scope: 'sysctl', key: 'net.ipv4.tcp_tw_reuse', before: '0', after: '1', why: 'reuse TIME_WAIT sockets for new connections' },
    { scope: 'sysctl', key: 'net.ipv4.tcp_tw_recycle', before: '0', after: '1', why: 'breaks clients behind NAT; removed in Linux 4.12' },
  ]);
  return study.id;
}

/** Case C from its seed captures, stored with the headline result accepted (fio's IOPS). */
export async function buildCaseC(api: AnyApi, source: (name: SeedName) => ImportSource): Promise<number> {
  const study = await api.createStudy({ title: CASE_C, goal: 'Why does the same disk give 2,197 IOPS to one fio job and 43.0k to another?' });
  await api.setRequirements(study.id, [{ metric: 'bandwidth_bytes_per_second', comparator: '>=', threshold: 100, unit: 'MiB/s', label: 'write bandwidth' }]);
  const disk = await api.createProfile({
    name: 'virtio VM 2 vCPU', cores: 2, threads: 2,
    disks: [{ name: 'vda', sizeBytes: 53_687_091_200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }],
  });
  for (const [title, fio, iostat, bandwidth] of [
    ['random writes', 'fio-randwrite-4k-qd64-j64.txt', 'iostat-x-d-1-during-randwrite.txt', '8788 KiB/s'],
    ['sequential writes', 'fio-write-4k-qd64-j64.txt', 'iostat-x-d-1-during-seqwrite.txt', '168 MiB/s'],
  ] as const) {
    const e = await api.createExperiment(study.id, { title, profileId: disk.id, date: '2019-09-01', status: 'kept', notes: 'fio bs 4k, iodepth 64, libaio, direct, numjobs 64, group_reporting.' });
    await api.importCaptures(e.id, [source(fio), source(iostat)], { acceptResult: true });
    const [value, unit] = bandwidth.split(' ') as [string, string];
    await api.addResultMetric(e.id, { name: 'bandwidth_bytes_per_second', value: Number(value), unit, better: 'higher', primary: false });
  }
  return study.id;
}
