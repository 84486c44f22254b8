import { useEffect, useRef, useState } from 'react';
import type { DragEvent, FormEvent, KeyboardEvent, LiHTMLAttributes } from 'react';
import type { ExperimentSummary } from '../../../../shared/model';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { useUndo } from '../../app/undo';
import { StatusBadge } from '../../components/StatusBadge/StatusBadge';
import { formatQuantity } from '../../../../shared/units';
import { hasFiles, useFileDrop } from '../../hooks/useFileDrop';
import { useWindowedRows } from '../../hooks/useWindowedRows';
import { useImport } from '../evidence/useImport';
import { focusWhenShown } from '../../lib/focus';

/**
 * The study's experiments in order (baseline first). Select with click/Enter; reorder by dragging or
 * with Alt+ArrowUp / Alt+ArrowDown on the focused experiment (moveExperiment).
 */
export function ExperimentList({ studyId, experiments, selectedId, onSelect }: {
  studyId: number;
  experiments: ExperimentSummary[];
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const { navigate } = useApp();
  const run = useAction();
  const { record } = useUndo();
  const [order, setOrder] = useState(experiments);
  const [dragId, setDragId] = useState<number | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const [newTitle, setNewTitle] = useState('');
  const itemRefs = useRef(new Map<number, HTMLButtonElement>());
  const focusAfterMove = useRef<number | null>(null);
  // moves sent and not yet answered: a list fetched meanwhile may predate them (the echo of an
  // earlier move), and shown it would put the focused experiment back where a key press then moves
  // it from the wrong place (the order on screen is each move's own until they are all answered)
  const movesInFlight = useRef(0);
  // a study of thousands of experiments: only the rows in view are drawn
  const rowsWindow = useWindowedRows(order.length, 46);

  useEffect(() => { if (movesInFlight.current === 0) setOrder(experiments); }, [experiments]);
  useEffect(() => {
    if (focusAfterMove.current !== null) {
      const el = itemRefs.current.get(focusAfterMove.current);
      if (!el) { rowsWindow.scrollToIndex(order.findIndex((e) => e.id === focusAfterMove.current)); return; } // drawn on the next render
      el.focus();
      focusAfterMove.current = null;
    }
  });

  const move = async (id: number, position: number) => {
    const from = order.findIndex((e) => e.id === id);
    if (from < 0 || position < 0 || position >= order.length || position === from) return;
    const next = [...order];
    const [item] = next.splice(from, 1);
    next.splice(position, 0, item!);
    setOrder(next); // optimistic
    focusAfterMove.current = id;
    movesInFlight.current++;
    let result;
    try { result = await run((a) => a.moveExperiment(id, position)); } finally { movesInFlight.current--; }
    if (result) {
      setAnnounce(`${item!.title} moved to position ${position + 1} of ${order.length}.`);
      record({ message: `“${item!.title}” moved to position ${position + 1}.`, toast: false, undo: (a) => a.moveExperiment(id, from) });
    } else setOrder(experiments);
  };

  const onKeyDown = (e: KeyboardEvent, id: number, index: number) => {
    if (!e.altKey) return;
    if (e.key === 'ArrowUp') { e.preventDefault(); void move(id, index - 1); }
    else if (e.key === 'ArrowDown') { e.preventDefault(); void move(id, index + 1); }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    if (dragId !== null && dropIndex !== null) {
      const from = order.findIndex((x) => x.id === dragId);
      const to = dropIndex > from ? dropIndex - 1 : dropIndex;
      void move(dragId, to);
    }
    setDragId(null); setDropIndex(null);
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const title = newTitle.trim() || (order.length === 0 ? 'Baseline' : `Step ${order.length}`);
    const last = order[order.length - 1];
    const created = await run((a) => a.createExperiment(studyId, {
      title,
      profileId: last?.profileId ?? null,
      status: 'planned',
      date: new Date().toISOString().slice(0, 10),
    }));
    if (!created) return;
    setNewTitle('');
    onSelect(created.id);
    focusWhenShown(`experiment:${created.id}`);
    record({
      message: `Experiment “${created.title}” added.`, toast: false,
      // away from it first (nothing on screen asks for it once it is in the trash), then to the trash
      undo: async (a) => { navigate({ name: 'study', studyId, experimentId: last?.id ?? null }); await a.deleteExperiment(created.id); },
    });
  };

  return (
    <section className="panel experiment-list" aria-labelledby="experiments-heading">
      <h2 id="experiments-heading">Experiments</h2>
      <p className="sr-only" id="reorder-help">Press Alt+Arrow Up or Alt+Arrow Down to move the experiment.</p>
      <div ref={rowsWindow.scrollRef} className={rowsWindow.windowed ? 'exp-list-window' : undefined}>
      <ol className="exp-list" onDragOver={(e) => e.preventDefault()} onDrop={onDrop} style={rowsWindow.windowed ? { paddingTop: rowsWindow.padTop, paddingBottom: rowsWindow.padBottom } : undefined}>
        {rowsWindow.indices.map((i) => {
          const x = order[i]!;
          const primary = x.metrics.find((m) => m.primary);
          return (
            <CaptureDropItem
              key={x.id}
              experimentId={x.id}
              draggable
              className={`exp-item status-row-${x.status} ${dragId === x.id ? 'dragging' : ''} ${dropIndex === i ? 'drop-before' : ''} ${dropIndex === order.length && i === order.length - 1 ? 'drop-after' : ''}`}
              onDragStart={(e) => { setDragId(x.id); e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', String(x.id)); }}
              onDragEnd={() => { setDragId(null); setDropIndex(null); }}
              onDragOver={(e) => {
                e.preventDefault();
                const rect = e.currentTarget.getBoundingClientRect();
                setDropIndex(e.clientY > rect.top + rect.height / 2 ? i + 1 : i);
              }}
              data-testid="experiment-item"
            >
              <button
                type="button"
                ref={(el) => { if (el) itemRefs.current.set(x.id, el); else itemRefs.current.delete(x.id); }}
                className={`exp-button ${selectedId === x.id ? 'active' : ''}`}
                aria-current={selectedId === x.id ? 'true' : undefined}
                aria-describedby="reorder-help"
                data-focus-key={`experiment:${x.id}`}
                data-focus-group={`experiments:${studyId}`}
                onClick={() => onSelect(x.id)}
                onKeyDown={(e) => onKeyDown(e, x.id, i)}
              >
                <span className="exp-pos" aria-hidden="true">{i === 0 ? 'B' : i}</span>
                <span className="exp-title" title={x.title}>{x.title}</span>
                <StatusBadge status={x.status} />
                {primary && <span className="exp-value">{formatQuantity(primary.value, primary.unit, primary.name)}</span>}
                {x.captureCount > 0 && <span className="exp-captures muted small" title={`${x.captureCount} captures`} aria-label={`${x.captureCount} captures`}>▤ {x.captureCount}</span>}
              </button>
              <span className="drag-handle" aria-hidden="true" title="Drag to reorder">⋮⋮</span>
            </CaptureDropItem>
          );
        })}
      </ol>
      </div>
      {order.length === 0 && <p className="muted small">Start with the baseline: the measurement before any change.</p>}
      <form className="inline-form" aria-label="Add experiment" onSubmit={add}>
        <input
          aria-label="New experiment title"
          data-focus-key="add-experiment"
          placeholder={order.length === 0 ? 'Baseline' : `Step ${order.length}`}
          value={newTitle}
          onChange={(e) => setNewTitle(e.target.value)}
        />
        <button type="submit" className="btn btn-small">Add experiment</button>
      </form>
      <p className="sr-only" role="status" aria-live="polite">{announce}</p>
    </section>
  );
}

/**
 * A row of the list that also takes capture files dropped on it (stored on that experiment).
 * A drag that carries files goes to the file drop; any other drag (reordering) to the row's own
 * handlers, so the two never mix.
 */
function CaptureDropItem({ experimentId, className, children, ...rest }: { experimentId: number } & LiHTMLAttributes<HTMLLIElement>) {
  const { importInto } = useImport();
  const { dragging, handlers } = useFileDrop((files) => { if (files.length) void importInto(experimentId, { files }); }, { stopPropagation: true });
  const either = (files: (e: DragEvent<HTMLLIElement>) => void, other: ((e: DragEvent<HTMLLIElement>) => void) | undefined) =>
    (e: DragEvent<HTMLLIElement>) => (hasFiles(e) ? files(e) : other?.(e));
  return (
    <li {...rest} className={`${className ?? ''} ${dragging ? 'file-over' : ''}`}
      onDragEnter={either(handlers.onDragEnter, rest.onDragEnter)} onDragOver={either(handlers.onDragOver, rest.onDragOver)}
      onDragLeave={either(handlers.onDragLeave, rest.onDragLeave)} onDrop={either(handlers.onDrop, rest.onDrop)}>
      {children}
    </li>
  );
}
