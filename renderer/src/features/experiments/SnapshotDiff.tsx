/**
 * "From two snapshots…" in an experiment's config changes: the user gives a BEFORE and an AFTER
 * settings snapshot (sysctl -a, ulimit -a, php.ini, my.cnf … — chosen, dropped or pasted), the back
 * end parses both (the Captures view's helpers: paths in Electron, text in browser mode), and the
 * differences (shared diffSettings, as `tunebook diff`) are listed with checkboxes; "Add N changes"
 * records the selected ones as config changes of the experiment. Capture text is only ever shown
 * as text.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ConfigChange } from '../../../../shared/model';
import type { SettingChange } from '../../../../shared/capture/parsers/settings/diff';
import { describeError } from '../../api';
import { useApp } from '../../app/AppContext';
import { MAX_TEXT_BYTES, parseFiles, parsePasted } from '../captures/parseCaptures';
import type { CaptureEntry } from '../captures/parseCaptures';
import { compareSnapshots, isRecorded } from '../../../../shared/snapshotDiff';
import type { SideName, SnapshotDiff as DiffResult } from '../../../../shared/snapshotDiff';
import './snapshotDiff.css';
import { useFileDrop } from '../../hooks/useFileDrop';
import { DropZone } from '../../components/DropZone/DropZone';

interface SideState {
  /** a chosen or dropped file, already parsed; when set, the pasted text is not used */
  file: { name: string; entries: CaptureEntry[] } | null;
  text: string;
}
const EMPTY_SIDE: SideState = { file: null, text: '' };

interface RowState { checked: boolean; why: string }

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;


/** What a chosen file was read as, in a few words. */
function fileSummary(entries: readonly CaptureEntry[]): { text: string; bad: boolean } {
  const errors = entries.filter((e) => e.error !== undefined);
  if (errors.length) return { text: errors.map((e) => e.error).join('; '), bad: true };
  const caps = entries.flatMap((e) => (e.capture ? [e.capture] : []));
  if (!caps.length) return { text: 'nothing recognized', bad: true };
  return {
    text: caps.map((c) => {
      const n = Object.keys(c.settings).length;
      return `read as ${c.kind}: ${n ? plural(n, 'setting') : 'no settings'}`;
    }).join(' · '),
    bad: caps.length !== 1 || Object.keys(caps[0]!.settings).length === 0,
  };
}

export function SnapshotDiff({ experimentId, existing = [] }: { experimentId: number; existing?: readonly ConfigChange[] }) {
  const { api } = useApp();
  const [open, setOpen] = useState(false);
  const [before, setBefore] = useState<SideState>(EMPTY_SIDE);
  const [after, setAfter] = useState<SideState>(EMPTY_SIDE);
  /** comparing pasted text, or adding the changes */
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  /** a file being read into a side */
  const [reading, setReading] = useState<Record<SideName, string | null>>({ Before: null, After: null });
  const readSeq = useRef<Record<SideName, number>>({ Before: 0, After: 0 });
  const [result, setResult] = useState<DiffResult | null>(null);
  const [rows, setRows] = useState<Record<string, RowState>>({});
  const [scope, setScope] = useState('');
  const [sharedWhy, setSharedWhy] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => { mounted.current = true; return () => { mounted.current = false; }; }, []);
  const latest = useRef({ before, after });
  latest.current = { before, after };
  const allBox = useRef<HTMLInputElement>(null);
  const regionId = useId();
  const scopeId = useId();
  const whyId = useId();

  const changes = result?.ok ? result.changes : [];
  const selected = changes.filter((c) => rows[c.key]?.checked);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = selected.length > 0 && selected.length < changes.length;
  }, [selected.length, changes.length]);

  const clearResult = () => { setResult(null); setAddError(null); };

  /** The experiment already records this change (e.g. the snapshots were added once before). */
  const recorded = (c: SettingChange, inScope: string): boolean => isRecorded(existing, c, inScope);

  const show = (r: DiffResult) => {
    setResult(r);
    setAddError(null);
    if (r.ok) {
      setScope(r.scope);
      // every difference is selected, except those this experiment already records
      setRows(Object.fromEntries(r.changes.map((c) => [c.key, { checked: !recorded(c, r.scope), why: '' }])));
    }
  };

  const entriesOf = async (side: SideName, s: SideState): Promise<CaptureEntry[]> => {
    if (s.file) return s.file.entries;
    if (!s.text.trim()) return [];
    if (new Blob([s.text]).size > MAX_TEXT_BYTES) {
      return [{ key: `${side}-too-large`, name: `${side.toLowerCase()} (pasted)`, source: 'paste', error: 'more than 64 MiB of text; choose it as a file instead' }];
    }
    return parsePasted(api, `${side.toLowerCase()} (pasted)`, s.text, undefined);
  };

  /** Bumped on every change of the inputs: a comparison started before it is out of date. */
  const inputVersion = useRef(0);
  const touched = () => { inputVersion.current++; clearResult(); setNotice(null); };

  const compare = async () => {
    if (busy || reading.Before || reading.After) return;
    setNotice(null);
    const version = inputVersion.current;
    setBusy('Reading the snapshots…');
    try {
      const { before: b, after: a } = latest.current;
      const [be, ae] = await Promise.all([entriesOf('Before', b), entriesOf('After', a)]);
      if (mounted.current && version === inputVersion.current) show(compareSnapshots(be, ae));
    } finally {
      if (mounted.current) setBusy(null);
    }
  };

  /** Reads a chosen or dropped file into one side; the two sides may be read at the same time. */
  const readFiles = async (side: SideName, files: File[]) => {
    if (!files.length || adding) return;
    touched();
    const mine = ++readSeq.current[side];
    setReading((r) => ({ ...r, [side]: `Reading ${files.length === 1 ? files[0]!.name : plural(files.length, 'file')}…` }));
    const entries = await parseFiles(api, files, undefined); // never throws
    if (!mounted.current || mine !== readSeq.current[side]) return; // unmounted, or another file was chosen since
    setReading((r) => ({ ...r, [side]: null }));
    const next: SideState = { ...(side === 'Before' ? latest.current.before : latest.current.after), file: { name: files.map((f) => f.name).join(', '), entries } };
    const sides = side === 'Before' ? { ...latest.current, before: next } : { ...latest.current, after: next };
    if (side === 'Before') setBefore(next); else setAfter(next);
    latest.current = sides;
    touched();
    // Both sides are files: nothing more to type, so compare right away.
    if (sides.before.file && sides.after.file) show(compareSnapshots(sides.before.file.entries, sides.after.file.entries));
  };

  const update = (side: SideName, patch: Partial<SideState>) => {
    touched();
    if (patch.file === null) { readSeq.current[side]++; setReading((r) => ({ ...r, [side]: null })); }
    if (side === 'Before') setBefore((s) => ({ ...s, ...patch })); else setAfter((s) => ({ ...s, ...patch }));
  };

  const reset = () => {
    inputVersion.current++;
    setBefore(EMPTY_SIDE); setAfter(EMPTY_SIDE); setResult(null); setRows({}); setScope(''); setSharedWhy(''); setAddError(null);
  };

  const add = async () => {
    if (!result?.ok || busy || !selected.length) return;
    const recordScope = scope.trim() || result.scope;
    setAddError(null);
    setAdding(true);
    setBusy(`Adding ${plural(selected.length, 'change')}…`);
    const done = new Set<string>();
    let error: string | null = null;
    for (const c of selected) {
      try {
        await api.addConfigChange(experimentId, {
          scope: recordScope,
          key: c.key,
          before: c.before ?? '',
          after: c.after ?? '',
          why: (rows[c.key]?.why ?? '').trim() || sharedWhy.trim(),
        });
        done.add(c.key);
      } catch (e) {
        error = describeError(e).message;
        break;
      }
    }
    if (!mounted.current) return;
    setBusy(null);
    setAdding(false);
    if (error === null) {
      reset();
      setOpen(false);
      setNotice(`Added ${plural(done.size, 'config change')} from the snapshots.`);
    } else {
      // keep what was not added, so a retry does not record anything twice
      setResult({ ...result, changes: result.changes.filter((c) => !done.has(c.key)) });
      setAddError(`${done.size ? `Added ${done.size} of ${selected.length}; ` : ''}could not add ${selected.find((c) => !done.has(c.key))?.key ?? 'a change'}: ${error}`);
    }
  };

  const setRow = (key: string, patch: Partial<RowState>) => setRows((r) => ({ ...r, [key]: { checked: true, why: '', ...r[key], ...patch } }));
  const setAll = (checked: boolean) => setRows((r) => Object.fromEntries(changes.map((c) => [c.key, { why: '', ...r[c.key], checked }])));
  const status = busy ?? ([reading.Before, reading.After].filter(Boolean).join(' ') || null);
  const canCompare = busy === null && !reading.Before && !reading.After && (before.file !== null || before.text.trim() !== '') && (after.file !== null || after.text.trim() !== '');

  return (
    <div className="snapdiff">
      <div className="form-actions start">
        <button type="button" className="btn btn-small" aria-expanded={open} aria-controls={regionId}
          onClick={() => { setOpen((o) => !o); setNotice(null); }}>
          From two snapshots…
        </button>
        <span role="status" className="muted small">{notice ?? ''}</span>
      </div>
      {open && (
        <section id={regionId} className="snapdiff-panel" aria-label="Config changes from two snapshots"
          onKeyDown={(e) => { if (e.key === 'Escape' && !adding) { e.stopPropagation(); setOpen(false); } }}>
          <p className="small muted snapdiff-intro">
            Give the settings before and after the change — <code>sysctl -a</code>, <code>ulimit -a</code>, or a config file
            such as php.ini or my.cnf — and pick which differences to record.
          </p>
          <div className="snapdiff-sides">
            <SnapshotSide side="Before" state={before} busy={adding} onText={(text) => update('Before', { text })}
              onFiles={(files) => void readFiles('Before', files)} onRemoveFile={() => update('Before', { file: null })} />
            <SnapshotSide side="After" state={after} busy={adding} onText={(text) => update('After', { text })}
              onFiles={(files) => void readFiles('After', files)} onRemoveFile={() => update('After', { file: null })} />
          </div>
          <div className="form-actions start">
            <button type="button" className="btn btn-small btn-primary" disabled={!canCompare} onClick={() => void compare()}>Compare snapshots</button>
            <span role="status" aria-live="polite" className="small muted">{status ?? ''}</span>
          </div>

          {result && !result.ok && <p role="alert" className="error-text small snapdiff-error">{result.error}</p>}

          {result?.ok && result.changes.length === 0 && !addError && (
            <p role="status" className="snapdiff-same">
              No differences: {result.beforeName} and {result.afterName} hold the same {result.kind} settings.
            </p>
          )}

          {result?.ok && result.changes.length > 0 && (
            <div className="snapdiff-result">
              <p className="small snapdiff-summary">
                {plural(result.changes.length, 'difference')} between <span className="mono">{result.beforeName}</span> and{' '}
                <span className="mono">{result.afterName}</span> ({result.kind}).
              </p>
              <div className="snapdiff-fields">
                <label className="field" htmlFor={scopeId}>
                  <span>Scope</span>
                  <input id={scopeId} list="config-scopes" value={scope} placeholder={result.scope} onChange={(e) => setScope(e.target.value)} />
                </label>
                <label className="field wide" htmlFor={whyId}>
                  <span>Why <span className="muted">(for every change without its own)</span></span>
                  <input id={whyId} value={sharedWhy} onChange={(e) => setSharedWhy(e.target.value)} placeholder="e.g. TIME_WAIT sockets exhausted the local ports" />
                </label>
              </div>
              <div className="snapdiff-scroll">
                <table className="grid-table snapdiff-table" aria-label="Differences between the snapshots">
                  <thead>
                    <tr>
                      <th className="snapdiff-check">
                        <input ref={allBox} type="checkbox" aria-label="Include every difference"
                          checked={selected.length === changes.length} onChange={(e) => setAll(e.target.checked)} />
                      </th>
                      <th>Key</th><th>Before</th><th><span className="sr-only">becomes</span></th><th>After</th><th>Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changes.map((c) => {
                      const row = rows[c.key] ?? { checked: true, why: '' };
                      return (
                        <tr key={c.key} data-testid="snapshot-change-row" className={row.checked ? '' : 'snapdiff-off'}>
                          <td className="snapdiff-check">
                            <input type="checkbox" aria-label={`Include ${c.key}`} checked={row.checked} onChange={(e) => setRow(c.key, { checked: e.target.checked })} />
                          </td>
                          <td className="mono snapdiff-key">
                            {c.key}
                            {recorded(c, scope.trim() || result.scope) && <span className="snapdiff-recorded">already recorded</span>}
                          </td>
                          <td className="mono snapdiff-value">{c.before ?? <span className="snapdiff-unset">(unset)</span>}</td>
                          <td className="snapdiff-arrow" aria-hidden="true">→</td>
                          <td className="mono snapdiff-value">{c.after ?? <span className="snapdiff-unset">(unset)</span>}</td>
                          <td className="snapdiff-why">
                            <input aria-label={`Why ${c.key}`} value={row.why} placeholder={sharedWhy} disabled={!row.checked}
                              onChange={(e) => setRow(c.key, { why: e.target.value })} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              {addError && <p role="alert" className="error-text small snapdiff-error">{addError}</p>}
            </div>
          )}

          <div className="form-actions start">
            {result?.ok && changes.length > 0 && (
              <button type="button" className="btn btn-small btn-primary" disabled={busy !== null || selected.length === 0} onClick={() => void add()}>
                Add {plural(selected.length, 'change')}
              </button>
            )}
            <button type="button" className="btn btn-small" disabled={adding} onClick={() => setOpen(false)}>Close</button>
          </div>
        </section>
      )}
    </div>
  );
}

/** One side (before or after): a drop zone / file chooser, or pasted text. */
function SnapshotSide({ side, state, busy, onText, onFiles, onRemoveFile }: {
  side: SideName;
  state: SideState;
  busy: boolean;
  onText: (text: string) => void;
  onFiles: (files: File[]) => void;
  onRemoveFile: () => void;
}) {
  const lower = side.toLowerCase();
  const fileInput = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const pasteId = useId();
  const hintId = useId();

  const openChooser = () => { if (!busy) fileInput.current?.click(); };
  const { dragging, handlers: dropHandlers } = useFileDrop(onFiles, { stopPropagation: true });
  const summary = state.file ? fileSummary(state.file.entries) : null;

  return (
    <section className={`snapdiff-side ${dragging ? 'dragging' : ''}`} aria-labelledby={headingId}
      {...dropHandlers}>
      <h4 id={headingId}>{side}</h4>
      {/* outside the drop zone: a click on it must not bubble into the zone's own click */}
      <input ref={fileInput} type="file" hidden aria-label={`${side} snapshot file`}
        onChange={(e) => { const files = Array.from(e.target.files ?? []); e.target.value = ''; onFiles(files); }} />
      {state.file && summary ? (
        <div className="snapdiff-file" data-testid={`snapshot-${lower}-file`}>
          <span className="mono snapdiff-file-name">{state.file.name}</span>
          <span className={`small ${summary.bad ? 'error-text' : 'muted'}`}>{summary.text}</span>
          <div className="form-actions start">
            <button type="button" className="btn btn-small" disabled={busy} onClick={openChooser}>Choose another…</button>
            <button type="button" className="btn btn-small" disabled={busy} aria-label={`Remove the ${lower} file`} onClick={onRemoveFile}>Remove</button>
          </div>
        </div>
      ) : (
        <>
          <DropZone
            className="snapdiff-drop"
            titleClassName="snapdiff-drop-title"
            label={`Drop the ${lower} snapshot here, or press Enter to choose a file`}
            title={dragging ? 'Release to read' : 'Drop a file here, or choose one'}
            hint="sysctl -a, ulimit -a, php.ini, my.cnf …"
            hintId={hintId}
            onChoose={openChooser}
            disabled={busy}
          />
          <label htmlFor={pasteId} className="small muted">…or paste the {lower} snapshot</label>
          <textarea id={pasteId} rows={6} spellCheck={false} readOnly={busy} value={state.text} onChange={(e) => onText(e.target.value)}
            placeholder={side === 'Before' ? 'vm.swappiness = 60\nnet.core.somaxconn = 128' : 'vm.swappiness = 10\nnet.core.somaxconn = 4096'} />
        </>
      )}
    </section>
  );
}
