import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { DISK_KINDS } from '../../../../shared/model';
import type { Disk, DiskKind, HardwareProfile, HardwareProfileInput } from '../../../../shared/model';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { ByteSizeInput } from '../../components/ByteSizeInput/ByteSizeInput';
import { describeError } from '../../api';
import { parseNumber } from '../../lib/format';
import { useDraft } from '../../hooks/useDraft';
import { useUndo } from '../../app/undo';
import { FillFromCaptures } from './FillFromCaptures';
import { focusAfterRemoval, focusWhenShown } from '../../lib/focus';

const EMPTY: HardwareProfileInput = {
  name: '', cpuModel: '', cores: null, threads: null, memoryBytes: null, disks: [],
  os: '', kernel: '', cloud: '', software: '', notes: '',
};
const emptyDisk = (): Disk => ({ name: '', sizeBytes: null, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'unknown' });

function intField(text: string): number | null | 'bad' {
  const n = parseNumber(text);
  if (n === null) return null;
  return Number.isInteger(n) && n >= 0 ? n : 'bad';
}

/** A whole-number field that keeps what the user typed and reports null when empty. */
function IntField({ label, value, onChange }: { label: string; value: number | null; onChange: (n: number | null) => void }) {
  const [text, setText] = useState(value === null ? '' : String(value));
  useEffect(() => {
    setText((t) => { const n = intField(t); return n === value ? t : value === null ? '' : String(value); });
  }, [value]);
  const parsed = intField(text);
  return (
    <label className="field">
      <span>{label}</span>
      <input
        inputMode="numeric"
        className="num"
        value={text}
        aria-invalid={parsed === 'bad' || undefined}
        onChange={(e) => { setText(e.target.value); const n = intField(e.target.value); if (n !== 'bad') onChange(n); }}
      />
    </label>
  );
}

function toInput(p: HardwareProfile | null): HardwareProfileInput {
  if (!p) return structuredClone(EMPTY);
  const { id: _id, usedBy: _u, ...rest } = p;
  return structuredClone(rest);
}

/** Create or edit one hardware profile; delete is refused by the back end while experiments use it. */
export function ProfileForm({ profile }: { profile: HardwareProfile | null }) {
  const { api, navigate } = useApp();
  const run = useAction();
  const { record } = useUndo();
  // edits not saved yet are a draft: kept across switching profile or view, and reloads
  const draft = useDraft(`profile:${profile?.id ?? 'new'}`, toInput(profile));
  const v = draft.value;
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const dirty = draft.dirty;
  const set = (patch: Partial<HardwareProfileInput>) => { setSaved(false); draft.set((x) => ({ ...x, ...patch })); };
  const setDisk = (i: number, patch: Partial<Disk>) => set({ disks: v.disks.map((d, n) => (n === i ? { ...d, ...patch } : d)) });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!v.name.trim()) { setError('The profile needs a name.'); return; }
    setError(null);
    const input = { ...v, name: v.name.trim(), disks: v.disks.filter((d) => d.name.trim() || d.sizeBytes) };
    const result = profile
      ? await run((a) => a.updateProfile(profile.id, input))
      : await run((a) => a.createProfile(input));
    if (result) {
      draft.committed();
      setSaved(true);
      if (profile) {
        const old = toInput(profile);
        record({ message: `Profile “${profile.name}” edited.`, toast: false, undo: (a) => a.updateProfile(profile.id, old) });
      }
      if (!profile) { navigate({ name: 'profiles', profileId: result.id }); focusWhenShown(`profile:${result.id}`); }
    }
  };

  const remove = async () => {
    if (!profile) return;
    const refocus = focusAfterRemoval(`profile:${profile.id}`, 'new-profile');
    try {
      await api.deleteProfile(profile.id);
      navigate({ name: 'profiles', profileId: null });
      refocus();
    } catch (e) {
      // Refused while used: keep the message next to the button, where the user is looking.
      setError(describeError(e).message);
    }
  };

  return (
    <form className="panel form profile-form" aria-label={profile ? `Profile ${profile.name}` : 'New profile'} onSubmit={save}>
      <h2>{profile ? profile.name : 'New profile'}</h2>
      {profile && <p className="muted small">Used by {profile.usedBy} experiment{profile.usedBy === 1 ? '' : 's'}.</p>}
      <FillFromCaptures value={v} onFill={set} />
      <div className="form-grid">
        <label className="field span-2"><span>Name</span><input required value={v.name} onChange={(e) => set({ name: e.target.value })} placeholder="ECS 4C8G CentOS 7.5" /></label>
        <label className="field span-2"><span>CPU model</span><input value={v.cpuModel} onChange={(e) => set({ cpuModel: e.target.value })} /></label>
        <IntField label="Cores" value={v.cores} onChange={(n) => set({ cores: n })} />
        <IntField label="Threads" value={v.threads} onChange={(n) => set({ threads: n })} />
        <div className="field span-2">
          <span id="memory-label">Memory</span>
          <ByteSizeInput label="Memory" value={v.memoryBytes} onChange={(b) => set({ memoryBytes: b })} defaultUnit="GB" />
        </div>
        <label className="field span-2"><span>OS</span><input value={v.os} onChange={(e) => set({ os: e.target.value })} placeholder="CentOS 7.5" /></label>
        <label className="field span-2"><span>Kernel</span><input value={v.kernel} onChange={(e) => set({ kernel: e.target.value })} placeholder="3.10.0-862" /></label>
        <label className="field span-4"><span>Cloud / instance</span><input value={v.cloud} onChange={(e) => set({ cloud: e.target.value })} /></label>
        <label className="field span-4"><span>Software stack</span><input value={v.software} onChange={(e) => set({ software: e.target.value })} placeholder="nginx 1.15, PHP-FPM, MySQL 5.7, Redis 5" /></label>
      </div>

      <fieldset className="disks">
        <legend>Disks</legend>
        {v.disks.length > 0 && (
          <table className="grid-table">
            <thead><tr><th>Name</th><th>Size</th><th>Logical sector (B)</th><th>Physical sector (B)</th><th>FS block (B)</th><th>Kind</th><th><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {v.disks.map((d, i) => (
                <tr key={i}>
                  <td><input aria-label={`Disk ${i + 1} name`} className="short" value={d.name} onChange={(e) => setDisk(i, { name: e.target.value })} placeholder="vda" /></td>
                  <td><ByteSizeInput label={`Disk ${i + 1} size`} value={d.sizeBytes} onChange={(b) => setDisk(i, { sizeBytes: b })} /></td>
                  {(['logicalSectorBytes', 'physicalSectorBytes', 'blockBytes'] as const).map((k) => (
                    <td key={k}>
                      <input
                        aria-label={`Disk ${i + 1} ${k === 'blockBytes' ? 'block bytes' : k === 'logicalSectorBytes' ? 'logical sector bytes' : 'physical sector bytes'}`}
                        className="num short"
                        inputMode="numeric"
                        value={d[k] ?? ''}
                        onChange={(e) => { const n = intField(e.target.value); if (n !== 'bad') setDisk(i, { [k]: n }); }}
                      />
                    </td>
                  ))}
                  <td>
                    <select aria-label={`Disk ${i + 1} kind`} value={d.kind} onChange={(e) => setDisk(i, { kind: e.target.value as DiskKind })}>
                      {DISK_KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
                    </select>
                  </td>
                  <td><button type="button" className="btn btn-icon" aria-label={`Remove disk ${i + 1}`} onClick={() => set({ disks: v.disks.filter((_, n) => n !== i) })}>×</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <button type="button" className="btn btn-small" onClick={() => set({ disks: [...v.disks, emptyDisk()] })}>Add disk</button>
      </fieldset>

      <label className="field"><span>Notes</span><textarea rows={3} value={v.notes} onChange={(e) => set({ notes: e.target.value })} /></label>
      {error && <p role="alert" className="error-text">{error}</p>}
      <div className="form-actions start">
        <button type="submit" className="btn btn-primary btn-small" disabled={profile !== null && !dirty}>{profile ? 'Save profile' : 'Create profile'}</button>
        {dirty && (profile || draft.restored) && <button type="button" className="btn btn-small" onClick={draft.discard}>Discard changes</button>}
        {dirty && draft.restored && <span className="muted small">Unsaved draft kept from before</span>}
        {saved && !dirty && <span className="muted small" role="status">Saved.</span>}
        {profile && <button type="button" className="btn btn-small btn-danger push-right" onClick={remove}>Delete profile</button>}
      </div>
    </form>
  );
}
