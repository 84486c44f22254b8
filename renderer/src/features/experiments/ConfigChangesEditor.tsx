import { useState } from 'react';
import type { FormEvent } from 'react';
import type { ConfigChange, ConfigChangeInput } from '../../../../shared/model';
import { useAction } from '../../app/useAction';
import { useUndo } from '../../app/undo';
import { SnapshotDiff } from './SnapshotDiff';
import { focusAfterRemoval, focusWhenShown } from '../../lib/focus';

const EMPTY: ConfigChangeInput = { scope: '', key: '', before: '', after: '', why: '' };

/** The configuration changed in an experiment: where (scope), key, before → after, and why. */
export function ConfigChangesEditor({ experimentId, changes }: { experimentId: number; changes: ConfigChange[] }) {
  const run = useAction();
  const { record } = useUndo();
  const [editing, setEditing] = useState<number | null>(null);
  const fields = (c: ConfigChange): ConfigChangeInput => ({ scope: c.scope, key: c.key, before: c.before, after: c.after, why: c.why });
  const update = async (c: ConfigChange, input: ConfigChangeInput) => {
    if (!await run((api) => api.updateConfigChange(c.id, input))) return;
    setEditing(null);
    focusWhenShown(`config-change:${c.id}`);
    record({ message: `Config change ${c.key} edited.`, toast: false, undo: (api) => api.updateConfigChange(c.id, fields(c)) });
  };
  const remove = async (c: ConfigChange) => {
    const refocus = focusAfterRemoval(`config-change:${c.id}`, `add-config-change:${experimentId}`);
    if (!await run(async (api) => { await api.deleteConfigChange(c.id); return true; })) return;
    refocus();
    // the inverse adds it again, at the end of the list
    record({ message: `Config change ${c.key} deleted.`, undo: (api) => api.addConfigChange(experimentId, fields(c)) });
  };

  return (
    <section className="subpanel" aria-labelledby={`cc-${experimentId}`}>
      <h3 id={`cc-${experimentId}`}>Config changes</h3>
      {changes.length > 0 && (
        <table className="grid-table config-changes">
          <thead><tr><th>Scope</th><th>Key</th><th>Before</th><th>After</th><th>Why</th><th><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {changes.map((c) => editing === c.id ? (
              <tr key={c.id}>
                <td colSpan={6}>
                  <ChangeForm
                    label={`Edit config change ${c.key}`}
                    initial={c}
                    submitLabel="Save change"
                    onCancel={() => { setEditing(null); focusWhenShown(`config-change:${c.id}`); }}
                    onSubmit={(input) => update(c, input)}
                  />
                </td>
              </tr>
            ) : (
              <tr key={c.id} data-testid="config-change-row" tabIndex={-1}
                data-focus-key={`config-change:${c.id}`} data-focus-group={`config-changes:${experimentId}`}>
                <td>{c.scope}</td>
                <td className="mono">{c.key}</td>
                <td className="mono">{c.before}</td>
                <td className="mono">{c.after}</td>
                <td>{c.why}</td>
                <td className="row-actions">
                  <button type="button" className="btn btn-small" aria-label={`Edit config change ${c.key}`} onClick={() => setEditing(c.id)}>Edit</button>
                  <button type="button" className="btn btn-small btn-danger" aria-label={`Delete config change ${c.key}`}
                    onClick={() => void remove(c)}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ChangeForm
        key={`${experimentId}-${changes.length}`}
        label="Add config change"
        initial={EMPTY}
        submitLabel="Add change"
        firstFieldKey={`add-config-change:${experimentId}`}
        onSubmit={async (input) => {
          const added = await run((api) => api.addConfigChange(experimentId, input));
          if (added) focusWhenShown(`config-change:${added.id}`);
          if (added) record({ message: `Config change ${added.key} added.`, toast: false, undo: (api) => api.deleteConfigChange(added.id) });
        }}
      />
      <SnapshotDiff experimentId={experimentId} existing={changes} />
    </section>
  );
}

function ChangeForm({ label, initial, submitLabel, onSubmit, onCancel, firstFieldKey }: {
  label: string;
  /** the focus key of the first field (the add form: where the focus goes when the last change is deleted) */
  firstFieldKey?: string;
  initial: ConfigChangeInput;
  submitLabel: string;
  onSubmit: (input: ConfigChangeInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [v, setV] = useState<ConfigChangeInput>({ scope: initial.scope, key: initial.key, before: initial.before, after: initial.after, why: initial.why });
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ConfigChangeInput>) => setV((x) => ({ ...x, ...patch }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!v.key.trim()) return;
    setBusy(true);
    await onSubmit({ ...v, key: v.key.trim(), scope: v.scope.trim() });
    setBusy(false);
  };
  return (
    <form className="change-form" aria-label={label} onSubmit={submit} onKeyDown={(e) => { if (e.key === 'Escape' && onCancel) onCancel(); }}>
      <label className="field"><span>Scope</span><input list="config-scopes" data-focus-key={firstFieldKey} value={v.scope} placeholder="php.ini" onChange={(e) => set({ scope: e.target.value })} /></label>
      <label className="field"><span>Key</span><input required value={v.key} placeholder="opcache.validate_timestamps" onChange={(e) => set({ key: e.target.value })} /></label>
      <label className="field"><span>Before</span><input value={v.before} onChange={(e) => set({ before: e.target.value })} /></label>
      <label className="field"><span>After</span><input value={v.after} onChange={(e) => set({ after: e.target.value })} /></label>
      <label className="field wide"><span>Why</span><input value={v.why} onChange={(e) => set({ why: e.target.value })} /></label>
      <div className="form-actions end">
        {onCancel && <button type="button" className="btn btn-small" onClick={onCancel}>Cancel</button>}
        <button type="submit" className="btn btn-small btn-primary" disabled={busy || !v.key.trim()}>{submitLabel}</button>
      </div>
    </form>
  );
}
