/** Differences between two settings snapshots (two sysctl -a captures, two php.ini files …). Pure. */
import { normalizeSpace } from './common';
import { isSysctlState } from './sysctl';

export interface SettingChange {
  scope: string;
  key: string;
  /** null when the key was added */
  before: string | null;
  /** null when the key was removed */
  after: string | null;
}

/** Keys of a settings kind that are running state, not settings (sysctl's counters): never a config change. */
export function isStateKey(kind: string, key: string): boolean {
  return kind === 'sysctl' && isSysctlState(key);
}

/**
 * Added, removed and changed keys, sorted by key. Values are compared after whitespace
 * normalization ("32768\t60999" equals "32768 60999"); the values returned are as captured.
 * With the snapshots' `kind`, keys that are running state (isStateKey) are left out.
 */
export function diffSettings(before: Record<string, string>, after: Record<string, string>, scope: string, kind?: string): SettingChange[] {
  const out: SettingChange[] = [];
  const has = Object.prototype.hasOwnProperty;
  const state = (key: string) => kind !== undefined && isStateKey(kind, key);
  for (const key of Object.keys(before)) {
    if (state(key)) continue;
    const b = before[key]!;
    if (!has.call(after, key)) { out.push({ scope, key, before: b, after: null }); continue; }
    const a = after[key]!;
    if (normalizeSpace(String(a)) !== normalizeSpace(String(b))) out.push({ scope, key, before: b, after: a });
  }
  for (const key of Object.keys(after)) {
    if (state(key)) continue;
    if (!has.call(before, key)) out.push({ scope, key, before: null, after: after[key]! });
  }
  return out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}
