/**
 * The notebook's domain model. JSON-safe plain objects: the same shapes cross IPC, HTTP and the CLI.
 * Ids are integers assigned by the database. Times are ISO 8601 strings (UTC); dates are YYYY-MM-DD.
 */

import type { CaptureJson } from './capture/json';
import type { Finding, Labels } from './capture/types';
import type { SettingChange } from './capture/parsers/settings/diff';
import type { FieldDiff, MetricDelta } from './sideBySide';

export type Comparator = '>=' | '<=' | '>' | '<' | '=';
export const COMPARATORS: readonly Comparator[] = ['>=', '<=', '>', '<', '='];

/**
 * One stated requirement of a study, e.g. requests_per_second >= 30000 1/s. The threshold is in the
 * unit's base unit (shared/units.ts), like results: ≥ 100 MiB/s is stored as 104857600 B/s.
 */
export interface Requirement {
  id: number;
  metric: string;
  comparator: Comparator;
  threshold: number;
  unit: string;
  /** optional human label, e.g. "database load" */
  label: string;
}
export type RequirementInput = Omit<Requirement, 'id'>;

/** What the comparison view shows of a study, kept with it. */
export interface StudyView {
  /** metrics left out of the small multiples */
  hiddenMetrics?: string[];
  /** experiments left out of the charts */
  hiddenExperiments?: number[];
}

export interface Study {
  id: number;
  title: string;
  /** free text: what this session is trying to reach */
  goal: string;
  requirements: Requirement[];
  view: StudyView;
  createdAt: string;
  updatedAt: string;
}

export interface StudySummary {
  id: number;
  title: string;
  goal: string;
  experimentCount: number;
  createdAt: string;
  updatedAt: string;
}

export type DiskKind = 'ssd' | 'hdd' | 'nvme' | 'virtual' | 'unknown';
export const DISK_KINDS: readonly DiskKind[] = ['ssd', 'hdd', 'nvme', 'virtual', 'unknown'];

export interface Disk {
  name: string;
  sizeBytes: number | null;
  logicalSectorBytes: number | null;
  physicalSectorBytes: number | null;
  /** file system block size, e.g. 4096 for ext4 */
  blockBytes: number | null;
  kind: DiskKind;
}

export interface HardwareProfile {
  id: number;
  name: string;
  cpuModel: string;
  cores: number | null;
  threads: number | null;
  memoryBytes: number | null;
  disks: Disk[];
  os: string;
  kernel: string;
  /** cloud provider / instance type, e.g. "Alibaba Cloud ECS 4C8G" */
  cloud: string;
  /** free-form software stack, e.g. "nginx 1.15, php-fpm 7.2, MySQL 5.7, Redis 5" */
  software: string;
  notes: string;
  /** how many experiments use it */
  usedBy: number;
}
export type HardwareProfileInput = Omit<HardwareProfile, 'id' | 'usedBy'>;

export type ExperimentStatus = 'planned' | 'kept' | 'reverted' | 'failed';
export const EXPERIMENT_STATUSES: readonly ExperimentStatus[] = ['planned', 'kept', 'reverted', 'failed'];

export interface ConfigChange {
  id: number;
  /** where: php.ini, sysctl, ulimit, app config, code … */
  scope: string;
  key: string;
  before: string;
  after: string;
  why: string;
}
export type ConfigChangeInput = Omit<ConfigChange, 'id'>;

export type Better = 'higher' | 'lower';

/** Where a result was taken from: a figure of a stored capture. */
export interface ResultSourceInput {
  captureId: number;
  /** the capture's metric name, e.g. iops */
  metric: string;
  labels?: Labels;
  /** the capture's lines the figure was read from */
  lines?: [number, number];
}
export interface ResultSource extends Omit<ResultSourceInput, 'captureId'> {
  /** null once the capture was removed from the notebook */
  captureId: number | null;
  /** the capture's name when the result was taken */
  captureName: string;
}

export interface ResultMetric {
  id: number;
  /** canonical name, e.g. requests_per_second */
  name: string;
  /** in the base unit of `unit` (1/s, B/s, B, s, %, ratio …; shared/units.ts) */
  value: number;
  unit: string;
  better: Better;
  primary: boolean;
  source: ResultSource | null;
}
export type ResultMetricInput = Omit<ResultMetric, 'id' | 'source'> & { source?: ResultSourceInput | null };

/** A stored capture as an experiment lists it (the link carries the note and the findings). */
export interface ExperimentCapture {
  linkId: number;
  captureId: number;
  /** the name it was attached under (usually the file name) */
  name: string;
  kind: string;
  confidence: number;
  /** the kind the user chose, null when detected */
  forcedKind: string | null;
  sha256: string;
  bytes: number;
  lines: number;
  note: string;
  /** the experiment's captures judged together */
  findings: Finding[];
  warningCount: number;
  addedAt: string;
}

export interface Experiment {
  id: number;
  studyId: number;
  /** 0-based order within the study */
  position: number;
  title: string;
  profileId: number | null;
  /** YYYY-MM-DD */
  date: string;
  /** Markdown */
  notes: string;
  status: ExperimentStatus;
  configChanges: ConfigChange[];
  metrics: ResultMetric[];
  captures: ExperimentCapture[];
  createdAt: string;
  updatedAt: string;
}
export type ExperimentInput = Pick<Experiment, 'title' | 'profileId' | 'date' | 'notes' | 'status'>;

export interface StudyDetail {
  study: Study;
  experiments: Experiment[];
}

/** An experiment as a study's list and charts show it: all but its notes, captures and times (getExperiment has those). */
export interface ExperimentSummary extends Omit<Experiment, 'notes' | 'captures' | 'createdAt' | 'updatedAt'> {
  /** how many captures it links */
  captureCount: number;
}

/** A study and its experiments in order, light enough for a study of 10,000 (studyOutline). */
export interface StudyOutline {
  study: Study;
  experiments: ExperimentSummary[];
}

/** A requirement judged on one experiment (in the order of the study's requirements, whose label they share). */
export interface RequirementCheck {
  metric: string;
  comparator: Comparator;
  /** in the requirement's (base) unit */
  threshold: number;
  unit: string;
  /** the experiment's value of the metric in the requirement's unit (the median of repeated runs); null: not measured */
  value: number | null;
  /** null when the experiment did not measure the metric (in a comparable unit), or is only planned */
  met: boolean | null;
}

/** One row of a study's timeline: an experiment with its primary metric and the changes. */
export interface TimelineRow {
  experimentId: number;
  position: number;
  title: string;
  status: ExperimentStatus;
  metric: string | null;
  /** the primary metric's value; with repeated runs (several results of that name) their median */
  value: number | null;
  unit: string | null;
  better: Better | null;
  /** how many results of the primary metric the experiment holds (repeated runs) */
  runs: number;
  /** the lowest and highest run, when there are several */
  spread: { min: number; max: number } | null;
  /** a kept, measured step: on the line from the baseline. Failed, reverted and planned steps are set apart. */
  inChain: boolean;
  /** change from the previous kept step measuring the same metric, in percent */
  stepChangePercent: number | null;
  /** change from the first experiment (the baseline) with the same primary metric, in percent */
  cumulativeChangePercent: number | null;
  /** the previous value is in a unit this one cannot be compared with (so no step change) */
  stepNotComparable: boolean;
  /** the baseline's value is in a unit this one cannot be compared with */
  cumulativeNotComparable: boolean;
  /** a kept step's share of the whole gain from the baseline to the last kept step, in percent */
  shareOfGainPercent: number | null;
  /** false when the step's change lies within the run-to-run spread; null without repeated runs to tell */
  significant: boolean | null;
  /** every requirement of the study judged on this experiment */
  requirements: RequirementCheck[];
  /** every requirement the experiment measured is met; null when it measured none of them or is only planned */
  meetsGoal: boolean | null;
}

/** One metric of a study across its experiments (the chain, or one of the small multiples). */
export interface MetricTrack {
  name: string;
  /** the unit the points are in (the first experiment's that measured it) */
  unit: string;
  better: Better;
  /** the study's primary metric */
  primary: boolean;
  /**
   * One entry per experiment, in the order of the comparison's rows (columns, not objects: a study
   * of 10,000 experiments sends numbers, not keys): the median of its runs in `unit` (null: not
   * measured or only planned), the lowest and highest run, and how many runs.
   */
  value: (number | null)[];
  min: (number | null)[];
  max: (number | null)[];
  runs: number[];
}

/** What the comparison view shows of a study. */
export interface StudyComparison {
  rows: TimelineRow[];
  /** the primary metric first, then every other metric the study measured */
  metrics: MetricTrack[];
  /** the first experiment (in order) that measured every requirement's metric and met them all */
  firstMeetingAll: number | null;
}

export type SearchHitKind = 'study' | 'experiment' | 'config' | 'profile' | 'capture';

export interface SearchHit {
  kind: SearchHitKind;
  studyId: number | null;
  experimentId: number | null;
  profileId: number | null;
  captureId: number | null;
  /** the study the hit belongs to (null for profiles) */
  studyTitle: string | null;
  title: string;
  /** text around the match; the matched words are between \u0002 and \u0003 (never HTML) */
  snippet: string;
}

export interface NotebookInfo {
  path: string;
  schemaVersion: number;
  appVersion: string;
}

// ---- evidence: stored captures -----------------------------------------------------------------

/** What to import: a file or folder on the host, a browser-mode upload, or pasted text. */
export type ImportSource = { path: string } | { upload: string } | { text: string; name: string };

export interface ImportOptions {
  /** parse with this capture kind instead of detecting it */
  kind?: string;
  /**
   * Accept the headline-result proposal (tunebook import does by default): when the experiment has
   * no primary result, the headline figure of an imported load-generator or fio capture becomes it.
   */
  acceptResult?: boolean;
}

export interface ImportedCapture {
  linkId: number;
  captureId: number;
  name: string;
  kind: string;
  sha256: string;
  bytes: number;
  lines: number;
  /** the same bytes were already in the notebook: stored once, linked again */
  deduplicated: boolean;
  /** the experiment already listed this capture */
  alreadyLinked: boolean;
}

export interface ImportResult {
  imported: ImportedCapture[];
  /** files that could not be stored, and why (nothing of them was written) */
  failed: { name: string; message: string }[];
  /** the primary result set from a headline figure (acceptResult), else null */
  result: ResultMetric | null;
  /**
   * With acceptResult: the same measurement from the other captures of this import (several runs
   * of one benchmark, e.g. ab1.txt ab2.txt), added beside the primary result as its repeats
   */
  runs?: ResultMetric[];
  /** the import was cancelled: `imported` were stored before it, the rest are in `failed` */
  cancelled?: boolean;
}

export interface CaptureLink {
  linkId: number;
  experimentId: number;
  experimentTitle: string;
  studyId: number;
  studyTitle: string;
  note: string;
}

/** A stored capture with its parse (series summarized; points through captureSeries). */
export interface StoredCapture {
  id: number;
  name: string;
  sha256: string;
  bytes: number;
  lines: number;
  kind: string;
  forcedKind: string | null;
  confidence: number;
  parserVersion: number;
  createdAt: string;
  /** findings are those of the experiment asked for (or of its first link) */
  parsed: CaptureJson;
  links: CaptureLink[];
  /** results taken from this capture */
  results: { resultId: number; experimentId: number; name: string; primary: boolean; metric: string; labels?: Labels }[];
}

/** A stored capture in the notebook's list of them (the Captures view): what it is and where it is linked. */
export interface StoredCaptureSummary {
  id: number;
  name: string;
  kind: string;
  bytes: number;
  lines: number;
  createdAt: string;
  /** the live experiments that link it */
  links: { experimentId: number; experimentTitle: string; studyId: number; studyTitle: string }[];
}

export interface StoredCaptureList {
  /** how many stored captures live experiments link */
  total: number;
  /** newest first, from `offset` */
  items: StoredCaptureSummary[];
}

export interface CaptureLines {
  /** 1-based number of lines[0] */
  first: number;
  lines: string[];
  /** lines in the capture */
  total: number;
}

export interface CaptureMatches {
  query: string;
  matches: { line: number; text: string }[];
  /** more lines matched than were returned */
  truncated: boolean;
}

/** A series' points for a chart, downsampled to at most maxPoints (min and max of each bucket kept). */
export interface SeriesPoints {
  index: number;
  name: string;
  column: string;
  unit: string;
  labels?: Labels;
  /** epoch milliseconds when the capture had a clock, else the sample number (0-based) */
  x: number[];
  y: (number | null)[];
  xIsTime: boolean;
  /** the x range covered, and the points it holds before downsampling */
  from: number;
  to: number;
  total: number;
  downsampled: boolean;
}

/** A figure of a capture offered as a result. */
export interface ResultCandidate {
  name: string;
  value: number;
  unit: string;
  better: Better;
  /** what a user reads, e.g. "IOPS (write)" */
  label: string;
  source: ResultSourceInput;
}

export interface ResultProposal {
  captureId: number;
  captureName: string;
  candidates: ResultCandidate[];
  /** index into candidates of the one proposed (the study's usual primary metric when present) */
  preferred: number;
  /** the experiment already has this primary metric: the figure is another run of it (a repeat) */
  repeat: boolean;
}

export interface ProfileProposal {
  /** the experiment's profile to update, or null: create one */
  profileId: number | null;
  suggestedName: string;
  patch: Partial<HardwareProfileInput>;
  /** field → capture name it came from */
  sources: Record<string, string>;
  notes: string[];
}

export interface ConfigProposal {
  kind: string;
  scope: string;
  beforeName: string;
  beforeExperimentTitle: string;
  afterName: string;
  /** differences not yet recorded as this experiment's config changes */
  changes: SettingChange[];
}

export interface Proposals {
  result: ResultProposal | null;
  profile: ProfileProposal | null;
  configChanges: ConfigProposal[];
}

// ---- side by side ----------------------------------------------------------------------------

/** An experiment as the side-by-side view shows one side. */
export interface ComparedSide {
  experiment: Experiment;
  studyTitle: string;
  profile: HardwareProfile | null;
}

/** Two experiments side by side (from any studies): see shared/sideBySide.ts for the rules. */
export interface ExperimentComparison {
  a: ComparedSide;
  b: ComparedSide;
  metrics: MetricDelta[];
  config: FieldDiff[];
  profile: FieldDiff[];
  /** settings snapshots of the same tool (or config file) on both sides, and what differs between them */
  settings: { kind: string; scope: string; aName: string; bName: string; changes: SettingChange[] }[];
  /** captures of the same kind on both sides whose series can be overlaid (the first of each kind) */
  series: { kind: string; a: { captureId: number; name: string }; b: { captureId: number; name: string } }[];
}

/** An experiment listed for choosing (the side-by-side pickers). */
export interface ExperimentRef { id: number; title: string; position: number; studyId: number; studyTitle: string }

// ---- trash -------------------------------------------------------------------------------------

export type TrashKind = 'study' | 'experiment' | 'capture';
export const TRASH_KINDS: readonly TrashKind[] = ['study', 'experiment', 'capture'];

/**
 * Something deleted, kept until the trash is emptied (listTrash). An experiment of a study in the
 * trash is not listed on its own (it comes back with its study), nor a capture of an experiment in
 * the trash (it comes back with its experiment).
 */
export interface TrashItem {
  kind: TrashKind;
  /** the study's id, the experiment's id, or the capture link's id (what restoreStudy, restoreExperiment, restoreCaptureLink take) */
  id: number;
  /** the study's or experiment's title, the capture's name */
  name: string;
  /** when it was deleted (ISO 8601) */
  deletedAt: string;
  /** the study it belongs to (for a study: itself) */
  studyId: number;
  studyTitle: string;
  /** the experiment a capture was on (null for studies and experiments) */
  experimentId: number | null;
  experimentTitle: string | null;
  /** the stored capture (captures only) */
  captureId: number | null;
  /** how many experiments (not themselves deleted) go and come back with a study; 0 for the others */
  experimentCount: number;
}

/** What emptyTrash or deleteForever removed for good. */
export interface TrashEmptied {
  studies: number;
  /** experiments removed: those in the trash, and those of the studies in it */
  experiments: number;
  /** stored captures removed from the notebook (no experiment linked them any more) */
  captures: number;
}

// ---- reports and bundles ----------------------------------------------------------------------

export type ReportFormat = 'html' | 'md' | 'pdf' | 'eln';
export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'pdf', 'eln'];

export interface ExportOptions {
  format: ReportFormat;
  /** the experiments to export (kept in the study's order); all when absent */
  experimentIds?: number[] | null;
  /** where to write it (the CLI; the desktop app after its Save dialog). Browser mode offers a download instead. */
  path?: string | null;
  /**
   * HTML only: each chart also drawn interactively (zoom, hover) on a click — plotly.js inline
   * (about 1.1 MB), allowed by its hash; the static SVG charts stay. Off by default.
   */
  interactive?: boolean;
}

export interface ExportResult {
  format: ReportFormat;
  /** the file written, or null for a download / a cancelled Save dialog */
  path: string | null;
  /** browser mode: fetch it from /api/download/<download> */
  download: string | null;
  fileName: string;
  bytes: number;
  /** every file written (Markdown: the .md and its chart images) */
  files: string[];
  /** the user closed the Save dialog: nothing was written */
  cancelled?: boolean;
}

export type BundleSource = { path: string } | { upload: string };

export interface BundleImportResult {
  /** `restored`: the study was in this notebook's trash, and is back */
  studies: { id: number; title: string; created: boolean; restored: boolean; experimentsAdded: number; experimentsAlreadyHere: number }[];
  capturesAdded: number;
  capturesAlreadyHere: number;
  profilesAdded: number;
}
