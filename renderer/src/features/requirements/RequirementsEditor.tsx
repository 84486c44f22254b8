import { useEffect, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { COMPARATORS } from '../../../../shared/model';
import type { Comparator, Requirement, RequirementInput, StudyComparison } from '../../../../shared/model';
import { useAction } from '../../app/useAction';
import { useUndo } from '../../app/undo';
import { useDraft } from '../../hooks/useDraft';
import { COMPARATOR_LABELS, requirementText, splitComparator } from '../../../../shared/format';
import { focusWhenShown } from '../../lib/focus';
import { latestValue, requirementVerdict } from './verdict';
import { editableQuantity, parseQuantity } from '../../../../shared/units';
import { metricInfo } from '../../../../shared/metrics';

/** A requirement as edited: the threshold as typed ("100 MiB/s", "70 ms", "30,000"); a bare number is in `unit`. */
interface Row { metric: string; comparator: Comparator; threshold: string; unit: string; label: string }

const toRow = (r: Requirement): Row => {
  const t = editableQuantity(r.threshold, r.unit, r.metric);
  return { metric: r.metric, comparator: r.comparator, threshold: t.text, unit: t.unit, label: r.label };
};
const emptyRow = (): Row => ({ metric: '', comparator: '>=', threshold: '', unit: '', label: '' });

/**
 * The study's stated requirements, read as statements with their verdicts ("QPS ≥ 30,000 req/s —
 * met by step 4"); Edit (or Add requirement) opens the editor: a table saved as a whole with
 * setRequirements. Unsaved edits are a draft (useDraft): a draft kept from before opens the editor.
 */
export function RequirementsEditor({ studyId, requirements, comparison, onSelect }: {
  studyId: number;
  requirements: Requirement[];
  /** the study's comparison, for the verdicts (undefined while it loads) */
  comparison?: StudyComparison;
  onSelect?: (experimentId: number) => void;
}) {
  const run = useAction();
  const { record } = useUndo();
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const saved = JSON.stringify(requirements.map(toRow));
  const savedRows = useMemo(() => JSON.parse(saved) as Row[], [saved]);
  // edits not saved yet are a draft: kept across switching study and reloads
  const draft = useDraft(`requirements:${studyId}`, savedRows);
  const rows = draft.value;
  const setRows = draft.set;

  useEffect(() => { setError(null); }, [studyId, saved]);

  const dirty = draft.dirty;
  // the editor is open while asked for, and while there is a draft (one kept from before included)
  const open = editing || dirty;
  const update = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, n) => (n === i ? { ...r, ...patch } : r)));

  const edit = (i: number) => { setEditing(true); focusWhenShown(`requirement:${i}`); };
  const close = () => { setEditing(false); setError(null); focusWhenShown('requirement-edit:0', 'add-requirement'); };
  const add = () => {
    const i = rows.length;
    setRows((rs) => [...rs, emptyRow()]);
    setEditing(true);
    focusWhenShown(`requirement:${i}`);
  };
  const removeRow = (i: number) => {
    setRows((rs) => rs.filter((_, n) => n !== i));
    // the row that takes its place (rows are drawn by position), else the one before, else Add
    focusWhenShown(i < rows.length - 1 ? `requirement:${i}` : i > 0 ? `requirement:${i - 1}` : null, 'add-requirement');
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const out: RequirementInput[] = [];
    for (const [i, r] of rows.entries()) {
      if (!r.metric.trim()) { setError(`Requirement ${i + 1}: the metric name is empty.`); return; }
      // "≥ 100 MiB/s" typed whole: the comparator typed wins over the one chosen beside it
      const typed = splitComparator(r.threshold);
      const t = parseQuantity(typed.rest, r.unit.trim() || metricInfo(r.metric.trim()).unit);
      if (!t) { setError(`Requirement ${i + 1}: the threshold “${r.threshold}” is not a value (e.g. 30,000, ≥ 100 MiB/s, 70 ms, 5 %).`); return; }
      out.push({ metric: r.metric.trim(), comparator: typed.comparator ?? r.comparator, threshold: t.value, unit: t.unit, label: r.label.trim() });
    }
    setError(null);
    const old: RequirementInput[] = requirements.map(({ id: _id, ...r }) => r);
    if (await run((api) => api.setRequirements(studyId, out))) {
      draft.committed();
      setEditing(false);
      focusWhenShown('requirement-edit:0', 'add-requirement');
      record({ message: 'Requirements changed.', toast: false, undo: (api) => api.setRequirements(studyId, old) });
    }
  };

  return (
    <section className="panel" aria-labelledby="requirements-heading">
      <h2 id="requirements-heading">Requirements</h2>
      <form aria-label="Requirements" onSubmit={save} onKeyDown={(e) => { if (e.key === 'Escape' && open && !dirty) { e.preventDefault(); close(); } }}>
        {!open ? (
          requirements.length === 0
            ? <p className="muted small">No requirements: state what “done” means, e.g. requests_per_second ≥ 30,000 req/s, latency_mean_seconds ≤ 70 ms.</p>
            : (
              <ul className="requirement-list">
                {requirements.map((q, i) => (
                  <Statement key={q.id} requirement={q} index={i} comparison={comparison} onSelect={onSelect} onEdit={() => edit(i)} />
                ))}
              </ul>
            )
        ) : (
          <>
            {rows.length === 0 && <p className="muted small">No requirements: add one, or save to remove them all.</p>}
            {rows.length > 0 && (
              <table className="grid-table requirements">
                <thead>
                  <tr><th>Metric</th><th>Is</th><th>Threshold</th><th>Unit</th><th>Label</th><th><span className="sr-only">Actions</span></th></tr>
                </thead>
                <tbody>
                  {rows.map((r, i) => (
                    <tr key={i}>
                      <td><input aria-label={`Requirement ${i + 1} metric`} data-focus-key={`requirement:${i}`} list="metric-names" value={r.metric} onChange={(e) => update(i, { metric: e.target.value })} /></td>
                      <td>
                        <select aria-label={`Requirement ${i + 1} comparator`} value={r.comparator} onChange={(e) => update(i, { comparator: e.target.value as Comparator })}>
                          {COMPARATORS.map((c) => <option key={c} value={c}>{COMPARATOR_LABELS[c]}</option>)}
                        </select>
                      </td>
                      <td><input aria-label={`Requirement ${i + 1} threshold`} inputMode="decimal" className="num" value={r.threshold} onChange={(e) => update(i, { threshold: e.target.value })} /></td>
                      <td><input aria-label={`Requirement ${i + 1} unit`} className="short" value={r.unit} onChange={(e) => update(i, { unit: e.target.value })} /></td>
                      <td><input aria-label={`Requirement ${i + 1} label`} value={r.label} onChange={(e) => update(i, { label: e.target.value })} /></td>
                      <td><button type="button" className="btn btn-icon" aria-label={`Remove requirement ${i + 1}`} onClick={() => removeRow(i)}>×</button></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
        {error && <p role="alert" className="error-text">{error}</p>}
        <div className="form-actions start">
          <button type="button" className="btn btn-small" data-focus-key="add-requirement" onClick={add}>Add requirement</button>
          {open && dirty && <button type="submit" className="btn btn-primary btn-small">Save requirements</button>}
          {open && dirty && <button type="button" className="btn btn-small" onClick={() => { draft.discard(); setError(null); }}>Discard</button>}
          {open && !dirty && <button type="button" className="btn btn-small" onClick={close}>Done</button>}
          {open && dirty && draft.restored && <span className="muted small">Unsaved draft kept from before</span>}
        </div>
      </form>
    </section>
  );
}

/** "QPS ≥ 30,000 req/s — met by step 4", with its Edit button. */
function Statement({ requirement: q, index: i, comparison, onSelect, onEdit }: {
  requirement: Requirement; index: number; comparison?: StudyComparison; onSelect?: (experimentId: number) => void; onEdit: () => void;
}) {
  const text = requirementText(q);
  const v = comparison ? requirementVerdict(comparison, i) : null;
  const step = v?.step && v.experimentId !== null
    ? (onSelect ? <button type="button" className="link-button" title={v.title ?? undefined} onClick={() => onSelect(v.experimentId!)}>{v.step}</button> : <span title={v.title ?? undefined}>{v.step}</span>)
    : null;
  const reached = v?.state === 'unmet' && v.experimentId !== null && comparison ? latestValue(comparison, i, v.experimentId) : null;
  return (
    <li className="requirement-statement" data-testid="requirement-statement">
      <span className="req-text">{text}</span>
      {v && (
        <span className={`req-verdict verdict-${v.state}`} data-testid="requirement-verdict">
          {' — '}
          {v.state === 'met' && <>met by {step}</>}
          {v.state === 'regressed' && <>met by {step}{v.rest}</>}
          {v.state === 'unmet' && <>not met yet: {reached} at {step}</>}
          {v.state === 'unmeasured' && <>not measured yet</>}
        </span>
      )}
      <button type="button" className="btn btn-small req-edit" aria-label={`Edit requirement ${i + 1}: ${text}`} data-focus-key={`requirement-edit:${i}`} onClick={onEdit}>Edit</button>
    </li>
  );
}
