/**
 * An experiment's evidence: the captures stored on it (drop files or a folder here, choose them,
 * or paste a tool's output), each with its kind, size, findings and a note, opened with a click,
 * removed with Undo.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Experiment, ExperimentCapture } from '../../../../shared/model';
import type { Severity } from '../../../../shared/capture/types';
import { formatNumber, formatQuantity } from '../../../../shared/units';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { DropZone } from '../../components/DropZone/DropZone';
import { useUndo } from '../../app/undo';
import { useDraft } from '../../hooks/useDraft';
import { useFileDrop } from '../../hooks/useFileDrop';
import { useImport } from './useImport';
import type { Intake } from './useImport';
import type { ImportResult } from '../../../../shared/model';
import { focusAfterRemoval, focusWhenShown } from '../../lib/focus';

const SEVERITIES: Severity[] = ['critical', 'warning', 'info'];

export function CapturesPanel({ experiment }: { experiment: Experiment }) {
  const { importInto, busy } = useImport();
  // what was stored is focused once listed
  const store = async (intake: Parameters<typeof importInto>[1]) => {
    const r = await importInto(experiment.id, intake);
    const first = r?.imported[0];
    if (first) focusWhenShown(`capture:${first.linkId}`);
    return r;
  };
  const fileInput = useRef<HTMLInputElement>(null);
  const [pasting, setPasting] = useState(false);
  const hintId = useId();
  const headingId = useId();
  const { dragging, handlers } = useFileDrop((files) => { if (files.length) void store({ files }); }, { stopPropagation: true });
  const captures = experiment.captures;

  return (
    <section className={`subpanel captures-panel ${dragging ? 'dragging' : ''}`} aria-labelledby={headingId} {...handlers}>
      <div className="subpanel-head">
        <h3 id={headingId}>Captures {captures.length > 0 && <span className="count">{captures.length}</span>}</h3>
        <div className="head-actions">
          <button type="button" className="btn btn-small" data-focus-key={`add-captures:${experiment.id}`} onClick={() => fileInput.current?.click()} disabled={busy}>Add files…</button>
          <button type="button" className="btn btn-small" aria-expanded={pasting} onClick={() => setPasting((p) => !p)}>Paste…</button>
        </div>
      </div>
      <input
        ref={fileInput} type="file" multiple hidden aria-label={`Capture files for ${experiment.title}`}
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          if (files.length) void store({ files });
        }}
      />
      {captures.length > 0 && (
        <ul className="capture-list" aria-label={`Captures of ${experiment.title}`}>
          {captures.map((c) => <CaptureRow key={c.linkId} experiment={experiment} capture={c} />)}
        </ul>
      )}
      <DropZone
        className={`drop-zone compact ${dragging ? 'dragging' : ''}`}
        titleClassName="drop-title"
        label={`Drop captures on ${experiment.title}, or press Enter to choose files`}
        title={dragging ? 'Release to store the captures on this experiment' : captures.length ? 'Drop more captures here' : 'Drop captures here: tool output, several files or a folder'}
        hint="ab, wrk, locust, fio, iostat, vmstat, pidstat, top, /proc/interrupts, strace, perf, sysctl, lscpu … kept verbatim in the notebook."
        hintId={hintId}
        onChoose={() => fileInput.current?.click()}
        disabled={busy}
      />
      {pasting && <PasteForm experiment={experiment} store={store} onDone={() => setPasting(false)} />}
    </section>
  );
}

function CaptureRow({ experiment, capture: c }: { experiment: Experiment; capture: ExperimentCapture }) {
  const { navigate } = useApp();
  const run = useAction();
  const { record } = useUndo();
  const [editing, setEditing] = useState(false);
  // a note typed and not saved is a draft: kept across switching experiment and reloads, and opened again
  const noteDraft = useDraft(`capture-note:${c.linkId}`, c.note);
  const note = noteDraft.value;
  const setNote = noteDraft.set;
  useEffect(() => { if (noteDraft.restored) setEditing(true); }, [noteDraft.restored]);
  const counts = SEVERITIES.map((s) => [s, c.findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);

  const remove = async () => {
    const refocus = focusAfterRemoval(`capture:${c.linkId}`, `add-captures:${experiment.id}`);
    const ok = await run(async (api) => { await api.detachCapture(c.linkId); return true; });
    if (!ok) return;
    refocus();
    record({ message: `Capture “${c.name}” removed from “${experiment.title}” (to the trash).`, undo: (api) => api.restoreCaptureLink(c.linkId) });
  };
  const saveNote = async (e?: FormEvent) => {
    e?.preventDefault();
    const old = c.note;
    if (!await run((api) => api.updateCaptureLink(c.linkId, { note }))) return;
    noteDraft.committed();
    setEditing(false);
    if (note !== old) record({ message: `Note on “${c.name}” changed.`, toast: false, undo: (api) => api.updateCaptureLink(c.linkId, { note: old }) });
  };

  return (
    <li data-testid="capture-link" className="capture-item">
      <div className="ci-main">
        <button type="button" className="link-button capture-link-name" title={c.name}
          data-focus-key={`capture:${c.linkId}`} data-focus-group={`captures:${experiment.id}`}
          onClick={() => navigate({ name: 'capture', captureId: c.captureId, experimentId: experiment.id })}>{c.name}</button>
        <span className={`badge capture-kind ${c.kind === 'text' ? 'capture-kind-text' : ''}`} title={c.forcedKind ? 'kind chosen by you' : `detected (confidence ${Math.round(c.confidence * 100)} %)`}>{c.kind}</span>
        <span className="muted small nowrap" title={`${formatNumber(c.bytes)} bytes`}>{formatQuantity(c.bytes, 'B')} · {formatNumber(c.lines)} lines</span>
      </div>
      <div className="ci-meta">
        {counts.map(([s, n]) => (
          <span key={s} className={`badge severity severity-${s}`} title={c.findings.filter((f) => f.severity === s).map((f) => f.message).join('\n')}>{n} {s}</span>
        ))}
        {editing ? (
          <form className="inline-form" onSubmit={(e) => void saveNote(e)}>
            <input aria-label={`Note on ${c.name}`} value={note} autoFocus onChange={(e) => setNote(e.target.value)}
              onKeyDown={(e) => { if (e.key === 'Escape') { noteDraft.discard(); setEditing(false); } }} />
            <button type="submit" className="btn btn-small">Save</button>
          </form>
        ) : (
          <button type="button" className="link-button small capture-note" aria-label={`${c.note ? 'Edit the' : 'Add a'} note on ${c.name}`} onClick={() => setEditing(true)}>
            {c.note || <span className="muted">add note</span>}
          </button>
        )}
        <button type="button" className="btn btn-small btn-danger" aria-label={`Remove ${c.name}`} onClick={() => void remove()}>Remove</button>
      </div>
    </li>
  );
}

function PasteForm({ store, onDone }: { experiment: Experiment; store: (intake: Intake) => Promise<ImportResult | undefined>; onDone: () => void }) {
  const { busy } = useImport();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const textId = useId();
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim()) { setError('Paste the output of a tool first.'); return; }
    setError(null);
    const r = await store({ text, name: name.trim() || `pasted-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.txt` });
    if (r && r.imported.length) { setText(''); setName(''); onDone(); }
  };
  return (
    <form className="paste-form" aria-label="Paste a capture" onSubmit={(e) => void submit(e)}>
      <div className="field paste-name">
        <label htmlFor={nameId}>Name</label>
        <input id={nameId} value={name} maxLength={1000} placeholder="e.g. vmstat-1.txt" onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field paste-text">
        <label htmlFor={textId}>Tool output</label>
        <textarea id={textId} rows={5} value={text} spellCheck={false} placeholder="Paste the output of a tool here (Ctrl+Enter to store it)"
          aria-invalid={error ? true : undefined} onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void submit(); } }} />
      </div>
      <div className="form-actions start">
        <button type="submit" className="btn btn-primary btn-small" disabled={busy}>Store capture</button>
        <button type="button" className="btn btn-small" onClick={onDone}>Cancel</button>
        {error && <span role="alert" className="error-text small">{error}</span>}
      </div>
    </form>
  );
}
