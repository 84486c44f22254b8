/**
 * Tunebook's own, full-fidelity data inside an exported bundle (`tunebook/bundle.json` in the .eln
 * archive, beside the RO-Crate metadata other lab notebooks read). Everything a notebook holds about
 * the exported studies, with database ids replaced by stable uids, so that another Tunebook imports
 * it intact, and importing it twice adds nothing the second time. Captures are referenced by the
 * SHA-256 of their raw bytes, which are stored verbatim as files of the archive.
 *
 * Stable: a newer Tunebook reads every earlier version; an older one refuses a newer version with
 * a clear message instead of guessing.
 */
import type {
  Better, Comparator, ConfigChangeInput, Disk, ExperimentStatus, HardwareProfileInput,
} from '../model';
import type { Labels } from '../capture/types';

import type { CaptureContext } from '../capture/types';
export const BUNDLE_FORMAT = 'tunebook-bundle';
export const BUNDLE_VERSION = 1;
/** Where the full-fidelity JSON sits inside the archive's root folder. */
export const BUNDLE_JSON_PATH = 'tunebook/bundle.json';

export interface BundleJson {
  format: typeof BUNDLE_FORMAT;
  version: number;
  exportedAt: string;
  app: { name: 'Tunebook'; version: string };
  profiles: BundleProfile[];
  studies: BundleStudy[];
  /** every capture linked on an exported experiment, once each */
  captures: BundleCapture[];
}

export interface BundleProfile extends HardwareProfileInput {
  uid: string;
  disks: Disk[];
}

export interface BundleRequirement {
  metric: string;
  comparator: Comparator;
  /** in the unit's base unit, as stored */
  threshold: number;
  unit: string;
  label: string;
}

export interface BundleStudy {
  uid: string;
  title: string;
  goal: string;
  requirements: BundleRequirement[];
  /** what the comparison view shows; hidden experiments by uid */
  view: { hiddenMetrics?: string[]; hiddenExperiments?: string[] };
  createdAt: string;
  updatedAt: string;
  experiments: BundleExperiment[];
}

export interface BundleResultMetric {
  name: string;
  /** in the unit's base unit, as stored */
  value: number;
  unit: string;
  better: Better;
  primary: boolean;
  /** the capture figure the result was taken from (by the capture's sha256) */
  source: { sha256: string | null; captureName: string; metric: string; labels?: Labels; lines?: [number, number] } | null;
}

export interface BundleExperimentCapture {
  sha256: string;
  /** the name it was attached under */
  name: string;
  note: string;
  addedAt: string;
}

export interface BundleExperiment {
  uid: string;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  notes: string;
  status: ExperimentStatus;
  /** the hardware profile's uid */
  profile: string | null;
  configChanges: ConfigChangeInput[];
  metrics: BundleResultMetric[];
  captures: BundleExperimentCapture[];
  createdAt: string;
  updatedAt: string;
  /** the experiment's folder in the archive (relative to its root folder), e.g. "experiments/02-opcache/" */
  folder: string;
}

export interface BundleCapture {
  sha256: string;
  /** the file of the raw bytes in the archive (relative to its root folder) */
  path: string;
  size: number;
  lines: number;
  /** the kind the user chose, null when detected */
  forcedKind: string | null;
  /** the kind detected when exported (the importing Tunebook parses it again) */
  kind: string;
  encodingFormat: string;
  /** what its surroundings told when it was stored (a capture kit's manifest): parsed again with it */
  context?: CaptureContext;
}

