/**
 * The notebook's domain model. JSON-safe plain objects: the same shapes cross IPC, HTTP and the CLI.
 * Ids are integers assigned by the database. Times are ISO 8601 strings (UTC); dates are YYYY-MM-DD.
 */

export type Comparator = '>=' | '<=' | '>' | '<' | '=';
export const COMPARATORS: readonly Comparator[] = ['>=', '<=', '>', '<', '='];

/** One stated requirement of a study, e.g. requests_per_second >= 30000 1/s. */
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

export interface Study {
  id: number;
  title: string;
  /** free text: what this session is trying to reach */
  goal: string;
  requirements: Requirement[];
  createdAt: string;
  updatedAt: string;
}

export interface StudySummary {
  id: number;
  title: string;
  goal: string;
  experimentCount: number;
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

export interface ResultMetric {
  id: number;
  /** canonical name, e.g. requests_per_second */
  name: string;
  value: number;
  unit: string;
  better: Better;
  primary: boolean;
}
export type ResultMetricInput = Omit<ResultMetric, 'id'>;

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
  createdAt: string;
  updatedAt: string;
}
export type ExperimentInput = Pick<Experiment, 'title' | 'profileId' | 'date' | 'notes' | 'status'>;

export interface StudyDetail {
  study: Study;
  experiments: Experiment[];
}

/** One row of a study's timeline: an experiment with its primary metric and the changes. */
export interface TimelineRow {
  experimentId: number;
  position: number;
  title: string;
  status: ExperimentStatus;
  metric: string | null;
  value: number | null;
  unit: string | null;
  better: Better | null;
  /** change from the previous experiment that has the same primary metric, in percent */
  stepChangePercent: number | null;
  /** change from the first experiment (the baseline) with the same primary metric, in percent */
  cumulativeChangePercent: number | null;
  /** does the value meet the study's requirements on this metric? null when none applies */
  meetsGoal: boolean | null;
}

export type SearchHitKind = 'study' | 'experiment' | 'config' | 'profile';

export interface SearchHit {
  kind: SearchHitKind;
  studyId: number | null;
  experimentId: number | null;
  profileId: number | null;
  title: string;
  /** text around the match; the matched words are between \u0002 and \u0003 (never HTML) */
  snippet: string;
}

export interface NotebookInfo {
  path: string;
  schemaVersion: number;
  appVersion: string;
}
