/**
 * A requirement's verdict as a statement says it: "met by step 4", "met by step 2, but not by
 * step 5", "not met yet: 25.0k req/s at step 3", "not measured yet". Judged on the study's
 * comparison (every requirement on every experiment, in the study's order of requirements).
 */
import type { StudyComparison } from '../../../../shared/model';
import { countsTowardGoal } from '../../../../shared/timeline';
import { formatQuantity } from '../../../../shared/units';

export interface Verdict {
  state: 'met' | 'regressed' | 'unmet' | 'unmeasured';
  /** the experiment the verdict names: the first meeting it, else the latest measuring it */
  experimentId: number | null;
  /** "step 4", "the baseline" */
  step: string | null;
  title: string | null;
  /** what follows the step, e.g. ", but not by step 5 (25.0k req/s)" */
  rest: string;
}

export const stepName = (i: number): string => (i === 0 ? 'the baseline' : `step ${i}`);

/** The verdict of the study's requirement number `j`. */
export function requirementVerdict(c: StudyComparison, j: number): Verdict {
  const rows = c.rows;
  const check = (i: number) => rows[i]!.requirements[j];
  const judged = (i: number) => rows[i]!.status !== 'planned';
  // a reverted or failed attempt that met it did not meet it for the study: what it reached was undone
  const firstMet = rows.findIndex((r, i) => countsTowardGoal(r) && check(i)?.met === true);
  // the study's current state: the last kept step that measured it, else the last attempt that did
  let latest = -1;
  for (let i = rows.length - 1; i >= 0 && latest < 0; i--) if (rows[i]!.inChain && check(i)?.value != null) latest = i;
  for (let i = rows.length - 1; i >= 0 && latest < 0; i--) if (judged(i) && check(i)?.value != null) latest = i;
  const valueAt = (i: number) => { const q = check(i)!; return formatQuantity(q.value!, q.unit, q.metric); };
  if (firstMet >= 0) {
    const r = rows[firstMet]!;
    if (latest > firstMet && check(latest)?.met === false) {
      return { state: 'regressed', experimentId: r.experimentId, step: stepName(firstMet), title: r.title, rest: `, but not by ${stepName(latest)} (${valueAt(latest)})` };
    }
    return { state: 'met', experimentId: r.experimentId, step: stepName(firstMet), title: r.title, rest: '' };
  }
  if (latest >= 0) {
    const r = rows[latest]!;
    return { state: 'unmet', experimentId: r.experimentId, step: stepName(latest), title: r.title, rest: '' };
  }
  return { state: 'unmeasured', experimentId: null, step: null, title: null, rest: '' };
}

/** The value the latest measuring experiment reached (for "not met yet: 25.0k req/s at step 3"). */
export function latestValue(c: StudyComparison, j: number, experimentId: number): string | null {
  const r = c.rows.find((x) => x.experimentId === experimentId);
  const q = r?.requirements[j];
  return q && q.value !== null ? formatQuantity(q.value, q.unit, q.metric) : null;
}

/** The "All met" cell of an experiment: ✓, how many fail, or how many were not measured (one that measured none is not "0 failing"). */
export function allMetText(checks: readonly { met: boolean | null }[]): string {
  const failing = checks.filter((x) => x.met === false).length;
  if (failing) return `${failing} failing`;
  const unmeasured = checks.filter((x) => x.met === null).length;
  if (unmeasured === checks.length) return 'not measured';
  return unmeasured ? `${unmeasured} not measured` : '✓';
}
