import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Better, ResultMetric, ResultMetricInput } from '../../../../shared/model';
import { useAction } from '../../app/useAction';
import { formatValue, parseNumber } from '../../lib/format';
import { METRIC_SUGGESTIONS } from './metricNames';

/** The results of an experiment: name, value, unit, which direction is better, and the primary one. */
export function MetricsEditor({ experimentId, metrics }: { experimentId: number; metrics: ResultMetric[] }) {
  const run = useAction();
  const [editing, setEditing] = useState<number | null>(null);

  return (
    <section className="subpanel" aria-labelledby={`rm-${experimentId}`}>
      <h3 id={`rm-${experimentId}`}>Results</h3>
      {metrics.length > 0 && (
        <table className="grid-table metrics">
          <thead><tr><th>Metric</th><th className="num">Value</th><th>Unit</th><th>Better</th><th>Primary</th><th><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {metrics.map((m) => editing === m.id ? (
              <tr key={m.id}>
                <td colSpan={6}>
                  <MetricForm
                    label={`Edit metric ${m.name}`}
                    initial={m}
                    submitLabel="Save metric"
                    onCancel={() => setEditing(null)}
                    onSubmit={async (input) => { if (await run((api) => api.updateResultMetric(m.id, input))) setEditing(null); }}
                  />
                </td>
              </tr>
            ) : (
              <tr key={m.id} data-testid="metric-row" className={m.primary ? 'primary-row' : ''}>
                <td className="mono">{m.name}</td>
                <td className="num">{formatValue(m.value)}</td>
                <td>{m.unit}</td>
                <td>{m.better}</td>
                <td>
                  {m.primary ? <span className="badge badge-primary">primary</span> : (
                    <button type="button" className="link-button small" aria-label={`Make ${m.name} primary`}
                      onClick={() => void run((api) => api.updateResultMetric(m.id, { primary: true }))}>make primary</button>
                  )}
                </td>
                <td className="row-actions">
                  <button type="button" className="btn btn-small" aria-label={`Edit metric ${m.name}`} onClick={() => setEditing(m.id)}>Edit</button>
                  <button type="button" className="btn btn-small btn-danger" aria-label={`Delete metric ${m.name}`}
                    onClick={() => void run((api) => api.deleteResultMetric(m.id))}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <MetricForm
        key={`${experimentId}-${metrics.length}`}
        label="Add metric"
        initial={{ name: '', value: NaN, unit: '', better: 'higher', primary: metrics.length === 0 }}
        submitLabel="Add metric"
        onSubmit={async (input) => { await run((api) => api.addResultMetric(experimentId, input)); }}
      />
    </section>
  );
}

function MetricForm({ label, initial, submitLabel, onSubmit, onCancel }: {
  label: string;
  initial: ResultMetricInput;
  submitLabel: string;
  onSubmit: (input: ResultMetricInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial.name);
  const [value, setValue] = useState(Number.isFinite(initial.value) ? String(initial.value) : '');
  const [unit, setUnit] = useState(initial.unit);
  const [better, setBetter] = useState<Better>(initial.better);
  const [primary, setPrimary] = useState(initial.primary);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onName = (n: string) => {
    setName(n);
    const known = METRIC_SUGGESTIONS.find((s) => s.name === n);
    if (known) { if (!unit) setUnit(known.unit); setBetter(known.better); }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = parseNumber(value);
    if (!name.trim()) { setError('The metric needs a name.'); return; }
    if (v === null || !Number.isFinite(v)) { setError(`“${value}” is not a number.`); return; }
    setError(null);
    setBusy(true);
    await onSubmit({ name: name.trim(), value: v, unit: unit.trim(), better, primary });
    setBusy(false);
  };
  return (
    <form className="metric-form" aria-label={label} onSubmit={submit} onKeyDown={(e) => { if (e.key === 'Escape' && onCancel) onCancel(); }}>
      <label className="field"><span>Metric</span><input list="metric-names" value={name} placeholder="requests_per_second" onChange={(e) => onName(e.target.value)} /></label>
      <label className="field"><span>Value</span><input inputMode="decimal" className="num" value={value} aria-invalid={!!error || undefined} onChange={(e) => setValue(e.target.value)} /></label>
      <label className="field"><span>Unit</span><input className="short" value={unit} placeholder="1/s" onChange={(e) => setUnit(e.target.value)} /></label>
      <label className="field">
        <span>Better</span>
        <select value={better} onChange={(e) => setBetter(e.target.value as Better)}>
          <option value="higher">higher</option>
          <option value="lower">lower</option>
        </select>
      </label>
      <label className="field checkbox"><input type="checkbox" checked={primary} onChange={(e) => setPrimary(e.target.checked)} /><span>Primary</span></label>
      <div className="form-actions end">
        {onCancel && <button type="button" className="btn btn-small" onClick={onCancel}>Cancel</button>}
        <button type="submit" className="btn btn-small btn-primary" disabled={busy}>{submitLabel}</button>
      </div>
      {error && <p role="alert" className="error-text full">{error}</p>}
    </form>
  );
}
