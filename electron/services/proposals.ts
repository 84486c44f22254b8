/**
 * What an experiment's stored captures suggest, computed from what is stored (so the suggestion
 * is the same after a reload, in the app and for `tunebook import`):
 *  - result: with no primary result yet, the headline figure of its first load-generator or fio
 *    capture (the study's usual primary metric when that capture has it);
 *  - profile: hardware facts (lscpu, free, fdisk …) fill or update its hardware profile;
 *  - config changes: a settings snapshot (sysctl -a, ulimit -a, php.ini) beside one of the same kind
 *    on the experiment before it: the differences not yet recorded.
 */
import type { CaptureJson } from '../../shared/capture/json';
import { headlineCandidates, preferredCandidate, usualMetrics } from '../../shared/evidence';
import type {
  ConfigProposal, Experiment, ExperimentComparison, HardwareProfileInput, ProfileProposal, Proposals, ResultProposal,
} from '../../shared/model';
import { FACT_KINDS, applyProfilePatch, profileFromCaptures } from '../../shared/profileFromCaptures';
import { compareSnapshots, isRecorded, snapshotScope } from '../../shared/snapshotDiff';
import { formatQuantity } from '../../shared/units';
import type { Db } from '../db/connection';
import * as q from '../db/queries';
import { storedCaptureJson } from './captureStore';

/** The settings kinds whose snapshots on consecutive experiments become config changes. */
export const SNAPSHOT_KINDS: readonly string[] = ['sysctl', 'ulimit', 'ini'];

function linkedJson(db: Db, e: Experiment, kinds: readonly string[]): { json: CaptureJson; name: string }[] {
  return e.captures.filter((c) => kinds.includes(c.kind)).map((c) => {
    const json = storedCaptureJson(db, c.captureId);
    json.file = c.name;
    return { json, name: c.name };
  });
}

/**
 * With no primary result: the headline figure of the experiment's first load-generator or fio
 * capture. With one: a capture no result was taken from that measured the same metric again — a
 * repeated run (several ab runs of one step), to add beside the others.
 */
export function resultProposal(db: Db, e: Experiment): ResultProposal | null {
  const primary = e.metrics.find((m) => m.primary);
  const used = new Set(e.metrics.map((m) => m.source?.captureId).filter((id): id is number => typeof id === 'number'));
  for (const c of e.captures) {
    if (used.has(c.captureId)) continue;
    const json = storedCaptureJson(db, c.captureId);
    const candidates = headlineCandidates(c.kind, json.metrics, c.captureId);
    if (!candidates.length) continue;
    if (primary) {
      const same = candidates.findIndex((x) => x.name === primary.name);
      if (same >= 0) return { captureId: c.captureId, captureName: c.name, candidates, preferred: same, repeat: true };
      continue;
    }
    const usual = usualMetrics(q.listExperimentSummaries(db, e.studyId).filter((x) => x.id !== e.id)).find((u) => u.primary)?.name ?? null;
    return { captureId: c.captureId, captureName: c.name, candidates, preferred: preferredCandidate(candidates, usual), repeat: false };
  }
  return null;
}

function suggestName(p: Partial<HardwareProfileInput>): string {
  const size = [p.cores ?? p.threads ? `${p.cores ?? p.threads}C` : '', p.memoryBytes ? `${Math.round(p.memoryBytes / 2 ** 30)}G` : ''].filter(Boolean).join('/');
  const disks = (p.disks ?? []).slice(0, 3).map((d) => (d.sizeBytes ? `${d.name} ${formatQuantity(d.sizeBytes, 'B')}` : d.name)).join(', ');
  return [size, disks, p.os ?? ''].filter(Boolean).join(' · ') || 'Machine from captures';
}

const EMPTY_PROFILE: HardwareProfileInput = {
  name: '', cpuModel: '', cores: null, threads: null, memoryBytes: null, disks: [], os: '', kernel: '', cloud: '', software: '', notes: '',
};

export function profileProposal(db: Db, e: Experiment): ProfileProposal | null {
  const facts = linkedJson(db, e, FACT_KINDS);
  if (!facts.length) return null;
  const fill = profileFromCaptures(facts.map((f) => f.json));
  if (!Object.keys(fill.patch).length) return null;
  const current = e.profileId === null ? undefined : q.getProfile(db, e.profileId);
  if (current) {
    const { id: _id, usedBy: _u, ...input } = current;
    if (JSON.stringify(applyProfilePatch(input, fill.patch)) === JSON.stringify(input)) return null; // says nothing new
  }
  return {
    profileId: current?.id ?? null,
    suggestedName: current?.name ?? suggestName(applyProfilePatch(EMPTY_PROFILE, fill.patch)),
    patch: fill.patch, sources: fill.sources, notes: fill.notes,
  };
}

/**
 * The snapshot among `candidates` (one experiment's, of the same kind) to compare `a` with: the one of
 * the same file name (a capture kit's facts/ulimit-a.txt with the earlier kit's facts/ulimit-a.txt, not
 * with its /proc/self/limits, which counts other units), else the first of the same scope.
 */
function counterpart<T extends { json: CaptureJson; name: string }>(a: T, candidates: readonly T[]): T | undefined {
  const scope = snapshotScope(a.json, a.name);
  const same = candidates.filter((b) => snapshotScope(b.json, b.name) === scope);
  const file = (n: string) => n.split('/').pop();
  return same.find((b) => file(b.name) === file(a.name)) ?? same[0];
}

export function configProposals(db: Db, e: Experiment): ConfigProposal[] {
  const after = linkedJson(db, e, SNAPSHOT_KINDS);
  if (!after.length) return [];
  const earlier = q.listExperiments(db, e.studyId).filter((x) => x.position < e.position).reverse();
  const out: ConfigProposal[] = [];
  for (const a of after) {
    for (const prev of earlier) {
      // the nearest earlier snapshot of the same tool (for config files: of the same file name)
      const before = counterpart(a, linkedJson(db, prev, [a.json.kind]));
      if (!before) continue;
      const diff = compareSnapshots([{ name: before.name, capture: before.json }], [{ name: a.name, capture: a.json }]);
      if (diff.ok) {
        // a key on one side only is what the two snapshots recorded (dash's ulimit -a prints fewer
        // limits than bash's, a network namespace has other interfaces), not a change someone made:
        // proposed are the values that changed; `tunebook diff` and the snapshot dialog show all
        const changes = diff.changes.filter((c) => c.before !== null && c.after !== null && !isRecorded(e.configChanges, c, diff.scope));
        if (changes.length) {
          out.push({ kind: diff.kind, scope: diff.scope, beforeName: diff.beforeName, beforeExperimentTitle: prev.title, afterName: diff.afterName, changes });
        }
      }
      break;
    }
  }
  return out;
}

export function experimentProposals(db: Db, e: Experiment): Proposals {
  return { result: resultProposal(db, e), profile: profileProposal(db, e), configChanges: configProposals(db, e) };
}

/**
 * What two experiments' captures have in common, for the side-by-side view: settings snapshots of
 * the same tool or file on both (and their differences), and captures of the same kind with series
 * to overlay (the first of each kind on each side).
 */
export function capturePairs(db: Db, a: Experiment, b: Experiment): Pick<ExperimentComparison, 'settings' | 'series'> {
  const settings: ExperimentComparison['settings'] = [];
  for (const sa of linkedJson(db, a, SNAPSHOT_KINDS)) {
    const sb = counterpart(sa, linkedJson(db, b, [sa.json.kind]));
    if (!sb) continue;
    const diff = compareSnapshots([{ name: sa.name, capture: sa.json }], [{ name: sb.name, capture: sb.json }]);
    if (diff.ok) settings.push({ kind: diff.kind, scope: diff.scope, aName: sa.name, bName: sb.name, changes: diff.changes });
  }
  const series: ExperimentComparison['series'] = [];
  for (const ca of a.captures) {
    if (series.some((x) => x.kind === ca.kind)) continue;
    const cb = b.captures.find((x) => x.kind === ca.kind);
    if (!cb || !storedCaptureJson(db, ca.captureId).series.length) continue;
    series.push({ kind: ca.kind, a: { captureId: ca.captureId, name: ca.name }, b: { captureId: cb.captureId, name: cb.name } });
  }
  return { settings, series };
}
