import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TunebookError } from '../../shared/api';
import type { BundleExperiment, BundleJson } from '../../shared/bundle/format';
import { BUNDLE_FORMAT, BUNDLE_JSON_PATH, BUNDLE_VERSION } from '../../shared/bundle/format';
import type { CrateFile } from '../../shared/bundle/roCrate';
import {
  RO_CRATE_CONTEXT, RO_CRATE_SPEC, archivePathProblem, archiveSegment, buildRoCrate, crateFolders, crateId, readCrateFiles,
} from '../../shared/bundle/roCrate';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

type Node = Record<string, unknown> & { '@id': string };

function experiment(over: Partial<BundleExperiment> & Pick<BundleExperiment, 'uid' | 'title' | 'folder'>): BundleExperiment {
  return {
    date: '2026-11-02', notes: '', status: 'kept', profile: null, configChanges: [], metrics: [], captures: [],
    createdAt: '2026-11-02T09:00:00.000Z', updatedAt: '2026-11-02T10:00:00.000Z', ...over,
  };
}

/** A study of three steps: a capture shared by two of them, one step without captures. */
function sample(): { bundle: BundleJson; files: CrateFile[] } {
  const ab = 'Requests per second:    140.12 [#/sec] (mean)\n';
  const ab2 = 'Requests per second:    286.40 [#/sec] (mean)\n';
  const vmstat = 'procs -----------memory----------\n r  b   swpd   free\n 1  0      0 812345\n';
  const files: CrateFile[] = [
    { path: 'opcache/01-baseline/ab-c100.txt', size: ab.length, sha256: sha(ab), encodingFormat: 'text/plain', name: 'ab-c100.txt' },
    { path: 'opcache/01-baseline/vmstat-1.txt', size: vmstat.length, sha256: sha(vmstat), encodingFormat: 'text/plain', name: 'vmstat 1.txt' },
    { path: 'opcache/02-opcache/ab-c100.txt', size: ab2.length, sha256: sha(ab2), encodingFormat: 'text/plain', name: 'ab-c100.txt' },
    { path: BUNDLE_JSON_PATH, size: 1234, sha256: sha('{}'), encodingFormat: 'application/json', name: 'bundle.json' },
  ];
  const bundle: BundleJson = {
    format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: '2026-11-29T12:00:00.000Z',
    app: { name: 'Tunebook', version: '0.1.0' },
    profiles: [{
      uid: 'p-1', name: 'web-1', cpuModel: 'Intel Xeon E5-2682 v4', cores: 4, threads: 8, memoryBytes: 8 * 1024 ** 3,
      disks: [{ name: 'vda', sizeBytes: 100e9, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }],
      os: 'CentOS 7.6', kernel: '3.10.0', cloud: 'Alibaba Cloud ECS 4C8G', software: 'nginx 1.15, php-fpm 7.2', notes: '',
    }],
    studies: [{
      uid: 's-1', title: 'PHP page speed', goal: 'Serve the product page at 250 req/s',
      requirements: [{ metric: 'requests_per_second', comparator: '>=', threshold: 250, unit: '1/s', label: 'throughput' }],
      view: {}, createdAt: '2026-11-01T08:00:00.000Z', updatedAt: '2026-11-03T08:00:00.000Z',
      experiments: [
        experiment({
          uid: 'e-1', title: 'Baseline', folder: 'opcache/01-baseline/', profile: 'p-1', date: '2026-11-01',
          notes: 'ab -n 10000 -c 100 against /product/42.\nCold cache.',
          metrics: [
            { name: 'requests_per_second', value: 140.12, unit: '1/s', better: 'higher', primary: true, source: { sha256: sha(ab), captureName: 'ab-c100.txt', metric: 'requests_per_second' } },
            { name: 'latency_p99', value: 0.207, unit: 's', better: 'lower', primary: false, source: null },
          ],
          captures: [
            { sha256: sha(ab), name: 'ab-c100.txt', note: 'first run', addedAt: '2026-11-01T09:00:00.000Z' },
            { sha256: sha(vmstat), name: 'vmstat 1.txt', note: '', addedAt: '2026-11-01T09:00:00.000Z' },
          ],
        }),
        experiment({
          uid: 'e-2', title: 'Enable OPcache', folder: 'opcache/02-opcache/', profile: 'p-1',
          configChanges: [{ scope: 'php.ini', key: 'opcache.enable', before: '0', after: '1', why: 'compile once' }],
          metrics: [
            { name: 'requests_per_second', value: 286.4, unit: '1/s', better: 'higher', primary: true, source: null },
            { name: 'requests_per_second', value: 280, unit: '1/s', better: 'higher', primary: true, source: null },
          ],
          // vmstat is linked here too: one File entity, listed by both experiments
          captures: [
            { sha256: sha(ab2), name: 'ab-c100.txt', note: '', addedAt: '2026-11-02T09:00:00.000Z' },
            { sha256: sha(vmstat), name: 'vmstat again.txt', note: 'same box', addedAt: '2026-11-02T09:00:00.000Z' },
          ],
        }),
        experiment({ uid: 'e-3', title: 'Try JIT', folder: 'opcache/03-jit/', status: 'planned', date: '2026-11-03' }),
      ],
    }],
    captures: [
      { sha256: sha(ab), path: files[0]!.path, size: ab.length, lines: 1, forcedKind: null, kind: 'ab', encodingFormat: 'text/plain' },
      { sha256: sha(vmstat), path: files[1]!.path, size: vmstat.length, lines: 3, forcedKind: null, kind: 'vmstat', encodingFormat: 'text/plain' },
      { sha256: sha(ab2), path: files[2]!.path, size: ab2.length, lines: 1, forcedKind: null, kind: 'ab', encodingFormat: 'text/plain' },
    ],
  };
  return { bundle, files };
}

function graphOf(crate: object): Map<string, Node> {
  const graph = (crate as { '@graph': Node[] })['@graph'];
  const byId = new Map<string, Node>();
  for (const n of graph) {
    expect(byId.has(n['@id']), `@id ${n['@id']} is unique`).toBe(false);
    byId.set(n['@id'], n);
  }
  return byId;
}

const ids = (v: unknown): string[] => (v as { '@id': string }[]).map((r) => r['@id']);

function expectInvalid(fn: () => unknown, message: RegExp): void {
  let caught: unknown;
  try { fn(); } catch (err) { caught = err; }
  expect(caught).toBeInstanceOf(TunebookError);
  expect((caught as TunebookError).code).toBe('invalid');
  expect((caught as TunebookError).message).toMatch(message);
}

describe('buildRoCrate', () => {
  const { bundle, files } = sample();
  const crate = buildRoCrate(bundle, files);
  const g = graphOf(crate);

  it('has the RO-Crate 1.1 context and a metadata descriptor with what the ELN spec asks', () => {
    expect((crate as Record<string, unknown>)['@context']).toBe(RO_CRATE_CONTEXT);
    const d = g.get('ro-crate-metadata.json')!;
    expect(d).toMatchObject({
      '@type': 'CreativeWork', about: { '@id': './' }, conformsTo: { '@id': RO_CRATE_SPEC },
      dateCreated: '2026-11-29T12:00:00.000Z', sdPublisher: { '@id': '#publisher' }, version: '1.0',
    });
    expect(g.get('#publisher')).toMatchObject({ '@type': 'Organization', name: 'Tunebook' });
    expect(g.get('#tunebook')).toMatchObject({ '@type': 'SoftwareApplication', name: 'Tunebook', version: '0.1.0' });
    expect(g.get('#export')).toMatchObject({ '@type': 'CreateAction', instrument: { '@id': '#tunebook' }, result: { '@id': './' } });
  });

  it('describes the root with the properties RO-Crate 1.1 requires, and lists study, experiments and bundle.json', () => {
    const root = g.get('./')!;
    expect(root['@type']).toBe('Dataset');
    expect(root['name']).toBe('PHP page speed');
    expect(root['description']).toMatch(/1 study, 3 experiments, 3 captures/);
    expect(root['datePublished']).toBe('2026-11-29T12:00:00.000Z');
    expect(typeof root['license']).toBe('string');
    // eLabFTW reads `version` on ./ as its own internal version number
    expect(root['version']).toBeUndefined();
    expect(ids(root['hasPart'])).toEqual([
      './opcache/', './opcache/01-baseline/', './opcache/02-opcache/', './opcache/03-jit/', './tunebook/bundle.json',
    ]);
  });

  it('makes the study a Dataset of its experiments, with its goal and requirements', () => {
    const study = g.get('./opcache/')!;
    expect(study).toMatchObject({
      '@type': 'Dataset', genre: 'study', name: 'PHP page speed', identifier: 's-1', encodingFormat: 'text/markdown',
      dateCreated: '2026-11-01T08:00:00.000Z', dateModified: '2026-11-03T08:00:00.000Z', temporal: '2026-11-01',
      author: { '@id': '#publisher' },
    });
    expect(ids(study['hasPart'])).toEqual(['./opcache/01-baseline/', './opcache/02-opcache/', './opcache/03-jit/']);
    expect(ids(study['mentions'])).toEqual(ids(study['hasPart']));
    expect(study['description']).toContain('Goal: Serve the product page at 250 req/s');
    expect(study['description']).toContain('- throughput: requests_per_second ≥ 250 req/s');
    expect(study['description']).toContain('- 2026-11-02 Enable OPcache (kept): requests_per_second 283.2 req/s (median of 2 runs)');
    const req = g.get(ids(study['variableMeasured'])[0]!)!;
    expect(req).toMatchObject({
      '@type': 'PropertyValue', name: 'throughput', propertyID: 'requirement.requests_per_second', value: 250, unitText: '1/s', minValue: 250,
    });
  });

  it('makes each experiment a Dataset eLabFTW imports as an experiment, with notes, changes and results in its description', () => {
    const e1 = g.get('./opcache/01-baseline/')!;
    expect(e1).toMatchObject({
      '@type': 'Dataset', genre: 'experiment', name: 'Baseline', identifier: 'e-1', temporal: '2026-11-01',
      keywords: 'kept', creativeWorkStatus: 'Kept', isPartOf: { '@id': './opcache/' }, encodingFormat: 'text/markdown',
      dateCreated: '2026-11-02T09:00:00.000Z', dateModified: '2026-11-02T10:00:00.000Z',
    });
    expect(e1['description']).toContain('ab -n 10000 -c 100 against /product/42.\nCold cache.');
    expect(e1['description']).toContain('- requests_per_second: 140.1 req/s (primary, higher is better) from ab-c100.txt');
    expect(e1['description']).toContain('- latency_p99: 207 ms (lower is better)');
    expect(e1['description']).toContain('- ab-c100.txt: first run');
    expect(e1['description']).toMatch(/Machine: web-1; Intel Xeon E5-2682 v4, 4 cores, 8 threads; 8 GiB memory; disks vda 100 GB virtual; CentOS 7\.6; kernel 3\.10\.0/);
    const e2 = g.get('./opcache/02-opcache/')!;
    expect(e2['description']).toContain('Configuration changes:\n- php.ini `opcache.enable`: `0` → `1` (compile once)');
    const e3 = g.get('./opcache/03-jit/')!;
    expect(e3).toMatchObject({ keywords: 'planned', creativeWorkStatus: 'Planned' });
    // an experiment without captures or results has no empty lists (the ELN checker flags empty values)
    expect(e3['hasPart']).toBeUndefined();
    expect(e3['variableMeasured']).toBeUndefined();
  });

  it('writes one File entity per capture, listed by every experiment that links it', () => {
    const e1 = g.get('./opcache/01-baseline/')!;
    const e2 = g.get('./opcache/02-opcache/')!;
    expect(ids(e1['hasPart'])).toEqual(['./opcache/01-baseline/ab-c100.txt', './opcache/01-baseline/vmstat-1.txt']);
    expect(ids(e2['hasPart'])).toEqual(['./opcache/02-opcache/ab-c100.txt', './opcache/01-baseline/vmstat-1.txt']);
    const vm = files[1]!;
    expect(g.get('./opcache/01-baseline/vmstat-1.txt')).toEqual({
      '@id': './opcache/01-baseline/vmstat-1.txt', '@type': 'File', name: 'vmstat 1.txt', encodingFormat: 'text/plain',
      contentSize: String(vm.size), sha256: vm.sha256,
    });
    expect(g.get('./tunebook/bundle.json')).toMatchObject({
      '@type': 'File', name: 'bundle.json', encodingFormat: 'application/json', contentSize: '1234', sha256: sha('{}'),
    });
  });

  it('gives results as PropertyValues, repeated runs as name.0, name.1', () => {
    const e1 = g.get('./opcache/01-baseline/')!;
    const [rps, p99, ...rest] = ids(e1['variableMeasured']).map((id) => g.get(id)!);
    expect(rest).toEqual([]);
    expect(rps).toMatchObject({ '@type': 'PropertyValue', name: 'requests_per_second', propertyID: 'requests_per_second', value: 140.12, unitText: '1/s' });
    expect(rps!['description']).toMatch(/^140\.1 req\/s: primary result; higher is better; from ab-c100\.txt \(requests_per_second\)$/);
    expect(p99).toMatchObject({ name: 'latency_p99', value: 0.207, unitText: 's', unitCode: 'SEC' });
    const e2 = g.get('./opcache/02-opcache/')!;
    expect(ids(e2['variableMeasured']).map((id) => g.get(id)!['propertyID'])).toEqual(['requests_per_second.0', 'requests_per_second.1']);
  });

  it('is a flat, well-linked graph as RO-Crate and the ELN checker want it', () => {
    const all = [...g.values()];
    // every reference points at an entity of the graph (flattened JSON-LD), except the spec's URI
    for (const n of all) {
      for (const [k, v] of Object.entries(n)) {
        if (k === 'conformsTo') continue;
        for (const r of Array.isArray(v) ? v : [v]) {
          if (typeof r === 'object' && r !== null && '@id' in r) {
            expect(Object.keys(r), `${n['@id']}.${k} is a bare reference`).toEqual(['@id']);
            expect(g.has((r as { '@id': string })['@id']), `${n['@id']}.${k} → ${(r as { '@id': string })['@id']}`).toBe(true);
          }
        }
      }
      // the checker: no empty values, keywords one string, every Dataset and File named
      for (const v of Object.values(n)) expect(String(v).trim()).not.toBe('');
      if ('keywords' in n) expect(typeof n['keywords']).toBe('string');
      if (n['@type'] === 'Dataset' || n['@type'] === 'File') expect(typeof n['name']).toBe('string');
      if (n['@type'] === 'Dataset') expect(n['@id'].endsWith('/')).toBe(true);
    }
    // every data entity is reached from ./ through hasPart
    const reached = new Set<string>();
    const walk = (id: string): void => {
      if (reached.has(id)) return;
      reached.add(id);
      const parts = g.get(id)?.['hasPart'];
      if (parts) for (const p of ids(parts)) walk(p);
    };
    walk('./');
    for (const n of all) if (n['@type'] === 'Dataset' || n['@type'] === 'File') expect(reached.has(n['@id']), n['@id']).toBe(true);
  });

  it('reads back the files it lists with their checksums and sizes', () => {
    const listed = readCrateFiles(JSON.parse(JSON.stringify(crate)));
    expect([...listed.keys()].sort()).toEqual(files.map((f) => f.path).sort());
    expect(listed.get('opcache/01-baseline/vmstat-1.txt')).toEqual({ sha256: files[1]!.sha256, size: files[1]!.size });
    expect(crateFolders(crate).sort()).toEqual(['opcache/', 'opcache/01-baseline/', 'opcache/02-opcache/', 'opcache/03-jit/']);
  });

  it('puts studies whose experiments share no folder of their own under studies/', () => {
    const { bundle: b, files: f } = sample();
    const second = { ...b.studies[0]!, uid: 's-2', title: 'Disk: fio 4k', experiments: [experiment({ uid: 'e-9', title: 'x', folder: 'opcache/09-x/' })] };
    const crate2 = graphOf(buildRoCrate({ ...b, studies: [b.studies[0]!, second] }, f));
    expect(crate2.get('./studies/01-PHP-page-speed/')).toMatchObject({ genre: 'study', name: 'PHP page speed' });
    expect(crate2.get('./studies/02-Disk-fio-4k/')).toMatchObject({ genre: 'study', name: 'Disk: fio 4k' });
    expect(crate2.get('./')!['name']).toBe('Tunebook export');
    expect(ids(crate2.get('./studies/02-Disk-fio-4k/')!['hasPart'])).toEqual(['./opcache/09-x/']);
    const custom = graphOf(buildRoCrate(b, f, { studyFolder: () => 'my study/', license: 'https://creativecommons.org/licenses/by/4.0/', author: { name: 'Ada' } }));
    expect(custom.get('./my%20study/')).toMatchObject({ genre: 'study', author: { '@id': '#author' } });
    expect(custom.get('#author')).toEqual({ '@id': '#author', '@type': 'Person', name: 'Ada' });
    expect(custom.get('./')!['license']).toEqual({ '@id': 'https://creativecommons.org/licenses/by/4.0/' });
    expect(custom.get('https://creativecommons.org/licenses/by/4.0/')).toMatchObject({ '@type': 'CreativeWork' });
  });

  it('percent-encodes @ids and reads them back as paths', () => {
    expect(crateId('a b/c#1%.txt')).toBe('./a%20b/c%231%25.txt');
    expect(crateId('exp/é/')).toBe('./exp/%C3%A9/');
    const { bundle: b, files: f } = sample();
    const renamed = f.map((x, i) => (i === 1 ? { ...x, path: 'opcache/01-baseline/vmstat 1 #2.txt' } : x));
    b.captures[1]!.path = 'opcache/01-baseline/vmstat 1 #2.txt';
    const c = buildRoCrate(b, renamed);
    expect(graphOf(c).has('./opcache/01-baseline/vmstat%201%20%232.txt')).toBe(true);
    expect(readCrateFiles(c).has('opcache/01-baseline/vmstat 1 #2.txt')).toBe(true);
  });

  it('refuses inputs that cannot make a valid crate', () => {
    const { bundle: b, files: f } = sample();
    expectInvalid(() => buildRoCrate(b, f.filter((x) => x.path !== BUNDLE_JSON_PATH)), /do not include tunebook\/bundle\.json/);
    expectInvalid(() => buildRoCrate(b, f.filter((x) => x.path !== f[0]!.path)), /capture "opcache\/01-baseline\/ab-c100\.txt" has no file/);
    expectInvalid(() => buildRoCrate(b, [...f, { ...f[0]!, path: '../x.txt' }]), /"\.\.\/x\.txt" points outside the archive/);
    expectInvalid(() => buildRoCrate(b, [...f, f[0]!]), /twice/);
    const badFolder = { ...b, studies: [{ ...b.studies[0]!, experiments: [experiment({ uid: 'x', title: 'x', folder: 'no-slash' })] }] };
    expectInvalid(() => buildRoCrate(badFolder, f), /must end in "\/"/);
  });
});

describe('readCrateFiles', () => {
  const base = (graph: object[]): object => ({
    '@context': RO_CRATE_CONTEXT,
    '@graph': [
      { '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', about: { '@id': './' }, conformsTo: { '@id': RO_CRATE_SPEC } },
      { '@id': './', '@type': 'Dataset', hasPart: [] },
      ...graph,
    ],
  });
  const good = { '@id': './a/b.txt', '@type': 'File', sha256: 'A'.repeat(64), contentSize: '12' };

  it('lists local files, lower-cases checksums, skips web files', () => {
    const files = readCrateFiles(base([good, { '@id': 'https://example.org/x.pdf', '@type': 'File' }, { '@id': 'c.txt', '@type': ['File', 'DigitalDocument'], sha256: 'b'.repeat(64) }]));
    expect([...files]).toEqual([['a/b.txt', { sha256: 'a'.repeat(64), size: 12 }], ['c.txt', { sha256: 'b'.repeat(64), size: null }]]);
  });

  it('refuses what is not an RO-Crate, with a clear message', () => {
    expectInvalid(() => readCrateFiles([]), /is not an RO-Crate: it is not a JSON object/);
    expectInvalid(() => readCrateFiles({ ...base([]), '@context': 'https://schema.org' }), /its @context is not RO-Crate's/);
    expectInvalid(() => readCrateFiles({ '@context': RO_CRATE_CONTEXT }), /has no @graph/);
    expectInvalid(() => readCrateFiles({ '@context': RO_CRATE_CONTEXT, '@graph': [{ '@id': './', '@type': 'Dataset' }] }), /does not describe itself/);
    expectInvalid(() => readCrateFiles({
      '@context': RO_CRATE_CONTEXT,
      '@graph': [{ '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', about: { '@id': './x/' }, conformsTo: { '@id': RO_CRATE_SPEC } }],
    }), /not "about" the root folder/);
    expectInvalid(() => readCrateFiles({
      '@context': RO_CRATE_CONTEXT,
      '@graph': [{ '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', about: { '@id': './' } }],
    }), /does not say it conforms to RO-Crate/);
    expectInvalid(() => readCrateFiles({
      '@context': RO_CRATE_CONTEXT,
      '@graph': [{ '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', about: { '@id': './' }, conformsTo: { '@id': RO_CRATE_SPEC } }],
    }), /its root "\.\/" is not described as a Dataset/);
  });

  it('refuses files without a checksum, outside the crate, twice, or with a bad size', () => {
    expectInvalid(() => readCrateFiles(base([{ '@id': './a.txt', '@type': 'File', contentSize: '3' }])), /lists the file "a\.txt" without a SHA-256 checksum/);
    expectInvalid(() => readCrateFiles(base([{ ...good, sha256: 'xyz' }])), /without a SHA-256/);
    expectInvalid(() => readCrateFiles(base([{ ...good, '@id': '../../etc/passwd' }])), /"\.\.\/\.\.\/etc\/passwd", which points outside the archive/);
    expectInvalid(() => readCrateFiles(base([{ ...good, '@id': '/etc/passwd' }])), /absolute path/);
    expectInvalid(() => readCrateFiles(base([good, { ...good, '@id': 'a/b.txt' }])), /lists the file "a\/b\.txt" twice/);
    expectInvalid(() => readCrateFiles(base([good, good])), /describes "\.\/a\/b\.txt" twice/);
    expectInvalid(() => readCrateFiles(base([{ ...good, contentSize: '12 MB' }])), /not a number of bytes/);
    expectInvalid(() => readCrateFiles(base([{ ...good, '@id': './a%2/b' }])), /not a valid path/);
  });
});

describe('archive paths', () => {
  it('names what makes a path unsafe', () => {
    expect(archivePathProblem('a/b.txt')).toBeNull();
    expect(archivePathProblem('a/b/')).toBeNull();
    expect(archivePathProblem('a/../../b')).toBe('points outside the archive');
    expect(archivePathProblem('/etc/passwd')).toMatch(/absolute path/);
    expect(archivePathProblem('C:\\x')).toMatch(/drive letter/);
    expect(archivePathProblem('a\\b')).toMatch(/backslash/);
    expect(archivePathProblem('a\u0000b')).toMatch(/control character/);
    expect(archivePathProblem('a//b')).toMatch(/empty/);
    expect(archivePathProblem('./a')).toMatch(/"\."/);
  });

  it('makes names into portable path segments', () => {
    expect(archiveSegment('Überlast: fio 4k/QD64 (run #2).txt')).toBe('Uberlast-fio-4k-QD64-run-2.txt');
    expect(archiveSegment('..')).toBe('file');
    expect(archiveSegment('日本語', 'study')).toBe('study');
    expect(archiveSegment('x'.repeat(200))).toHaveLength(80);
  });
});
