/**
 * "Fill from captures…" in the hardware profile editor: the user drops, chooses or pastes the
 * machine's lscpu / free / fdisk -l / tune2fs -l / uname -a / os-release output; the back end
 * parses it (the Captures view's helpers: paths in Electron, text in browser mode) and
 * profileFromCaptures turns the facts into form values. Nothing is saved: the values go into the
 * form, and the user presses Save. Each filled field shows the file it came from; the notes say
 * what was assumed or overruled. Capture text is only ever rendered as text.
 *
 * The captures read in one visit are kept together, so a tune2fs pasted after an fdisk still finds
 * its disk and disagreements across batches are noted; each batch only writes the fields it
 * brought, so what the user typed in between is not undone.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { CaptureJson } from '../../../../shared/capture/json';
import type { HardwareProfileInput } from '../../../../shared/model';
import { applyProfilePatch, captureLabel, profileFromCaptures } from '../../../../shared/profileFromCaptures';
import type { ProfileFromCaptures } from '../../../../shared/profileFromCaptures';
import { useApp } from '../../app/AppContext';
import { MAX_TEXT_BYTES, parseFiles, parsePasted } from '../captures/parseCaptures';
import type { CaptureEntry } from '../captures/parseCaptures';
import './fillFromCaptures.css';
import { useFileDrop } from '../../hooks/useFileDrop';
import { DropZone } from '../../components/DropZone/DropZone';

let pasteCount = 0;

const FIELD_LABELS: Record<string, string> = {
  cpuModel: 'CPU model', cores: 'Cores', threads: 'Threads', memoryBytes: 'Memory', os: 'OS', kernel: 'Kernel',
};

interface Row { key: string; field: string; value: string; from: string }

/** Memory the way free -h prints it (GiB), disks the way fdisk and vendors do (GB), with the other in brackets. */
function sizeText(bytes: number | null | undefined, decimalFirst: boolean): string {
  if (bytes === null || bytes === undefined) return '';
  const gb = bytes / 1e9;
  const gib = bytes / 2 ** 30;
  if (gib < 1) return `${+(bytes / 2 ** 20).toFixed(1)} MiB`;
  const dec = `${+gb.toFixed(1)} GB`;
  const bin = `${+gib.toFixed(2)} GiB`;
  return decimalFirst ? `${dec} (${bin})` : `${bin} (${dec})`;
}

/** One row per filled field, in the form's order; disks after the scalar fields. */
function filledRows(r: ProfileFromCaptures): Row[] {
  const rows: Row[] = [];
  const p = r.patch;
  const value = (k: string): string => {
    switch (k) {
      case 'memoryBytes': return sizeText(p.memoryBytes, false);
      case 'cores': return String(p.cores ?? '');
      case 'threads': return String(p.threads ?? '');
      case 'cpuModel': return p.cpuModel ?? '';
      case 'os': return p.os ?? '';
      case 'kernel': return p.kernel ?? '';
      default: return '';
    }
  };
  for (const k of Object.keys(FIELD_LABELS)) {
    const from = r.sources[k];
    if (from) rows.push({ key: k, field: FIELD_LABELS[k]!, value: value(k), from });
  }
  for (const d of p.disks ?? []) {
    const from = r.sources[`disks.${d.name}`];
    if (from) {
      const sectors = d.logicalSectorBytes === null ? null
        : d.physicalSectorBytes === null || d.physicalSectorBytes === d.logicalSectorBytes ? `${d.logicalSectorBytes}-byte sectors`
          : `${d.logicalSectorBytes}/${d.physicalSectorBytes}-byte sectors`;
      rows.push({ key: `disks.${d.name}`, field: `Disk ${d.name}`, value: [d.sizeBytes === null ? null : sizeText(d.sizeBytes, true), sectors, d.kind].filter(Boolean).join(', '), from });
    }
    const blockFrom = r.sources[`disks.${d.name}.blockBytes`];
    if (blockFrom && d.blockBytes !== null) rows.push({ key: `disks.${d.name}.blockBytes`, field: `Disk ${d.name} FS block`, value: `${d.blockBytes} B`, from: blockFrom });
  }
  return rows;
}

/** The part of the patch the newest batch brought (by the files the fields came from). */
function patchFrom(r: ProfileFromCaptures, batch: ReadonlySet<string>): Partial<HardwareProfileInput> {
  const out: Partial<HardwareProfileInput> = {};
  const p = r.patch;
  const mine = (k: string) => { const s = r.sources[k]; return s !== undefined && batch.has(s); };
  if (p.cpuModel !== undefined && mine('cpuModel')) out.cpuModel = p.cpuModel;
  if (p.cores !== undefined && mine('cores')) out.cores = p.cores;
  if (p.threads !== undefined && mine('threads')) out.threads = p.threads;
  if (p.memoryBytes !== undefined && mine('memoryBytes')) out.memoryBytes = p.memoryBytes;
  if (p.os !== undefined && mine('os')) out.os = p.os;
  if (p.kernel !== undefined && mine('kernel')) out.kernel = p.kernel;
  const disks = (p.disks ?? []).filter((d) => mine(`disks.${d.name}`) || mine(`disks.${d.name}.blockBytes`));
  if (disks.length) out.disks = disks;
  return out;
}


export function FillFromCaptures({ value, onFill }: { value: HardwareProfileInput; onFill: (next: HardwareProfileInput) => void }) {
  const { api } = useApp();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [captures, setCaptures] = useState<CaptureJson[]>([]);
  const [failed, setFailed] = useState<{ key: string; name: string; error: string }[]>([]);
  const [result, setResult] = useState<ProfileFromCaptures | null>(null);
  const [pasteText, setPasteText] = useState('');
  const [pasteError, setPasteError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const latest = useRef({ value, captures, onFill });
  latest.current = { value, captures, onFill };
  const mounted = useRef(true);
  useEffect(() => { mounted.current = true; return () => { mounted.current = false; }; }, []);
  const regionId = useId();
  const hintId = useId();
  const pasteId = useId();

  /** Reads one batch of parsed entries into the form. */
  const take = (entries: CaptureEntry[]) => {
    if (!mounted.current) return;
    const errors = entries.filter((e) => e.error !== undefined).map((e) => ({ key: e.key, name: e.name, error: e.error! }));
    const batch = entries.flatMap((e) => (e.capture ? [{ ...e.capture, file: e.capture.file || e.name }] : []));
    setFailed((f) => [...f, ...errors]);
    if (!batch.length) return;
    const { value: current, captures: before, onFill: fill } = latest.current;
    const all = [...before, ...batch];
    const r = profileFromCaptures(all);
    const labels = new Set(batch.map((c, i) => captureLabel(c, before.length + i)));
    setCaptures(all);
    setResult(r);
    fill(applyProfilePatch(current, patchFrom(r, labels)));
  };

  const readFiles = async (files: File[]) => {
    if (!files.length || busy) return;
    setBusy(`Reading ${files.length === 1 ? files[0]!.name : `${files.length} files`}…`);
    try { take(await parseFiles(api, files, undefined)); } finally { if (mounted.current) setBusy(null); }
  };

  const readPaste = async () => {
    if (busy) return;
    if (!pasteText.trim()) { setPasteError('Paste the output of lscpu, free, fdisk -l … first.'); return; }
    if (new Blob([pasteText]).size > MAX_TEXT_BYTES) { setPasteError('That is more than 64 MiB of text; choose it as a file instead.'); return; }
    setPasteError(null);
    const name = `pasted-${++pasteCount}.txt`;
    setBusy(`Reading ${name}…`);
    try {
      const entries = await parsePasted(api, name, pasteText, undefined);
      take(entries);
      if (mounted.current && entries.length && entries.every((e) => !e.error)) setPasteText('');
    } finally { if (mounted.current) setBusy(null); }
  };

  const forget = () => { setCaptures([]); setResult(null); setFailed([]); };

  const openChooser = () => fileInput.current?.click();
  const { dragging, handlers: dropHandlers } = useFileDrop(readFiles);

  const rows = result ? filledRows(result) : [];

  return (
    <div className="fill-captures">
      <div className="form-actions start">
        <button type="button" className="btn btn-small" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen((o) => !o)}>
          Fill from captures…
        </button>
        {!open && result && <span className="muted small">{rows.length} field{rows.length === 1 ? '' : 's'} filled from captures — not saved yet.</span>}
      </div>
      {open && (
        <section id={regionId} className="fill-captures-panel" aria-label="Fill from captures" {...dropHandlers}>
          <div className="fill-captures-intake">
            <DropZone
              className={`fill-drop ${dragging ? 'dragging' : ''}`}
              titleClassName="fill-drop-title"
              label="Drop the machine's captures here, or press Enter to choose files"
              title={dragging ? 'Release to read' : 'Drop captures here, or choose files'}
              hint="Output of lscpu, /proc/cpuinfo, free, /proc/meminfo, fdisk -l, tune2fs -l, uname -a, /etc/os-release — several at once."
              hintId={hintId}
              onChoose={openChooser}
            />
            {/* outside the drop zone: a click on it must not bubble into the zone's own click */}
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              aria-label="Capture files"
              onChange={(e) => { const files = Array.from(e.target.files ?? []); e.target.value = ''; void readFiles(files); }}
            />
            <div className="fill-paste">
              <label htmlFor={pasteId} className="small muted">…or paste one tool&apos;s output</label>
              <textarea
                id={pasteId}
                rows={4}
                spellCheck={false}
                value={pasteText}
                onChange={(e) => setPasteText(e.target.value)}
                placeholder={'$ lscpu\nArchitecture:        x86_64\nCPU(s):              4 …'}
                aria-invalid={pasteError ? true : undefined}
              />
              <div className="form-actions start">
                <button type="button" className="btn btn-small" disabled={busy !== null} onClick={() => void readPaste()}>Fill from pasted text</button>
                {pasteError && <span role="alert" className="error-text small">{pasteError}</span>}
              </div>
            </div>
          </div>

          <p role="status" aria-live="polite" className="small muted fill-status">{busy ?? ''}</p>

          {failed.length > 0 && (
            <ul className="fill-errors" aria-label="Files not read">
              {failed.map((f) => <li key={f.key} className="error-text small">{f.name}: {f.error}</li>)}
            </ul>
          )}

          {result && (
            <div className="fill-result">
              <p className="small">
                Filled into the form from {captures.length} capture{captures.length === 1 ? '' : 's'} — nothing is saved until you save the profile.
                Fields the captures do not mention are left as they were.
              </p>
              {rows.length > 0 ? (
                <table className="grid-table fill-sources" aria-label="Filled fields">
                  <thead><tr><th>Field</th><th>Value</th><th>From</th></tr></thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.key} data-testid="filled-field">
                        <td>{r.field}</td>
                        <td>{r.value}</td>
                        <td className="fill-file">{r.from}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : <p className="muted small">These captures say nothing about the hardware.</p>}
              {result.notes.length > 0 && (
                <ul className="fill-notes" aria-label="Remarks on the filled fields">
                  {result.notes.map((n, i) => <li key={i} className="small">{n}</li>)}
                </ul>
              )}
            </div>
          )}

          <div className="form-actions start">
            {result && <button type="button" className="btn btn-small" onClick={forget}>Forget these captures</button>}
            <button type="button" className="btn btn-small" onClick={() => setOpen(false)}>Close</button>
          </div>
        </section>
      )}
    </div>
  );
}
