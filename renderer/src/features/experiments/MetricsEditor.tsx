import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Better, Experiment, ResultMetric } from '../../../../shared/model';
import type { UsualMetric } from '../../../../shared/evidence';
import { metricInfo } from '../../../../shared/metrics';
import { editableQuantity, formatQuantity, parseQuantity } from '../../../../shared/units';
import type { TunebookApi } from '../../../../shared/api';
import { useAction } from '../../app/useAction';
import { useUndo } from '../../app/undo';
import { focusAfterRemoval, focusWhenShown } from '../../lib/focus';

/** What the result form holds: the value as typed ("168 MiB/s", "43.0k", "207 ms"). */
interface Draft { name: string; value: string; unit: string; better: Better; primary: boolean }

/**
 * The results of an experiment: name, value (stored in its base unit, typed and shown the way
 * people write it), which direction is better, the primary one, and the capture a result was
 * taken from. The add form proposes the metrics the study usually records.
 */
export function MetricsEditor({ experiment, usual, onOpenCapture }: {
  experiment: Experiment;
  usual: readonly UsualMetric[];
  onOpenCapture: (captureId: number, line?: number) => void;
}) {
  const run = useAction();
  const { record } = useUndo();
  const [editing, setEditing] = useState<number | null>(null);
  const metrics = experiment.metrics;
  const update = async (m: ResultMetric, input: Parameters<TunebookApi['updateResultMetric']>[1], close: boolean) => {
    if (!await run((api) => api.updateResultMetric(m.id, input))) return;
    if (close) { setEditing(null); focusWhenShown(`metric:${m.id}`); }
    const { id: _id, source: _s, ...old } = m;
    record({ message: `Result ${m.name} edited.`, toast: false, undo: (api) => api.updateResultMetric(m.id, old) });
  };
  const makePrimary = async (m: ResultMetric) => {
    const was = metrics.find((x) => x.primary);
    if (!await run((api) => api.updateResultMetric(m.id, { primary: true }))) return;
    record({
      message: `${m.name} made primary.`, toast: false,
      undo: (api) => (was ? api.updateResultMetric(was.id, { primary: true }) : api.updateResultMetric(m.id, { primary: false })),
    });
  };
  const remove = async (m: ResultMetric) => {
    const refocus = focusAfterRemoval(`metric:${m.id}`, `add-metric:${experiment.id}`);
    if (!await run(async (api) => { await api.deleteResultMetric(m.id); return true; })) return;
    refocus();
    const { id: _id, source, ...fields } = m;
    const src = source && source.captureId !== null
      ? { captureId: source.captureId, metric: source.metric, ...(source.labels ? { labels: source.labels } : {}), ...(source.lines ? { lines: source.lines } : {}) }
      : null;
    record({ message: `Result ${m.name} deleted.`, undo: (api) => api.addResultMetric(experiment.id, { ...fields, source: src }) });
  };
  const hasPrimary = metrics.some((m) => m.primary);
  // the first of the study's usual metrics this experiment has not recorded yet
  const next = usual.find((u) => !metrics.some((m) => m.name === u.name));
  const initial: Draft = next
    ? { name: next.name, value: '', unit: '', better: next.better, primary: !hasPrimary }
    : { name: '', value: '', unit: '', better: 'higher', primary: !hasPrimary };

  return (
    <section className="subpanel" aria-labelledby={`rm-${experiment.id}`}>
      <h3 id={`rm-${experiment.id}`}>Results</h3>
      {metrics.length > 0 && (
        <table className="grid-table metrics">
          <thead><tr><th>Metric</th><th className="num">Value</th><th>Better</th><th>Primary</th><th>From</th><th><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {metrics.map((m) => editing === m.id ? (
              <tr key={m.id}>
                <td colSpan={6}>
                  <MetricForm
                    label={`Edit metric ${m.name}`}
                    initial={toDraft(m)}
                    usual={usual}
                    submitLabel="Save metric"
                    onCancel={() => { setEditing(null); focusWhenShown(`metric:${m.id}`); }}
                    onSubmit={(input) => update(m, input, true)}
                  />
                </td>
              </tr>
            ) : (
              <tr key={m.id} data-testid="metric-row" className={m.primary ? 'primary-row' : ''} tabIndex={-1}
                data-focus-key={`metric:${m.id}`} data-focus-group={`metrics:${experiment.id}`}>
                <td className="mono">{m.name}</td>
                <td className="num" data-testid="metric-value" title={`${m.value} ${m.unit}`.trim()}>{formatQuantity(m.value, m.unit, m.name)}</td>
                <td>{m.better}</td>
                <td>
                  {m.primary ? <span className="badge badge-primary">primary</span> : (
                    <button type="button" className="link-button small" aria-label={`Make ${m.name} primary`}
                      onClick={() => void makePrimary(m)}>make primary</button>
                  )}
                </td>
                <td className="small">
                  {m.source && (m.source.captureId !== null ? (
                    <button type="button" className="link-button" data-testid="metric-source"
                      title={`Open ${m.source.captureName}${m.source.lines ? ` at line ${m.source.lines[0]}` : ''}`}
                      onClick={() => onOpenCapture(m.source!.captureId!, m.source!.lines?.[0])}>
                      {m.source.captureName}{m.source.lines ? ` · line ${m.source.lines[0]}` : ''}
                    </button>
                  ) : <span className="muted" title="The capture was removed from the notebook">{m.source.captureName} (removed)</span>)}
                </td>
                <td className="row-actions">
                  <button type="button" className="btn btn-small" aria-label={`Edit metric ${m.name}`} onClick={() => setEditing(m.id)}>Edit</button>
                  <button type="button" className="btn btn-small btn-danger" aria-label={`Delete metric ${m.name}`}
                    onClick={() => void remove(m)}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <MetricForm
        key={`${experiment.id}-${metrics.length}-${initial.name}`}
        label="Add metric"
        initial={initial}
        usual={usual}
        submitLabel="Add metric"
        firstFieldKey={`add-metric:${experiment.id}`}
        onSubmit={async (input) => {
          const added = await run((api) => api.addResultMetric(experiment.id, input));
          if (added) focusWhenShown(`metric:${added.id}`);
          if (added) record({ message: `Result ${added.name} added.`, toast: false, undo: (api) => api.deleteResultMetric(added.id) });
        }}
      />
    </section>
  );
}

function toDraft(m: ResultMetric): Draft {
  const e = editableQuantity(m.value, m.unit, m.name);
  return { name: m.name, value: e.text, unit: e.unit, better: m.better, primary: m.primary };
}

/** The unit a bare number is in: the one typed in the Unit field, else the one the study or the metric's name uses. */
function defaultUnit(d: Draft, usual: readonly UsualMetric[]): string {
  return d.unit.trim() || usual.find((u) => u.name === d.name.trim())?.unit || metricInfo(d.name.trim()).unit;
}

function MetricForm({ label, initial, usual, submitLabel, onSubmit, onCancel, firstFieldKey }: {
  label: string;
  /** the focus key of the first field (the add form: where the focus goes when the last result is deleted) */
  firstFieldKey?: string;
  initial: Draft;
  usual: readonly UsualMetric[];
  submitLabel: string;
  onSubmit: (input: { name: string; value: number; unit: string; better: Better; primary: boolean }) => Promise<void>;
  onCancel?: () => void;
}) {
  const [d, setD] = useState<Draft>(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const unitHint = defaultUnit({ ...d, unit: '' }, usual);
  const parsed = d.value.trim() ? parseQuantity(d.value, defaultUnit(d, usual)) : null;

  const onName = (name: string) => {
    const known = usual.find((u) => u.name === name);
    set({ name, better: known?.better ?? metricInfo(name).better });
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!d.name.trim()) { setError('The metric needs a name.'); return; }
    if (!parsed) { setError(`“${d.value}” is not a value: type a number, with a unit if it has one (168 MiB/s, 207 ms, 43.0k, 95 %).`); return; }
    setError(null);
    setBusy(true);
    await onSubmit({ name: d.name.trim(), value: parsed.value, unit: parsed.unit, better: d.better, primary: d.primary });
    setBusy(false);
  };
  return (
    <form className="metric-form" aria-label={label} onSubmit={submit} onKeyDown={(e) => { if (e.key === 'Escape' && onCancel) onCancel(); }}>
      <label className="field"><span>Metric</span><input list="metric-names" data-focus-key={firstFieldKey} value={d.name} placeholder="requests_per_second" onChange={(e) => onName(e.target.value)} /></label>
      <label className="field">
        <span>Value</span>
        <input className="num" value={d.value} aria-invalid={!!error || undefined} placeholder={unitHint ? `e.g. 140 ${unitHint === '1/s' ? 'req/s' : unitHint}` : 'e.g. 140'}
          onChange={(e) => set({ value: e.target.value })} />
      </label>
      <label className="field"><span>Unit</span><input className="short" value={d.unit} placeholder={unitHint || 'none'} onChange={(e) => set({ unit: e.target.value })} /></label>
      <label className="field">
        <span>Better</span>
        <select value={d.better} onChange={(e) => set({ better: e.target.value as Better })}>
          <option value="higher">higher</option>
          <option value="lower">lower</option>
        </select>
      </label>
      <label className="field checkbox"><input type="checkbox" checked={d.primary} onChange={(e) => set({ primary: e.target.checked })} /><span>Primary</span></label>
      <div className="form-actions end">
        {onCancel && <button type="button" className="btn btn-small" onClick={onCancel}>Cancel</button>}
        <button type="submit" className="btn btn-small btn-primary" disabled={busy}>{submitLabel}</button>
      </div>
      {parsed && !error && <p className="muted small full" data-testid="value-preview">Stored as {formatQuantity(parsed.value, parsed.unit, d.name.trim())}</p>}
      {error && <p role="alert" className="error-text full">{error}</p>}
    </form>
  );
}
