/**
 * Drafts: what the user typed into an editor that saves only on an explicit Save (a study's goal,
 * an experiment's fields and notes, a study's requirements) is kept, while it differs from what is
 * saved, in the window's localStorage under the notebook's path and the thing edited. Switching to
 * another study or experiment, reloading, even closing the window loses nothing: the editor shows
 * the draft again, marked unsaved, with Save and Discard. Leaving the page (browser mode) with a
 * draft not saved asks first.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SetStateAction } from 'react';
import { useApp } from '../app/AppContext';

const PREFIX = 'tunebook.draft:';

interface Stored<T> { value: T; savedAt: string }

// ---- the notebook's path (drafts of one notebook are not offered in another) ------------------

let path: string | null = null;
let loading: Promise<string> | null = null;
const pathListeners = new Set<(p: string | null) => void>();

function useNotebookPath(): string | null {
  const { api } = useApp();
  const [p, setP] = useState(path);
  useEffect(() => {
    pathListeners.add(setP);
    loading ??= api.notebookInfo().then((i) => { path = i.path; for (const fn of pathListeners) fn(path); return i.path; });
    loading.catch(() => { loading = null; });
    const off = api.on('onDidChangeNotebook', (info) => { path = info.path; loading = Promise.resolve(info.path); for (const fn of pathListeners) fn(path); });
    return () => { pathListeners.delete(setP); off(); };
  }, [api]);
  return p;
}

// ---- storage ------------------------------------------------------------------------------------

function read<T>(key: string): Stored<T> | null {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw ? JSON.parse(raw) as Stored<T> : null;
  } catch {
    return null;
  }
}

function write<T>(key: string, value: T | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify({ value, savedAt: new Date().toISOString() } satisfies Stored<T>));
  } catch {
    // storage full or disabled: the draft lives only as long as the editor
  }
}

/** Drafts typed in this page and not saved yet (what leaving the page asks about). */
const unsaved = new Set<string>();

/**
 * Work of this page that is not a draft and not stored yet (captures previewed but not stored on an
 * experiment): leaving the page asks about it as about a draft.
 */
export function setUnsavedWork(key: string, unsavedNow: boolean): void {
  if (unsavedNow) unsaved.add(`work:${key}`); else unsaved.delete(`work:${key}`);
}

/** Whether a draft typed in this page is not saved yet. */
export function hasUnsavedDrafts(): boolean {
  return unsaved.size > 0;
}

// Browser mode: leaving the page with a draft asks first (the draft is kept all the same). Inside
// Electron a beforeunload answer cancels the close without asking unless the main process asks, so
// there the drafts are only kept, and offered back when the window opens again.
if (typeof window !== 'undefined' && !window.tunebook) {
  window.addEventListener('beforeunload', (e) => {
    if (!hasUnsavedDrafts()) return;
    e.preventDefault();
    e.returnValue = '';
  });
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export interface Draft<T> {
  /** what the editor shows: the draft when there is one, else the saved value */
  value: T;
  set: (v: SetStateAction<T>) => void;
  /** the value differs from the saved one */
  dirty: boolean;
  /** the draft was kept from before (another visit, a reload) */
  restored: boolean;
  /** drop the draft: the editor shows the saved value (Discard) */
  discard: () => void;
  /**
   * The draft was saved: it is no longer kept, and the editor follows the saved value when it comes
   * back (the back end may have tidied it: a title trimmed, a number written out).
   */
  committed: () => void;
}

/**
 * The draft of `id` (e.g. `goal:12`) over its saved value. While the value equals the saved one no
 * draft is kept; when the saved value changes and there is no draft, the editor follows it.
 */
export function useDraft<T>(id: string, saved: T): Draft<T> {
  const notebook = useNotebookPath();
  const key = notebook === null ? null : `${notebook}|${id}`;
  const savedKey = JSON.stringify(saved);
  const [state, setState] = useState<{ key: string | null; value: T; restored: boolean }>(() => ({ key: null, value: saved, restored: false }));
  const savedRef = useRef(saved);
  savedRef.current = saved;

  // another thing edited, or the notebook's path known: its draft, if one was kept
  if (state.key !== key) {
    // typed in the moment before the notebook's path was known: kept as the draft
    const typed = state.key === null && key !== null && !same(state.value, saved);
    if (typed) write(key, state.value);
    const kept = key === null ? null : read<T>(key);
    const value = kept && !same(kept.value, saved) ? kept.value : saved;
    setState({ key, value, restored: !typed && value !== saved });
  }

  // the saved value changed (saved here, or by another window): follow it unless a draft differs
  const lastSaved = useRef(savedKey);
  useEffect(() => {
    if (lastSaved.current === savedKey) return;
    lastSaved.current = savedKey;
    setState((s) => (key !== null && read<T>(key) !== null && !same(s.value, savedRef.current) ? s : { ...s, value: JSON.parse(savedKey) as T, restored: false }));
  }, [savedKey, key]);

  const set = useCallback((v: SetStateAction<T>) => {
    setState((s) => {
      const value = typeof v === 'function' ? (v as (p: T) => T)(s.value) : v;
      if (s.key !== null) {
        const clean = same(value, savedRef.current);
        write(s.key, clean ? null : value);
        if (clean) unsaved.delete(s.key); else unsaved.add(s.key);
      }
      return { ...s, value, restored: false };
    });
  }, []);

  const discard = useCallback(() => {
    setState((s) => {
      if (s.key !== null) { write(s.key, null); unsaved.delete(s.key); }
      return { ...s, value: savedRef.current, restored: false };
    });
  }, []);

  const committed = useCallback(() => {
    setState((s) => {
      if (s.key !== null) { write(s.key, null); unsaved.delete(s.key); }
      return s;
    });
  }, []);

  // a draft shown again after a reload is unsaved in this page too
  const dirty = !same(state.value, saved);
  useEffect(() => {
    if (key === null) return;
    if (!dirty) { unsaved.delete(key); write(key, null); } else if (read(key) !== null) unsaved.add(key);
  }, [dirty, key]);

  return { value: state.value, set, dirty, restored: state.restored, discard, committed };
}
