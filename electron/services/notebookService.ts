/**
 * NotebookService: the notebook's operations over one open notebook file. Implements the
 * synchronous ApiMethods minus the notebook-file methods (Backend adds those). Every argument is
 * checked here, since all three hosts pass untrusted JSON straight through.
 */
import type { ApiMethods, DataChange } from '../../shared/api';
import { TunebookError } from '../../shared/api';
import {
  type CaptureLines, type CaptureMatches, type ComparedSide, type ConfigChange, type Experiment, type ExperimentCapture,
  type ExperimentComparison, type ExperimentRef, type HardwareProfile,
  type Proposals, type RequirementInput, type ResultMetric, type ResultSource, type SearchHit, type SeriesPoints, type StoredCapture, type StoredCaptureList,
  type Study, type StudyComparison, type StudyDetail, type StudyOutline, type StudySummary, type StudyView, type TimelineRow,
  type TrashEmptied, type TrashItem, type TrashKind, TRASH_KINDS,
} from '../../shared/model';
import { computeComparison, computeTimeline } from '../../shared/timeline';
import * as v from '../../shared/validate';
import * as f from '../../shared/fields';
import type { Db } from '../db/connection';
import * as cq from '../db/captureQueries';
import * as q from '../db/queries';
import * as store from './captureStore';
import { capturePairs, experimentProposals } from './proposals';
import { configDiff, metricDeltas, profileDiff } from '../../shared/sideBySide';

/** The contract methods the Backend serves itself (notebook files, parsing and the store worker's long writes). */
export type HostMethods = 'notebookInfo' | 'openNotebook' | 'recentNotebooks' | 'openExampleNotebook' | 'captureKinds' | 'parseCaptureFiles' | 'parseCaptureText'
  | 'cancelCaptureParsing' | 'importCaptures' | 'cancelStoreTask' | 'setCaptureKind' | 'reparseCaptures' | 'compactNotebook' | 'findInCapture'
  | 'reportPreview' | 'exportStudy' | 'importBundle';
export type NotebookMethods = Omit<ApiMethods, HostMethods>;

/** Most lines captureLines returns at once. */
export const MAX_LINES = 2000;

function notFound(what: string, id: number): never {
  throw new TunebookError('not-found', `${what} ${id} does not exist (it may have been deleted)`);
}

/** What the comparison view shows, checked (short lists of metric names and experiment ids). */
function studyView(raw: unknown): StudyView {
  const r = v.record(raw, 'view');
  const out: StudyView = {};
  if (r.hiddenMetrics !== undefined) out.hiddenMetrics = f.hiddenMetricsField(r.hiddenMetrics);
  if (r.hiddenExperiments !== undefined) {
    if (!Array.isArray(r.hiddenExperiments) || r.hiddenExperiments.length > 100_000) v.fail('view hiddenExperiments must be a list of experiment ids');
    out.hiddenExperiments = r.hiddenExperiments.map((x, i) => v.id(x, `hidden experiment ${i + 1}`));
  }
  return out;
}

export class NotebookService implements NotebookMethods {
  /** called after every write, once it is committed, with what it touched */
  onChange: (change: DataChange) => void = () => {};
  /** changes of the transaction under way, announced when it commits */
  private pendingChanges: DataChange[] = [];

  constructor(readonly db: Db) {}

  /**
   * Run `fn` in one transaction, begun IMMEDIATE (it takes the write lock first, so it cannot fail
   * half-way on a lock held by the store worker's connection); its changes are announced after commit.
   */
  private tx<T>(fn: () => T): T {
    const outer = !this.db.inTransaction;
    try {
      const result = this.db.transaction(fn).immediate();
      if (outer) this.announce();
      return result;
    } catch (e) {
      if (outer) this.pendingChanges = [];
      throw e;
    }
  }

  private announce(): void {
    const list = this.pendingChanges;
    this.pendingChanges = [];
    for (const c of list) this.onChange(c);
  }

  private study(id: unknown): Study {
    const sid = v.id(id, 'study id');
    return q.getStudy(this.db, sid) ?? notFound('study', sid);
  }

  private experiment(id: unknown): Experiment {
    const eid = v.id(id, 'experiment id');
    return q.getExperiment(this.db, eid) ?? notFound('experiment', eid);
  }

  /** A live experiment by id (validated), for the store worker and the Backend. */
  experimentById(id: unknown): Experiment {
    return this.experiment(id);
  }

  /**
   * Record a write: to the study as a whole, or (`experimentId`) to one experiment's own data. Inside
   * a transaction it is announced when that commits; outside one, at once.
   */
  private changed(studyId: number | null, experimentId?: number): void {
    if (studyId !== null) q.touchStudy(this.db, studyId);
    this.pendingChanges.push(experimentId === undefined ? { studyId } : { studyId, experimentId });
    if (!this.db.inTransaction) this.announce();
  }

  // ---- studies -------------------------------------------------------------------------------

  listStudies(): StudySummary[] {
    return q.listStudies(this.db);
  }

  getStudy(id: number): StudyDetail {
    const study = this.study(id);
    return { study, experiments: q.listExperiments(this.db, study.id) };
  }

  studyOutline(id: number): StudyOutline {
    const study = this.study(id);
    return { study, experiments: q.listExperimentSummaries(this.db, study.id) };
  }

  getExperiment(id: number): Experiment {
    return this.experiment(id);
  }

  createStudy(input: { title: string; goal?: string }): Study {
    const r = v.record(input, 'study');
    const title = f.studyTitle(r.title);
    const goal = f.studyGoal(r.goal) ?? '';
    const id = this.tx(() => { const id = q.insertStudy(this.db, title, goal); this.changed(id); return id; });
    return q.getStudy(this.db, id)!;
  }

  updateStudy(id: number, patch: { title?: string; goal?: string; view?: StudyView }): Study {
    const study = this.study(id);
    const r = v.record(patch, 'patch');
    const title = r.title === undefined ? undefined : f.studyTitle(r.title);
    const view = r.view === undefined ? undefined : studyView(r.view);
    this.tx(() => { q.updateStudy(this.db, study.id, { title, goal: f.studyGoal(r.goal), view }); this.changed(study.id); });
    return q.getStudy(this.db, study.id)!;
  }

  setRequirements(studyId: number, requirements: RequirementInput[]): Study {
    const study = this.study(studyId);
    if (!Array.isArray(requirements)) v.fail('requirements must be a list');
    const reqs = requirements.map((raw, i) => f.requirementFields(raw, i));
    this.tx(() => { q.replaceRequirements(this.db, study.id, reqs); this.changed(study.id); });
    return q.getStudy(this.db, study.id)!;
  }

  deleteStudy(id: number): void {
    const study = this.study(id);
    this.tx(() => { q.setStudyDeleted(this.db, study.id, true); this.changed(study.id); });
  }

  restoreStudy(id: number): Study {
    const sid = v.id(id, 'study id');
    if (!q.getStudy(this.db, sid, true)) notFound('study', sid);
    this.tx(() => { q.setStudyDeleted(this.db, sid, false); this.changed(sid); });
    return q.getStudy(this.db, sid)!;
  }

  timeline(studyId: number): TimelineRow[] {
    const study = this.study(studyId);
    return computeTimeline(q.listMeasuredExperiments(this.db, study.id), study.requirements);
  }

  comparison(studyId: number): StudyComparison {
    const study = this.study(studyId);
    return computeComparison(q.listMeasuredExperiments(this.db, study.id), study.requirements);
  }

  compareExperiments(a: number, b: number): ExperimentComparison {
    const side = (id: unknown): ComparedSide => {
      const experiment = this.experiment(id);
      return {
        experiment,
        studyTitle: q.getStudy(this.db, experiment.studyId)?.title ?? '',
        profile: experiment.profileId === null ? null : q.getProfile(this.db, experiment.profileId) ?? null,
      };
    };
    const sa = side(a);
    const sb = side(b);
    return {
      a: sa, b: sb,
      metrics: metricDeltas(sa.experiment, sb.experiment),
      config: configDiff(sa.experiment, sb.experiment),
      profile: profileDiff(sa.profile, sb.profile),
      ...capturePairs(this.db, sa.experiment, sb.experiment),
    };
  }

  experimentIndex(): ExperimentRef[] {
    return q.experimentIndex(this.db);
  }

  // ---- profiles ------------------------------------------------------------------------------

  listProfiles(): HardwareProfile[] {
    return q.listProfiles(this.db);
  }

  createProfile(input: Parameters<ApiMethods['createProfile']>[0]): HardwareProfile {
    const cols = f.profileFields(input);
    const id = this.tx(() => { const id = q.insertProfile(this.db, cols); this.changed(null); return id; });
    return q.getProfile(this.db, id)!;
  }

  updateProfile(id: number, patch: Parameters<ApiMethods['updateProfile']>[1]): HardwareProfile {
    const pid = v.id(id, 'profile id');
    const current = q.getProfile(this.db, pid) ?? notFound('hardware profile', pid);
    const cols = f.profileFields(patch, current);
    this.tx(() => { q.updateProfile(this.db, pid, cols); this.changed(null); });
    return q.getProfile(this.db, pid)!;
  }

  /**
   * Refused while experiments outside the trash use the profile. Experiments in the trash (or of a
   * study in it) that use it do not hold it back: they keep no profile, and come back without one.
   */
  deleteProfile(id: number): void {
    const pid = v.id(id, 'profile id');
    const p = q.getProfile(this.db, pid) ?? notFound('hardware profile', pid);
    // checked and deleted in one transaction: another process cannot give it an experiment in between
    this.tx(() => {
      const used = q.profileLiveUse(this.db, pid);
      if (used > 0) {
        throw new TunebookError('conflict', `"${p.name}" is used by ${used} experiment${used === 1 ? '' : 's'}; choose another profile for ${used === 1 ? 'it' : 'them'} first`);
      }
      q.unsetProfileInTrash(this.db, pid);
      q.deleteProfile(this.db, pid);
      this.changed(null);
    });
  }

  // ---- experiments ---------------------------------------------------------------------------

  private experimentColumns(raw: unknown, base?: Experiment): q.ExperimentColumns {
    const r = v.record(raw, 'experiment');
    let profileId = base?.profileId ?? null;
    if (r.profileId !== undefined) {
      profileId = r.profileId === null ? null : v.id(r.profileId, 'profile id');
      if (profileId !== null && !q.getProfile(this.db, profileId)) notFound('hardware profile', profileId);
    }
    return { ...f.experimentFields(r, base), profileId };
  }

  createExperiment(studyId: number, input: Parameters<ApiMethods['createExperiment']>[1]): Experiment {
    const study = this.study(studyId);
    const cols = this.experimentColumns(input);
    const id = this.tx(() => { const id = q.insertExperiment(this.db, study.id, cols); this.changed(study.id); return id; });
    return q.getExperiment(this.db, id)!;
  }

  updateExperiment(id: number, patch: Parameters<ApiMethods['updateExperiment']>[1]): Experiment {
    const e = this.experiment(id);
    const cols = this.experimentColumns(patch, e);
    this.tx(() => { q.updateExperiment(this.db, e.id, cols); this.changed(e.studyId, e.id); });
    return q.getExperiment(this.db, e.id)!;
  }

  deleteExperiment(id: number): void {
    const e = this.experiment(id);
    this.tx(() => {
      // it keeps its sort key: Undo puts it back between the same neighbours
      q.setExperimentDeleted(this.db, e.id, true);
      this.changed(e.studyId);
    });
  }

  restoreExperiment(id: number): Experiment {
    const eid = v.id(id, 'experiment id');
    const e = q.getExperiment(this.db, eid, true) ?? notFound('experiment', eid);
    if (!q.getStudy(this.db, e.studyId)) throw new TunebookError('conflict', 'restore its study first: it is in the trash');
    this.tx(() => {
      // back where it was, by its own sort key
      q.setExperimentDeleted(this.db, e.id, false);
      this.changed(e.studyId);
    });
    return q.getExperiment(this.db, e.id)!;
  }

  moveExperiment(id: number, position: number): Experiment {
    const e = this.experiment(id);
    if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0) v.fail('position must be a whole number ≥ 0');
    this.tx(() => {
      q.placeExperiment(this.db, e.studyId, e.id, position);
      this.changed(e.studyId);
    });
    return q.getExperiment(this.db, e.id)!;
  }

  // ---- config changes ------------------------------------------------------------------------

  addConfigChange(experimentId: number, input: Parameters<ApiMethods['addConfigChange']>[1]): ConfigChange {
    const e = this.experiment(experimentId);
    const cols = f.changeFields(input);
    const id = this.tx(() => { const id = q.insertConfigChange(this.db, e.id, cols); this.changed(e.studyId, e.id); return id; });
    return q.getConfigChange(this.db, id)!;
  }

  updateConfigChange(id: number, patch: Parameters<ApiMethods['updateConfigChange']>[1]): ConfigChange {
    const cid = v.id(id, 'config change id');
    const c = q.getConfigChange(this.db, cid) ?? notFound('config change', cid);
    const e = this.experiment(c.experimentId);
    this.tx(() => { q.updateConfigChange(this.db, cid, f.changeFields(patch, c)); this.changed(e.studyId, e.id); });
    const { experimentId: _e, ...out } = q.getConfigChange(this.db, cid)!;
    return out;
  }

  deleteConfigChange(id: number): void {
    const cid = v.id(id, 'config change id');
    const c = q.getConfigChange(this.db, cid) ?? notFound('config change', cid);
    const e = this.experiment(c.experimentId);
    this.tx(() => { q.deleteConfigChange(this.db, cid); this.changed(e.studyId, e.id); });
  }

  // ---- result metrics ------------------------------------------------------------------------

  private metricColumns(raw: unknown, base?: ResultMetric): q.ResultColumns {
    const r = v.record(raw, 'metric');
    return { ...f.metricFields(r, base), source: r.source === undefined ? base?.source ?? null : this.resultSource(r.source) };
  }

  /** A result's capture: it must be stored, and the figure is named by its metric (labels and lines optional). */
  private resultSource(raw: unknown): ResultSource | null {
    if (raw === null) return null;
    const r = v.record(raw, 'source');
    const captureId = v.id(r.captureId, 'source capture id');
    const row = cq.getCaptureRow(this.db, captureId) ?? notFound('capture', captureId);
    return { captureId, captureName: row.name, ...f.sourceFields(r) };
  }

  addResultMetric(experimentId: number, input: Parameters<ApiMethods['addResultMetric']>[1]): ResultMetric {
    const e = this.experiment(experimentId);
    const cols = this.metricColumns(input);
    // the first metric of an experiment is its primary one unless said otherwise
    if ((input as { primary?: unknown }).primary === undefined && e.metrics.length === 0) cols.primary = true;
    const id = this.tx(() => {
      if (cols.primary) q.clearPrimary(this.db, e.id);
      // a measured result means the step was run: planned steps are not judged, so it becomes kept
      if (e.status === 'planned') q.updateExperiment(this.db, e.id, { title: e.title, profileId: e.profileId, date: e.date, notes: e.notes, status: 'kept' });
      const id = q.insertResultMetric(this.db, e.id, cols);
      this.changed(e.studyId, e.id);
      return id;
    });
    const { experimentId: _e, ...out } = q.getResultMetric(this.db, id)!;
    return out;
  }

  updateResultMetric(id: number, patch: Parameters<ApiMethods['updateResultMetric']>[1]): ResultMetric {
    const mid = v.id(id, 'metric id');
    const m = q.getResultMetric(this.db, mid) ?? notFound('metric', mid);
    const e = this.experiment(m.experimentId);
    const cols = this.metricColumns(patch, m);
    this.tx(() => {
      if (cols.primary && !m.primary) q.clearPrimary(this.db, e.id);
      q.updateResultMetric(this.db, mid, cols);
      this.changed(e.studyId, e.id);
    });
    const { experimentId: _e, ...out } = q.getResultMetric(this.db, mid)!;
    return out;
  }

  deleteResultMetric(id: number): void {
    const mid = v.id(id, 'metric id');
    const m = q.getResultMetric(this.db, mid) ?? notFound('metric', mid);
    const e = this.experiment(m.experimentId);
    this.tx(() => { q.deleteResultMetric(this.db, mid); this.changed(e.studyId, e.id); });
  }

  // ---- stored captures -----------------------------------------------------------------------

  private captureId(id: unknown): number {
    const cid = v.id(id, 'capture id');
    if (!cq.getCaptureRow(this.db, cid)) notFound('capture', cid);
    return cid;
  }

  private link(id: unknown): cq.LinkWithExperiment {
    const lid = v.id(id, 'capture link id');
    return cq.getLink(this.db, lid) ?? notFound('capture link', lid);
  }

  listStoredCaptures(offset?: number, limit?: number): StoredCaptureList {
    // arguments left out arrive as null over HTTP
    const from = offset === undefined || offset === null ? 0 : v.optCount(offset, 'offset') ?? 0;
    const n = limit === undefined || limit === null ? 50 : Math.min(500, Math.max(1, v.optCount(limit, 'limit') ?? 50));
    const { total, rows } = cq.listStoredCaptures(this.db, from, n);
    return {
      total,
      items: rows.map((r) => ({
        id: r.id, name: r.name, kind: r.kind, bytes: r.size, lines: r.line_count, createdAt: r.created_at,
        links: cq.linksOfCapture(this.db, r.id).map((l) => ({ experimentId: l.experimentId, experimentTitle: l.experimentTitle, studyId: l.studyId, studyTitle: l.studyTitle })),
      })),
    };
  }

  getCapture(captureId: number, experimentId?: number): StoredCapture {
    const id = this.captureId(captureId);
    const row = cq.getCaptureRow(this.db, id)!;
    const links = cq.linksOfCapture(this.db, id);
    // an argument left out arrives as null over HTTP (JSON has no undefined in a list)
    const wanted = experimentId === undefined || experimentId === null ? undefined : v.id(experimentId, 'experiment id');
    const link = links.find((l) => l.experimentId === wanted) ?? links[0];
    const parsed = store.storedCaptureJson(this.db, id);
    parsed.findings = link ? JSON.parse(link.findings) as StoredCapture['parsed']['findings'] : [];
    return {
      id, name: row.name, sha256: row.sha256, bytes: row.size, lines: row.line_count, kind: row.kind, forcedKind: row.forced_kind,
      confidence: row.confidence, parserVersion: row.parser_version, createdAt: row.created_at, parsed,
      links: links.map(({ findings: _f, ...l }) => l),
      results: cq.resultsOfCapture(this.db, id).map((m) => {
        const src = m.source ? JSON.parse(m.source) as { metric: string; labels?: Record<string, string> } : { metric: m.name };
        return { resultId: m.id, experimentId: m.experiment_id, name: m.name, primary: m.is_primary === 1, metric: src.metric, ...(src.labels ? { labels: src.labels } : {}) };
      }),
    };
  }

  captureLines(captureId: number, first: number, count: number): CaptureLines {
    const id = this.captureId(captureId);
    const from = v.id(first, 'first line');
    const n = typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? Math.min(count, MAX_LINES) : v.fail('count must be a whole number ≥ 0');
    return store.readLines(this.db, id, from, n);
  }

  /** Lines containing the query, from line `fromLine` on (async: it yields between chunks). Served by the Backend. */
  findInCapture(captureId: number, query: string, limit?: number, fromLine?: number): Promise<CaptureMatches> {
    const id = this.captureId(captureId);
    const text = v.text(query, 'query', { max: 1000 });
    const max = limit === undefined || limit === null ? 1000 : Math.min(v.id(limit, 'limit'), 10_000);
    // absent or null (JSON has no undefined in an argument list): from the first line
    const from = fromLine === undefined || fromLine === null ? 1 : v.id(fromLine, 'from line');
    return store.findInCapture(this.db, id, text, max, from);
  }

  captureSeries(captureId: number, index: number, range?: { from: number; to: number } | null, maxPoints?: number): SeriesPoints {
    const id = this.captureId(captureId);
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) v.fail('series index must be a whole number ≥ 0');
    let r: { from: number; to: number } | null = null;
    if (range !== undefined && range !== null) {
      const rr = v.record(range, 'range');
      r = { from: v.finite(rr.from, 'range from'), to: v.finite(rr.to, 'range to') };
    }
    const points = maxPoints === undefined || maxPoints === null ? 2000 : Math.min(Math.max(v.id(maxPoints, 'maxPoints'), 4), 20_000);
    return store.seriesPoints(this.db, id, index, r, points);
  }

  updateCaptureLink(linkId: number, patch: { note?: string; name?: string }): ExperimentCapture {
    const l = this.link(linkId);
    const e = this.experiment(l.experimentId);
    const r = v.record(patch, 'patch');
    const name = r.name === undefined ? l.name : v.text(r.name, 'name', { required: true, max: 1000 }).trim();
    const note = v.optText(r.note, 'note', 100_000) ?? l.note;
    this.tx(() => { cq.updateLink(this.db, l.linkId, { name, note }); this.changed(e.studyId, e.id); });
    return cq.publicLink(cq.getLink(this.db, l.linkId)!);
  }

  detachCapture(linkId: number): void {
    this.setLinked(linkId, false);
  }

  restoreCaptureLink(linkId: number): ExperimentCapture {
    return this.setLinked(linkId, true);
  }

  /** Unlink (to the trash, for Undo) or bring back a capture link; the experiment's captures are judged again. */
  private setLinked(linkId: number, linked: boolean): ExperimentCapture {
    const l = this.link(linkId);
    const e = this.experiment(l.experimentId);
    this.tx(() => {
      cq.setLinkDeleted(this.db, l.linkId, !linked);
      store.refreshFindings(this.db, e.id);
      this.changed(e.studyId, e.id);
    });
    return cq.publicLink(cq.getLink(this.db, l.linkId)!);
  }

  // ---- trash ---------------------------------------------------------------------------------

  listTrash(): TrashItem[] {
    return q.listTrash(this.db);
  }

  /**
   * Remove everything in the trash for good, in one transaction: the deleted studies (with all their
   * experiments), the deleted experiments, the unlinked captures, and the stored captures no
   * experiment links any more.
   */
  emptyTrash(): TrashEmptied {
    return this.tx(() => {
      const studies = q.trashedStudyIds(this.db);
      const touched = q.studiesWithTrash(this.db);
      const experiments = q.experimentsWithin(this.db, 'trash');
      const captureIds = cq.capturesWithin(this.db, 'trash');
      q.deleteTrash(this.db);
      const captures = cq.removeOrphans(this.db, captureIds);
      // no touchStudy: what left a live study was already out of it, its place in the list stays
      for (const sid of [...studies, ...touched]) this.pendingChanges.push({ studyId: sid });
      return { studies: studies.length, experiments, captures };
    });
  }

  /** Remove one thing in the trash for good (and the stored captures no experiment links any more). */
  deleteForever(item: { kind: TrashKind; id: number }): TrashEmptied {
    const r = v.record(item, 'trash item');
    const kind = r.kind as TrashKind;
    if (!TRASH_KINDS.includes(kind)) v.fail(`kind must be one of ${TRASH_KINDS.join(', ')}`);
    const notInTrash = (what: string): never => { throw new TunebookError('conflict', `the ${what} is not in the trash: delete it first`); };
    return this.tx(() => {
      if (kind === 'study') {
        const sid = v.id(r.id, 'study id');
        const when = q.deletedAt(this.db, 'study', sid);
        if (when === undefined) notFound('study', sid);
        if (when === null) notInTrash('study');
        const experiments = q.experimentsWithin(this.db, { studyId: sid });
        const captureIds = cq.capturesWithin(this.db, { studyId: sid });
        q.deleteStudyRow(this.db, sid);
        const captures = cq.removeOrphans(this.db, captureIds);
        this.pendingChanges.push({ studyId: sid });
        return { studies: 1, experiments, captures };
      }
      if (kind === 'experiment') {
        const eid = v.id(r.id, 'experiment id');
        const when = q.deletedAt(this.db, 'experiment', eid);
        if (when === undefined) notFound('experiment', eid);
        if (when === null) notInTrash('experiment');
        const studyId = q.getExperiment(this.db, eid, true)!.studyId;
        const captureIds = cq.capturesWithin(this.db, { experimentId: eid });
        q.deleteExperimentRow(this.db, eid);
        const captures = cq.removeOrphans(this.db, captureIds);
        this.pendingChanges.push({ studyId });
        return { studies: 0, experiments: 1, captures };
      }
      const lid = v.id(r.id, 'capture link id');
      const l = cq.getLink(this.db, lid) ?? notFound('capture link', lid);
      if (l.deletedAt === null) notInTrash('capture');
      const studyId = q.getExperiment(this.db, l.experimentId, true)!.studyId;
      cq.deleteLink(this.db, lid);
      const captures = cq.removeOrphans(this.db, [l.captureId]);
      this.pendingChanges.push({ studyId, experimentId: l.experimentId });
      return { studies: 0, experiments: 0, captures };
    });
  }

  experimentProposals(experimentId: number): Proposals {
    return experimentProposals(this.db, this.experiment(experimentId));
  }

  // ---- search --------------------------------------------------------------------------------

  search(query: string): SearchHit[] {
    return q.search(this.db, v.text(query, 'query', { max: 500 }));
  }
}
