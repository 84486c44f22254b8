import type { ExperimentStatus } from '../../../../shared/model';

const LABELS: Record<ExperimentStatus, string> = { planned: 'planned', kept: 'kept', reverted: 'reverted', failed: 'failed' };
const ICONS: Record<ExperimentStatus, string> = { planned: '○', kept: '✓', reverted: '↶', failed: '✗' };

/** Experiment status; failed and reverted get their own colour and symbol so they stand out. */
export function StatusBadge({ status }: { status: ExperimentStatus }) {
  return (
    <span className={`badge status-${status}`} title={`status: ${LABELS[status]}`}>
      <span aria-hidden="true">{ICONS[status]} </span>{LABELS[status]}
    </span>
  );
}
