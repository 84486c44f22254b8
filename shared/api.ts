/**
 * TunebookApi: the one contract between the UI and the back end. Served by three hosts —
 * Electron IPC (electron/main), browser mode over HTTP (electron/host) and the CLI — and consumed by
 * the renderer through `window.tunebook` or the HTTP client, which both satisfy `TunebookApi`.
 * Arguments and results are JSON-safe.
 */
import type {
  BundleImportResult, BundleSource, ExportOptions, ExportResult,
  CaptureLines, CaptureMatches, ConfigChange, ConfigChangeInput, Experiment, ExperimentCapture, ExperimentComparison, ExperimentInput, ExperimentRef,
  HardwareProfile, HardwareProfileInput, ImportOptions, ImportResult, ImportSource, NotebookInfo, Proposals, StoredCaptureList,
  RequirementInput, ResultMetric, ResultMetricInput, SearchHit, SeriesPoints, StoredCapture, Study, StudyComparison, StudyDetail, StudyView,
  StudySummary, StudyOutline, TimelineRow, TrashEmptied, TrashItem, TrashKind,
} from './model';
import type { CaptureJson } from './capture/json';

/** The methods, written synchronously; every host exposes them as async (see TunebookApi). */
export interface ApiMethods {
  // notebook file
  notebookInfo(): NotebookInfo;
  /** open (or create when `create`) a notebook file at a path on the host */
  openNotebook(path: string, create: boolean): NotebookInfo;
  recentNotebooks(): string[];
  /**
   * Open the example notebook (the three case studies with their captures): a file of its own in
   * the app's folder, made the first time; the user's own notebook is never touched.
   */
  openExampleNotebook(): NotebookInfo;

  // studies
  listStudies(): StudySummary[];
  /** the study and every experiment in full (notes, captures): what `tunebook show --json` prints */
  getStudy(id: number): StudyDetail;
  /** the study and its experiments without their notes and captures: what the study view lists and charts */
  studyOutline(id: number): StudyOutline;
  createStudy(input: { title: string; goal?: string }): Study;
  updateStudy(id: number, patch: { title?: string; goal?: string; view?: StudyView }): Study;
  setRequirements(studyId: number, requirements: RequirementInput[]): Study;
  /** moves the study to the trash; restoreStudy undoes it */
  deleteStudy(id: number): void;
  restoreStudy(id: number): Study;
  timeline(studyId: number): TimelineRow[];
  /** the comparison view's data: the timeline, every metric across the study, every requirement judged */
  comparison(studyId: number): StudyComparison;

  /** two experiments side by side, from any studies */
  compareExperiments(a: number, b: number): ExperimentComparison;
  /** every live experiment of every live study, by study, in order (for choosing one) */
  experimentIndex(): ExperimentRef[];

  // hardware profiles
  listProfiles(): HardwareProfile[];
  createProfile(input: Partial<HardwareProfileInput> & { name: string }): HardwareProfile;
  updateProfile(id: number, patch: Partial<HardwareProfileInput>): HardwareProfile;
  /** refused while experiments outside the trash use the profile; those in the trash that use it keep no profile */
  deleteProfile(id: number): void;

  // experiments
  getExperiment(id: number): Experiment;
  createExperiment(studyId: number, input: Partial<ExperimentInput> & { title: string }): Experiment;
  updateExperiment(id: number, patch: Partial<ExperimentInput>): Experiment;
  /** moves the experiment to the trash; restoreExperiment undoes it */
  deleteExperiment(id: number): void;
  restoreExperiment(id: number): Experiment;
  /** move to a 0-based position among the study's experiments (the ones between shift by one); returns the moved experiment */
  moveExperiment(id: number, position: number): Experiment;

  addConfigChange(experimentId: number, input: Partial<ConfigChangeInput> & { key: string }): ConfigChange;
  updateConfigChange(id: number, patch: Partial<ConfigChangeInput>): ConfigChange;
  deleteConfigChange(id: number): void;

  /** marking a metric primary unmarks the experiment's other metrics */
  addResultMetric(experimentId: number, input: Partial<ResultMetricInput> & { name: string; value: number }): ResultMetric;
  updateResultMetric(id: number, patch: Partial<ResultMetricInput>): ResultMetric;
  deleteResultMetric(id: number): void;

  // search
  search(query: string): SearchHit[];

  // trash: deleted studies, experiments and unlinked captures stay until the trash is emptied
  /** what the trash holds, newest first (an experiment of a deleted study, or a capture of a deleted experiment, comes back with it and is not listed) */
  listTrash(): TrashItem[];
  /** remove everything in the trash for good, and the stored captures no experiment links any more */
  emptyTrash(): TrashEmptied;
  /** remove one item of the trash for good (refused, code 'conflict', when it is not in the trash) */
  deleteForever(item: { kind: TrashKind; id: number }): TrashEmptied;

  // captures (parsed off the main thread; nothing is stored by these)
  /** the capture kinds Tunebook reads */
  captureKinds(): CaptureKind[];
  /** parse files or folders on the host's disk (Electron drag and drop gives paths) */
  parseCaptureFiles(paths: string[], kind?: string): CaptureJson[];
  /** parse pasted or uploaded text (browser mode has no paths) */
  parseCaptureText(name: string, text: string, kind?: string): CaptureJson[];
  /** stop every capture parse under way; their calls fail with code 'cancelled' */
  cancelCaptureParsing(): void;

  // evidence: captures stored on experiments (stored verbatim, compressed, deduplicated by SHA-256)
  /**
   * Store captures on an experiment: files or folders on the host, browser-mode uploads, or pasted
   * text. Each file is stored atomically (all of it or nothing); one that fails is reported in
   * `failed` and the others still import. Progress: onDidProgressStore.
   */
  importCaptures(experimentId: number, sources: ImportSource[], options?: ImportOptions): ImportResult;
  /** stop the import, re-parse or compaction under way; the file being stored is left out entirely */
  cancelStoreTask(): void;
  /** the stored captures live experiments link, newest first: `limit` (default 50, at most 500) from `offset` */
  listStoredCaptures(offset?: number, limit?: number): StoredCaptureList;
  /** a stored capture; findings as judged on `experimentId` (default: its first experiment) */
  getCapture(captureId: number, experimentId?: number): StoredCapture;
  /** `count` lines (at most 2,000) from 1-based line `first` */
  captureLines(captureId: number, first: number, count: number): CaptureLines;
  /** lines containing `query` (case-insensitive), at most `limit` (default 1,000), from 1-based line `fromLine` (default 1) on; when `truncated`, the next page starts after the last match */
  findInCapture(captureId: number, query: string, limit?: number, fromLine?: number): CaptureMatches;
  /** one series' points, downsampled to `maxPoints` (default 2,000), optionally within an x range */
  captureSeries(captureId: number, index: number, range?: { from: number; to: number } | null, maxPoints?: number): SeriesPoints;
  updateCaptureLink(linkId: number, patch: { note?: string; name?: string }): ExperimentCapture;
  /** unlinks a capture from its experiment, to the trash; restoreCaptureLink undoes it (emptying the trash removes a capture no experiment links any more) */
  detachCapture(linkId: number): void;
  restoreCaptureLink(linkId: number): ExperimentCapture;
  /** parse a stored capture again as `kind` (null: detect it) */
  setCaptureKind(captureId: number, kind: string | null): StoredCapture;
  /** parse every stored capture again with the current parsers; changes nothing but the parses and findings */
  reparseCaptures(): { captures: number; changedKind: number };
  /** give the space of removed captures back to the disk (VACUUM) */
  compactNotebook(): { bytesBefore: number; bytesAfter: number; capturesRemoved: number };
  /** what the experiment's captures suggest: its primary result, its hardware profile, its config changes */
  experimentProposals(experimentId: number): Proposals;

  // reports and bundles
  /** the study's report (or of chosen experiments) as one self-contained HTML document: the Export dialog's preview */
  reportPreview(studyId: number, experimentIds?: number[] | null): string;
  /**
   * Export a study, or chosen experiments of it, as a self-contained HTML report, Markdown with its
   * chart images, PDF, or a bundle (.eln) another Tunebook imports. Written to `path`; without one,
   * the desktop app asks where, and browser mode offers the file as a download. Progress:
   * onDidProgressStore (task 'export'); cancelStoreTask stops it and leaves no file behind.
   */
  exportStudy(studyId: number, options: ExportOptions): ExportResult;
  /**
   * Import a bundle (.eln) exported by Tunebook: checked whole first (format, version, sizes, paths,
   * checksums), then written in one transaction — all of it or nothing. What the notebook already
   * holds is left as it is. Progress: onDidProgressStore (task 'bundle').
   */
  importBundle(source: BundleSource): BundleImportResult;
}

export interface CaptureKind { id: string; title: string }

export type ApiMethodName = keyof ApiMethods;

type Asyncify<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };

/** What the renderer calls. */
export type TunebookApi = Asyncify<ApiMethods> & {
  /** subscribe to back-end events; returns an unsubscribe function */
  on<E extends keyof ApiEvents>(event: E, listener: (payload: ApiEvents[E]) => void): () => void;
};

/** Events pushed from the back end (IPC send / SSE). */
export interface ApiEvents {
  /** another notebook file was opened (File › Open in Electron, or openNotebook from any client) */
  onDidChangeNotebook: NotebookInfo;
  /** data changed (by any client, this window's own writes included, or an import); sent after the change is committed */
  onDidChangeData: DataChange;
  /** bytes of capture files read so far by the parse under way (a few times a second at most) */
  onDidProgressParse: { read: number; total: number };
  /** the import, re-parse or compaction under way: file `index` of `count`, bytes read of it */
  onDidProgressStore: StoreProgress;
  /** a menu command of the desktop app that the window carries out (Electron only) */
  onDidRequestAction: RequestedAction;
}
export const API_EVENTS = ['onDidChangeNotebook', 'onDidChangeData', 'onDidProgressParse', 'onDidProgressStore', 'onDidRequestAction'] as const satisfies readonly (keyof ApiEvents)[];

/** What a write changed, so a window refetches only what shows it. */
export interface DataChange {
  /** the study it touched; null: none (hardware profiles), or the whole notebook when `all` */
  studyId: number | null;
  /**
   * Set when only this experiment's own data changed (its fields, config changes, results,
   * captures), not the study's order or its other experiments. Absent or null: the study as a whole.
   */
  experimentId?: number | null;
  /** anything may have changed (a re-parse of every capture, a compaction, a bundle import) */
  all?: boolean;
}

export interface StoreProgress { task: 'import' | 'reparse' | 'compact' | 'export' | 'bundle'; file: string; index: number; count: number; read: number; total: number }
export type RequestedAction =
  | { action: 'import-captures'; paths: string[] }
  | { action: 'reparse-captures' }
  | { action: 'compact-notebook' }
  | { action: 'export-study' }
  | { action: 'import-bundle'; path: string }
  | { action: 'show-shortcuts' }
  | { action: 'open-example' };

/** Every method name, for hosts that route by name. The type check below keeps it complete. */
export const API_METHODS = [
  'notebookInfo', 'openNotebook', 'recentNotebooks', 'openExampleNotebook',
  'listStudies', 'getStudy', 'studyOutline', 'createStudy', 'updateStudy', 'setRequirements', 'deleteStudy', 'restoreStudy', 'timeline', 'comparison', 'compareExperiments', 'experimentIndex',
  'listProfiles', 'createProfile', 'updateProfile', 'deleteProfile',
  'getExperiment', 'createExperiment', 'updateExperiment', 'deleteExperiment', 'restoreExperiment', 'moveExperiment',
  'addConfigChange', 'updateConfigChange', 'deleteConfigChange',
  'addResultMetric', 'updateResultMetric', 'deleteResultMetric',
  'search',
  'listTrash', 'emptyTrash', 'deleteForever',
  'captureKinds', 'parseCaptureFiles', 'parseCaptureText', 'cancelCaptureParsing',
  'importCaptures', 'cancelStoreTask', 'listStoredCaptures', 'getCapture', 'captureLines', 'findInCapture', 'captureSeries',
  'updateCaptureLink', 'detachCapture', 'restoreCaptureLink', 'setCaptureKind', 'reparseCaptures', 'compactNotebook',
  'experimentProposals',
  'reportPreview', 'exportStudy', 'importBundle',
] as const satisfies readonly ApiMethodName[];

/** The methods that change nothing in the notebook (reads, previews, parsing text or files that are not stored). */
export const READ_METHODS = [
  'notebookInfo', 'recentNotebooks', 'listStudies', 'getStudy', 'studyOutline', 'timeline', 'comparison', 'compareExperiments', 'experimentIndex',
  'listProfiles', 'getExperiment', 'search', 'captureKinds', 'parseCaptureFiles', 'parseCaptureText', 'listStoredCaptures', 'getCapture', 'captureLines', 'findInCapture',
  'captureSeries', 'experimentProposals', 'reportPreview', 'listTrash',
] as const satisfies readonly ApiMethodName[];

export function isReadMethod(name: string): boolean {
  return (READ_METHODS as readonly string[]).includes(name);
}

type Missing = Exclude<ApiMethodName, (typeof API_METHODS)[number]>;
// Compile-time completeness check: fails to compile when a method is not listed above.
export const API_METHODS_COMPLETE: Missing extends never ? true : Missing = true;

export function isApiMethod(name: string): name is ApiMethodName {
  return (API_METHODS as readonly string[]).includes(name);
}

export const ERROR_CODES = ['invalid', 'not-found', 'conflict', 'refused', 'cancelled', 'internal'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}

/** An error a user can act on (bad input, not found, refused). Hosts carry `code` and `message` across. */
export class TunebookError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
    this.name = 'TunebookError';
  }
}

/* The wire form of answers and errors, over IPC, HTTP and worker threads: shared/envelope.ts. */
