/**
 * The app's keyboard shortcuts: ONE table, read both by the key handler (useShortcuts) and by the
 * Help › Keyboard shortcuts sheet (ShortcutsDialog), so what the sheet lists is what the keys do.
 *
 * A shortcut does not fire while a dialog is open (the dialog handles its own keys: Escape closes
 * it), nor while the focus is in a text field, unless its key says `inTextField` (Ctrl+K: search
 * from anywhere). Keys the browser keeps for itself (Ctrl+N, Ctrl+T, Ctrl+W, Ctrl+R …) are not used.
 */
import { useEffect, useRef } from 'react';
import { IS_MAC, ownsUndo } from './undo';

/** A key with its modifiers. `mod` is Ctrl (⌘ on macOS). A letter is matched on the key typed, or with Alt on the physical key (⌥ changes the letter on macOS). */
export interface Combo {
  /** a lower-case letter, a symbol as typed ('/', '?') or a key name ('F1', 'Escape') */
  key: string;
  mod?: true;
  alt?: true;
  shift?: true;
  /** also while typing in a text field (Ctrl+K searches from anywhere, F1 types nothing; "/" and "?" are typed there) */
  inTextField?: true;
}

export type ShortcutId = 'new-experiment' | 'add-result' | 'attach-captures' | 'compare' | 'search' | 'undo' | 'back' | 'forward' | 'shortcuts';

export interface Shortcut {
  id: ShortcutId;
  label: string;
  /** what it needs or does, for the sheet */
  detail?: string;
  /** the first is the one shown first; any of them does it */
  combos: Combo[];
  /** in Electron a menu accelerator already does it (File › Import Captures… is Ctrl+I), so the page leaves the key to the menu */
  menuInElectron?: true;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'new-experiment', label: 'New experiment', detail: 'in the open study', combos: [{ key: 'n', alt: true }] },
  { id: 'add-result', label: 'Add result', detail: 'to the selected experiment', combos: [{ key: 'r', alt: true }] },
  { id: 'attach-captures', label: 'Attach captures', detail: 'files to the selected experiment', combos: [{ key: 'i', mod: true }], menuInElectron: true },
  { id: 'compare', label: 'Compare side by side', detail: 'the selected experiment as A', combos: [{ key: 'c', alt: true }] },
  { id: 'search', label: 'Search', combos: [{ key: 'k', mod: true, inTextField: true }, { key: '/' }] },
  { id: 'undo', label: 'Undo', detail: 'the last change (outside text fields)', combos: [{ key: 'z', mod: true }] },
  // the browser's own keys for its history, kept by the page so that the desktop app has them too
  { id: 'back', label: 'Back', detail: 'to the view before', combos: [{ key: 'ArrowLeft', alt: true }] },
  { id: 'forward', label: 'Forward', combos: [{ key: 'ArrowRight', alt: true }] },
  { id: 'shortcuts', label: 'Keyboard shortcuts', detail: 'this list', combos: [{ key: '?' }, { key: 'F1', inTextField: true }] },
];

const LETTER = /^[a-z]$/;
/** keys written as their sign */
const KEY_NAMES: Readonly<Record<string, string>> = { ArrowLeft: '←', ArrowRight: '→' };

/** Whether the key press is the combo (modifiers exact; Shift is part of a typed symbol such as '?'). */
export function matches(e: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>, c: Combo, mac: boolean): boolean {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (c.mod ? !mod : e.ctrlKey || e.metaKey) return false;
  if (!!c.alt !== e.altKey) return false;
  if (LETTER.test(c.key)) {
    if (!!c.shift !== e.shiftKey) return false;
    return e.key.toLowerCase() === c.key || (e.altKey && e.code === `Key${c.key.toUpperCase()}`);
  }
  if (c.key.length > 1 && !!c.shift !== e.shiftKey) return false; // F1, Escape …
  return e.key === c.key;
}

/** The combo as the sheet and tooltips write it: ["Ctrl", "K"], or ["⌘", "K"] on macOS. */
export function comboKeys(c: Combo, mac: boolean = IS_MAC): string[] {
  const keys: string[] = [];
  if (c.mod) keys.push(mac ? '⌘' : 'Ctrl');
  if (c.alt) keys.push(mac ? '⌥' : 'Alt');
  if (c.shift) keys.push(mac ? '⇧' : 'Shift');
  keys.push(LETTER.test(c.key) ? c.key.toUpperCase() : KEY_NAMES[c.key] ?? c.key);
  return keys;
}

/** "Ctrl+K or /", for a title or a placeholder. */
export function shortcutText(id: ShortcutId, mac: boolean = IS_MAC): string {
  const s = SHORTCUTS.find((x) => x.id === id);
  return s ? s.combos.map((c) => comboKeys(c, mac).join(mac ? '' : '+')).join(' or ') : '';
}

/** Which shortcut the key press is, if it may fire now (not in a dialog; not in a text field unless allowed). */
export function shortcutFor(e: KeyboardEvent, mac: boolean = IS_MAC, electron = false): Shortcut | null {
  if (e.defaultPrevented || e.repeat || e.isComposing) return null;
  for (const s of SHORTCUTS) {
    const combo = s.combos.find((c) => matches(e, c, mac));
    if (!combo) continue;
    if (electron && s.menuInElectron) return null;
    if (document.querySelector('dialog[open]')) return null;
    const typing = ownsUndo(e.target instanceof Element ? e.target : null) || ownsUndo(document.activeElement);
    return typing && !combo.inTextField ? null : s;
  }
  return null;
}

/** Listen for the shortcuts on the window; `run` does the action of the one pressed. */
export function useShortcuts(run: (id: ShortcutId) => void): void {
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    const electron = typeof window !== 'undefined' && !!(window as { tunebook?: unknown }).tunebook;
    const onKey = (e: KeyboardEvent) => {
      const s = shortcutFor(e, IS_MAC, electron);
      if (!s) return;
      e.preventDefault();
      runRef.current(s.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
