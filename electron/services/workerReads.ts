/**
 * The reads a host serves from the read worker (readWorker.ts) rather than on its own thread: the
 * ones that grow with the notebook. Their answer is JSON text (JsonText), passed on as it is.
 */
import type { ApiMethodName } from '../../shared/api';

/** Reads of the notebook's records (two workers). The lists of studies and profiles stay on the host's thread: a few rows, answered at once. */
export const RECORD_READS = [
  'getStudy', 'studyOutline', 'getExperiment', 'timeline', 'comparison', 'compareExperiments', 'experimentIndex',
  'search', 'experimentProposals',
] as const satisfies readonly ApiMethodName[];

/** Reads of stored captures (a 1 GB capture's search takes seconds): a second worker, so they never hold up the others. */
export const CAPTURE_READS = ['getCapture', 'captureLines', 'findInCapture', 'captureSeries'] as const satisfies readonly ApiMethodName[];

export type WorkerRead = (typeof RECORD_READS)[number] | (typeof CAPTURE_READS)[number];

export function isWorkerRead(method: string): method is WorkerRead {
  return (RECORD_READS as readonly string[]).includes(method) || (CAPTURE_READS as readonly string[]).includes(method);
}

export function isCaptureRead(method: string): boolean {
  return (CAPTURE_READS as readonly string[]).includes(method);
}

/**
 * Which of the two record workers serves a read: always the same one for a method (each keeps its
 * answers), and a study view's outline and comparison on different ones, so they load side by side.
 */
export function recordWorkerOf(method: WorkerRead): 0 | 1 {
  return (['comparison', 'timeline', 'compareExperiments', 'experimentProposals'] as string[]).includes(method) ? 1 : 0;
}

/** A read; `method` null only opens the notebook (the worker is started and ready before the first read). */
export interface ReadJob { notebook: string; method: WorkerRead | null; args: unknown[] }

/** A result already serialised as JSON by a worker: hosts send the text as it is. */
export class JsonText {
  constructor(readonly json: string) {}
  /** for a caller that serialises it again (JSON.stringify), the value it stands for */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}
