/**
 * The trash: deleted studies, experiments and captures stay here until the trash is emptied. Each
 * can be restored (it comes back where it was) or deleted for good; emptying asks first. An
 * experiment of a deleted study, or a capture of a deleted experiment, comes back with it.
 */
import { useState } from 'react';
import type { DataChange, TunebookApi } from '../../../../shared/api';
import type { TrashEmptied, TrashItem } from '../../../../shared/model';
import { formatNumber } from '../../../../shared/units';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { useQuery } from '../../app/useQuery';
import { useUndo } from '../../app/undo';
import { Dialog } from '../../components/Dialog/Dialog';
import { useToasts } from '../../components/Toast/useToasts';
import { focusAfterRemoval } from '../../lib/focus';
import './trash.css';

/** Deleting, restoring and emptying all touch a study (profiles do not). */
const trashChanged = (c: DataChange): boolean => c.studyId !== null;
const listTrash = (api: TunebookApi) => api.listTrash();

const plural = (n: number, one: string, many = `${one}s`): string => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** The sidebar's way in, with how many things the trash holds. */
export function TrashNavItem({ active, onOpen }: { active: boolean; onOpen: () => void }) {
  const trash = useQuery('trash', listTrash, { on: trashChanged });
  const n = trash.data?.length ?? 0;
  return (
    <button type="button" className={`nav-item ${active ? 'active' : ''}`} aria-current={active ? 'page' : undefined} onClick={onOpen} data-focus-key="trash-nav"
      aria-label={n ? `Trash, ${plural(n, 'item')}` : 'Trash'}>
      <span className="nav-title">Trash</span>
      {n > 0 && <span className="nav-meta" data-testid="trash-count">{formatNumber(n)}</span>}
    </button>
  );
}

function where(item: TrashItem): string {
  if (item.kind === 'study') return item.experimentCount ? `study, with ${plural(item.experimentCount, 'experiment')}` : 'study';
  if (item.kind === 'experiment') return `experiment of “${item.studyTitle}”`;
  return `capture of “${item.experimentTitle ?? ''}” in “${item.studyTitle}”`;
}

const when = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

function summary(r: TrashEmptied): string {
  const parts = [r.studies && plural(r.studies, 'study', 'studies'), r.experiments && plural(r.experiments, 'experiment'), r.captures && plural(r.captures, 'stored capture')]
    .filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing more';
}

export function TrashView() {
  const { navigate } = useApp();
  const run = useAction();
  const { record } = useUndo();
  const { show } = useToasts();
  const trash = useQuery('trash', listTrash, { on: trashChanged });
  const [confirm, setConfirm] = useState<{ item: TrashItem } | 'empty' | null>(null);
  const items = trash.data ?? [];

  // after an item leaves the trash, the focus goes to the one next to it
  const keyOf = (item: TrashItem) => `trash:${item.kind}-${item.id}`;
  const restore = async (item: TrashItem) => {
    const refocus = focusAfterRemoval(keyOf(item), 'trash-nav');
    const done = await run(async (api) => {
      if (item.kind === 'study') { await api.restoreStudy(item.id); return () => navigate({ name: 'study', studyId: item.id }); }
      if (item.kind === 'experiment') { await api.restoreExperiment(item.id); return () => navigate({ name: 'study', studyId: item.studyId, experimentId: item.id }); }
      await api.restoreCaptureLink(item.id);
      return () => navigate({ name: 'study', studyId: item.studyId, experimentId: item.experimentId });
    });
    if (!done) return;
    refocus();
    // the inverse of a restore: back to the trash
    record({
      message: `“${item.name}” restored.`, toast: false,
      undo: (api) => (item.kind === 'study' ? api.deleteStudy(item.id) : item.kind === 'experiment' ? api.deleteExperiment(item.id) : api.detachCapture(item.id)),
    });
    show({ message: `“${item.name}” restored.`, action: { label: 'Open', run: done } });
  };

  const deleteForever = async (item: TrashItem) => {
    setConfirm(null);
    const refocus = focusAfterRemoval(keyOf(item), 'trash-nav');
    const r = await run((api) => api.deleteForever({ kind: item.kind, id: item.id }));
    if (r) refocus();
    if (r) show({ message: `“${item.name}” deleted for good${r.captures ? ` (and ${plural(r.captures, 'stored capture')} nothing else used)` : ''}.` });
  };

  const empty = async () => {
    setConfirm(null);
    const r = await run((api) => api.emptyTrash());
    if (r) show({ message: `Trash emptied: ${summary(r)} deleted for good.` });
  };

  return (
    <div className="view trash-view">
      <div className="title-row">
        <h1>Trash</h1>
        <button type="button" className="btn btn-small btn-danger push-right" disabled={items.length === 0} onClick={() => setConfirm('empty')}>Empty trash…</button>
      </div>
      <p className="muted small">
        Deleted studies, experiments and captures stay here until you empty the trash. Restoring puts one back where it was; an
        experiment of a deleted study, or a capture of a deleted experiment, comes back with it.
      </p>
      {trash.error && <p role="alert" className="error-text">{trash.error}</p>}
      {trash.data && items.length === 0 && <p className="muted">The trash is empty.</p>}
      {items.length > 0 && (
        <ul className="trash-list" aria-label="Trash">
          {items.map((item) => (
            <li key={`${item.kind}-${item.id}`} className="trash-item panel" data-testid="trash-item">
              <div className="trash-main">
                <span className={`badge trash-kind trash-kind-${item.kind}`}>{item.kind}</span>
                <span className="trash-name" title={item.name}>{item.name}</span>
                <span className="muted small">{where(item)}</span>
              </div>
              <div className="trash-meta">
                <span className="muted small">deleted <time dateTime={item.deletedAt}>{when(item.deletedAt)}</time></span>
                <button type="button" className="btn btn-small" aria-label={`Restore ${item.name}`} data-focus-key={keyOf(item)} data-focus-group="trash" onClick={() => void restore(item)}>Restore</button>
                <button type="button" className="btn btn-small btn-danger" aria-label={`Delete ${item.name} forever`} onClick={() => setConfirm({ item })}>Delete forever</button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {confirm === 'empty' && (
        <Dialog title="Empty the trash?" onClose={() => setConfirm(null)}>
          <p>{plural(items.length, 'item')} will be deleted for good, with the experiments and captures in them. This cannot be undone.</p>
          <div className="form-actions">
            <button type="button" className="btn" data-autofocus onClick={() => setConfirm(null)}>Cancel</button>
            <button type="button" className="btn btn-danger" onClick={() => void empty()}>Empty trash</button>
          </div>
        </Dialog>
      )}
      {confirm !== null && confirm !== 'empty' && (
        <Dialog title={`Delete “${confirm.item.name}” forever?`} onClose={() => setConfirm(null)}>
          <p>{confirm.item.kind === 'study' ? 'The study and its experiments will be deleted for good.' : `The ${confirm.item.kind} will be deleted for good.`} This cannot be undone.</p>
          <div className="form-actions">
            <button type="button" className="btn" data-autofocus onClick={() => setConfirm(null)}>Cancel</button>
            <button type="button" className="btn btn-danger" onClick={() => void deleteForever(confirm.item)}>Delete forever</button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
