/** Differences between two settings snapshots (two sysctl -a captures, two php.ini files …). Pure. */
import { normalizeSpace } from './common';

export interface SettingChange {
  scope: string;
  key: string;
  /** null when the key was added */
  before: string | null;
  /** null when the key was removed */
  after: string | null;
}

/**
 * Added, removed and changed keys, sorted by key. Values are compared after whitespace
 * normalization ("32768\t60999" equals "32768 60999"); the values returned are as captured.
 */
export function diffSettings(before: Record<string, string>, after: Record<string, string>, scope: string): SettingChange[] {
  const out: SettingChange[] = [];
  const has = Object.prototype.hasOwnProperty;
  for (const key of Object.keys(before)) {
    const b = before[key]!;
    if (!has.call(after, key)) { out.push({ scope, key, before: b, after: null }); continue; }
    const a = after[key]!;
    if (normalizeSpace(String(a)) !== normalizeSpace(String(b))) out.push({ scope, key, before: b, after: a });
  }
  for (const key of Object.keys(after)) {
    if (!has.call(before, key)) out.push({ scope, key, before: null, after: after[key]! });
  }
  return out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}
