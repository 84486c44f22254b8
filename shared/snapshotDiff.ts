/**
 * The config changes between two settings snapshots (sysctl -a, ulimit -a, php.ini, my.cnf …),
 * for the UI, `tunebook diff` and the proposals of stored captures: both sides parsed by the back end, refused when a
 * side holds no settings (or several captures) or the two are different kinds, then diffSettings.
 * Pure: the component owns the parsing and the UI.
 */
import type { CaptureJson } from './capture/json';
import { diffSettings } from './capture/parsers/settings/diff';
import type { SettingChange } from './capture/parsers/settings/diff';
import type { ConfigChange } from './model';

export type SideName = 'Before' | 'After';

/** What the Captures view's parseFiles/parsePasted give for a file or a paste (a CaptureEntry fits). */
export interface SnapshotEntry { name: string; capture?: CaptureJson; error?: string }

export type SnapshotDiff =
  | { ok: true; scope: string; kind: string; changes: SettingChange[]; beforeName: string; afterName: string }
  | { ok: false; error: string };

type Picked = { ok: true; capture: CaptureJson; name: string } | { ok: false; error: string };

const settingCount = (c: CaptureJson): number => Object.keys(c.settings).length;

/** The one settings capture of a side, or why there is none. */
export function pickSnapshot(side: SideName, entries: readonly SnapshotEntry[]): Picked {
  const label = `The ${side.toLowerCase()} snapshot`;
  const failed = entries.filter((e) => e.error !== undefined);
  const parsed = entries.filter((e): e is SnapshotEntry & { capture: CaptureJson } => e.capture !== undefined);
  if (!parsed.length) {
    if (failed.length) return { ok: false, error: `${label} could not be read: ${failed.map((e) => `${e.name}: ${e.error}`).join('; ')}` };
    return { ok: false, error: `${label} is empty: choose, drop or paste it first.` };
  }
  if (parsed.length > 1) {
    const names = parsed.map((e) => `${e.name} (${e.capture.kind})`).join(', ');
    return { ok: false, error: `${label} holds ${parsed.length} captures (${names}); give one snapshot per side.` };
  }
  const { capture, name } = parsed[0]!;
  if (settingCount(capture) === 0) {
    return {
      ok: false,
      error: `${label} (${name}) holds no settings: it was read as ${capture.kind}. `
        + 'Compare settings snapshots: sysctl -a, ulimit -a, or config files such as php.ini or my.cnf.',
    };
  }
  return { ok: true, capture, name };
}

/** The scope the changes are recorded under: the tool, or the file name for a config file (as `tunebook diff`). */
export function snapshotScope(c: CaptureJson, name: string): string {
  if (c.kind !== 'ini') return c.kind;
  // a file chosen inside a dropped folder may come with its folder: the scope is the file's name
  return (c.file || name).split(/[\\/]/).pop() || 'config file';
}

export function compareSnapshots(before: readonly SnapshotEntry[], after: readonly SnapshotEntry[]): SnapshotDiff {
  const b = pickSnapshot('Before', before);
  if (!b.ok) return b;
  const a = pickSnapshot('After', after);
  if (!a.ok) return a;
  if (b.capture.kind !== a.capture.kind) {
    return {
      ok: false,
      error: `The two snapshots are different kinds: before is ${b.capture.kind} (${b.name}), after is ${a.capture.kind} (${a.name}). `
        + 'Compare two captures of the same tool, or two config files.',
    };
  }
  const scope = snapshotScope(a.capture, a.name);
  return {
    ok: true,
    scope,
    kind: a.capture.kind,
    changes: diffSettings(b.capture.settings, a.capture.settings, scope, a.capture.kind),
    beforeName: b.name,
    afterName: a.name,
  };
}

/** Whether an experiment already records this difference as a config change (the snapshots were added once before). */
export function isRecorded(existing: readonly Pick<ConfigChange, 'scope' | 'key' | 'before' | 'after'>[], c: SettingChange, scope: string): boolean {
  return existing.some((e) => e.scope === scope && e.key === c.key && e.before === (c.before ?? '') && e.after === (c.after ?? ''));
}
