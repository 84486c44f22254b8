/**
 * A bundle's `tunebook/bundle.json`, checked whole before anything is written: its format and
 * version (a bundle from a newer Tunebook is refused, not guessed at), every record through the same
 * field rules the API applies (shared/fields.ts), and that every reference inside it resolves (a
 * link names a capture the bundle carries, an experiment a profile it carries, uids are unique).
 */
import { TunebookError } from '../api';
import * as f from '../fields';
import * as v from '../validate';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from './format';
import { archivePathProblem } from './roCrate';
import type { CaptureContext } from '../capture/types';
import type {
  BundleCapture, BundleExperiment, BundleExperimentCapture, BundleJson, BundleProfile, BundleResultMetric, BundleStudy,
} from './format';

/** Most records of each kind one bundle may hold (far above any real study; a guard against hostile files). */
const MAX = { studies: 10_000, experiments: 1_000_000, captures: 1_000_000, profiles: 100_000, perExperiment: 100_000 };

const SHA256 = /^[0-9a-f]{64}$/;
const UID = /^[0-9A-Za-z_-]{8,64}$/;

function list(raw: unknown, what: string, max: number): unknown[] {
  if (!Array.isArray(raw)) v.fail(`${what} must be a list`);
  if (raw.length > max) v.fail(`${what}: ${raw.length} entries, at most ${max}`);
  return raw;
}

function uid(raw: unknown, what: string): string {
  if (typeof raw !== 'string' || !UID.test(raw)) v.fail(`${what} must be a uid (8 to 64 letters, digits, - or _)`);
  return raw;
}

function sha(raw: unknown, what: string): string {
  if (typeof raw !== 'string' || !SHA256.test(raw)) v.fail(`${what} must be a SHA-256 (64 hex digits)`);
  return raw;
}

function time(raw: unknown, what: string): string {
  const s = v.text(raw, what, { max: 40 });
  if (Number.isNaN(Date.parse(s))) v.fail(`${what} must be a time like 2026-11-30T12:00:00Z`);
  return s;
}

/** A path inside the archive's root folder (the one rule of roCrate.ts: relative, forward slashes, no way out). */
function archivePath(raw: unknown, what: string): string {
  const p = v.text(raw, what, { required: true, max: 1000 });
  const problem = archivePathProblem(p);
  if (problem) v.fail(`${what} "${p.slice(0, 200)}" is not a plain path inside the bundle: it ${problem}`);
  return p;
}

function profile(raw: unknown, i: number): BundleProfile {
  const r = v.record(raw, `profile ${i + 1}`);
  return { uid: uid(r.uid, `profile ${i + 1} uid`), ...f.profileFields(r) };
}

function resultMetric(raw: unknown, what: string): BundleResultMetric {
  const r = v.record(raw, what);
  // values are already in base units: the field rules keep them as they are
  const fields = f.metricFields(r);
  let source: BundleResultMetric['source'] = null;
  if (r.source !== null && r.source !== undefined) {
    const s = v.record(r.source, `${what} source`);
    source = {
      sha256: s.sha256 === null ? null : sha(s.sha256, `${what} source sha256`),
      captureName: v.text(s.captureName, `${what} source capture name`, { max: 1000 }),
      ...f.sourceFields(s),
    };
  }
  return { ...fields, source };
}

function link(raw: unknown, what: string): BundleExperimentCapture {
  const r = v.record(raw, what);
  return {
    sha256: sha(r.sha256, `${what} sha256`),
    name: v.text(r.name, `${what} name`, { required: true, max: 1000 }),
    note: v.optText(r.note, `${what} note`, 100_000) ?? '',
    addedAt: time(r.addedAt, `${what} addedAt`),
  };
}

function experiment(raw: unknown, what: string): BundleExperiment {
  const r = v.record(raw, what);
  const fields = f.experimentFields(r);
  const folder = archivePath(r.folder, `${what} folder`);
  return {
    uid: uid(r.uid, `${what} uid`),
    ...fields,
    profile: r.profile === null || r.profile === undefined ? null : uid(r.profile, `${what} profile`),
    configChanges: list(r.configChanges ?? [], `${what} config changes`, MAX.perExperiment).map((c) => f.changeFields(c)),
    metrics: list(r.metrics ?? [], `${what} results`, MAX.perExperiment).map((m, j) => resultMetric(m, `${what} result ${j + 1}`)),
    captures: list(r.captures ?? [], `${what} captures`, MAX.perExperiment).map((c, j) => link(c, `${what} capture ${j + 1}`)),
    createdAt: time(r.createdAt, `${what} createdAt`),
    updatedAt: time(r.updatedAt, `${what} updatedAt`),
    folder,
  };
}

function study(raw: unknown, i: number): BundleStudy {
  const what = `study ${i + 1}`;
  const r = v.record(raw, what);
  const view = r.view === undefined ? {} : v.record(r.view, `${what} view`);
  const out: BundleStudy = {
    uid: uid(r.uid, `${what} uid`),
    title: f.studyTitle(r.title),
    goal: f.studyGoal(r.goal) ?? '',
    requirements: list(r.requirements ?? [], `${what} requirements`, 1000).map((q, j) => f.requirementFields(q, j)),
    view: {
      ...(view.hiddenMetrics !== undefined ? { hiddenMetrics: f.hiddenMetricsField(view.hiddenMetrics) } : {}),
      ...(view.hiddenExperiments !== undefined
        ? { hiddenExperiments: list(view.hiddenExperiments, `${what} hidden experiments`, MAX.experiments).map((x, j) => uid(x, `${what} hidden experiment ${j + 1}`)) }
        : {}),
    },
    createdAt: time(r.createdAt, `${what} createdAt`),
    updatedAt: time(r.updatedAt, `${what} updatedAt`),
    experiments: list(r.experiments, `${what} experiments`, MAX.experiments).map((e, j) => experiment(e, `${what} experiment ${j + 1}`)),
  };
  return out;
}

function capture(raw: unknown, i: number): BundleCapture {
  const what = `capture ${i + 1}`;
  const r = v.record(raw, what);
  const count = (x: unknown, name: string): number => {
    const n = v.optCount(x, `${what} ${name}`);
    if (n === undefined || n === null) v.fail(`${what} ${name} must be a whole number ≥ 0`);
    return n;
  };
  return {
    sha256: sha(r.sha256, `${what} sha256`),
    path: archivePath(r.path, `${what} path`),
    size: count(r.size, 'size'),
    lines: count(r.lines, 'lines'),
    forcedKind: r.forcedKind === null || r.forcedKind === undefined ? null : v.text(r.forcedKind, `${what} forcedKind`, { max: 100 }),
    kind: v.text(r.kind, `${what} kind`, { max: 100 }),
    encodingFormat: v.optText(r.encodingFormat, `${what} encodingFormat`, 200) ?? 'text/plain',
    ...(r.context === undefined ? {} : { context: captureContext(r.context, `${what} context`) }),
  };
}

/** A capture's context (shared/capture/context.ts): only its known fields, each checked. */
function captureContext(raw: unknown, what: string): CaptureContext {
  const r = v.record(raw, what);
  const time = (x: unknown, name: string): number | undefined => {
    if (x === undefined) return undefined;
    const n = v.finite(x, `${what} ${name}`);
    if (n < 0 || n > 1e14) v.fail(`${what} ${name} is not a time`);
    return n;
  };
  const out: CaptureContext = {};
  const command = v.optText(r.command, `${what} command`, 4096);
  if (command !== undefined) out.command = command;
  const started = time(r.started, 'started');
  if (started !== undefined) out.started = started;
  const ended = time(r.ended, 'ended');
  if (ended !== undefined) out.ended = ended;
  const source = v.optText(r.source, `${what} source`, 1000);
  if (source !== undefined) out.source = source;
  if (r.run !== undefined) {
    const run = v.record(r.run, `${what} run`);
    out.run = { command: v.text(run.command, `${what} run command`, { max: 4096 }), started: time(run.started, 'run started') ?? 0, ended: time(run.ended, 'run ended') ?? 0 };
  }
  return out;
}

function unique<T>(items: readonly T[], key: (x: T) => string, what: string): void {
  const seen = new Set<string>();
  for (const x of items) {
    const k = key(x);
    if (seen.has(k)) v.fail(`${what} ${k} appears twice`);
    seen.add(k);
  }
}

/**
 * The bundle.json of a bundle, checked. Throws TunebookError('invalid') naming the first problem;
 * a bundle written by a newer Tunebook is refused with the version it needs.
 */
export function parseBundleJson(raw: unknown): BundleJson {
  const r = v.record(raw, 'bundle.json');
  if (r.format !== BUNDLE_FORMAT) v.fail(`this is not a Tunebook bundle (format ${JSON.stringify(r.format ?? null)}, expected "${BUNDLE_FORMAT}")`);
  if (typeof r.version !== 'number' || !Number.isSafeInteger(r.version) || r.version < 1) v.fail('the bundle has no valid version');
  if (r.version > BUNDLE_VERSION) {
    throw new TunebookError('invalid', `this bundle was made by a newer Tunebook (bundle format ${r.version}; this Tunebook reads up to ${BUNDLE_VERSION}). Update Tunebook to import it.`);
  }
  const app = v.record(r.app ?? {}, 'app');
  const out: BundleJson = {
    format: BUNDLE_FORMAT,
    version: r.version,
    exportedAt: time(r.exportedAt, 'exportedAt'),
    app: { name: 'Tunebook', version: v.optText(app.version, 'app version', 100) ?? '' },
    profiles: list(r.profiles ?? [], 'profiles', MAX.profiles).map(profile),
    studies: list(r.studies, 'studies', MAX.studies).map(study),
    captures: list(r.captures ?? [], 'captures', MAX.captures).map(capture),
  };
  unique(out.profiles, (p) => p.uid, 'profile uid');
  unique(out.studies, (s) => s.uid, 'study uid');
  unique(out.studies.flatMap((s) => s.experiments), (e) => e.uid, 'experiment uid');
  unique(out.captures, (c) => c.sha256, 'capture');
  unique(out.captures, (c) => c.path, 'capture file');
  const captures = new Set(out.captures.map((c) => c.sha256));
  const profiles = new Set(out.profiles.map((p) => p.uid));
  for (const s of out.studies) {
    for (const e of s.experiments) {
      if (e.profile !== null && !profiles.has(e.profile)) v.fail(`experiment "${e.title}" names a hardware profile the bundle does not carry`);
      for (const l of e.captures) if (!captures.has(l.sha256)) v.fail(`experiment "${e.title}" links a capture the bundle does not carry (${l.sha256.slice(0, 12)}…)`);
      for (const m of e.metrics) {
        if (m.source?.sha256 && !captures.has(m.source.sha256)) v.fail(`result ${m.name} of "${e.title}" is taken from a capture the bundle does not carry`);
      }
      if (e.metrics.filter((m) => m.primary).length > 1) v.fail(`experiment "${e.title}" has more than one primary result`);
    }
  }
  return out;
}
