/**
 * Undo: the one list of this window's changes that can be taken back, newest last. A change is
 * recorded with its inverse (restoreStudy after deleteStudy, the old values after an update, the old
 * place after a move); Ctrl+Z (Cmd+Z on macOS) outside text fields, and the Undo button of the
 * change's toast, both take it back through here, so a change is never undone twice.
 */
import { useCallback, useEffect, useState } from 'react';
import type { TunebookApi } from '../../../shared/api';
import { useToasts } from '../components/Toast/useToasts';
import { useAction } from './useAction';

export interface UndoEntry {
  /** what was done, as the toast says it: "Experiment “x” deleted." */
  message: string;
  /** the inverse of the change (it may navigate to what it brings back) */
  undo: (api: TunebookApi) => Promise<unknown>;
}

interface Held extends UndoEntry { id: number }

/** The toast showing each change with its Undo button, taken away once the change is undone. */
const toastOf = new Map<number, number>();

/** How many changes are kept (the oldest are forgotten first). */
const MAX_ENTRIES = 100;
let stack: Held[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const notify = (): void => { for (const fn of [...listeners]) fn(); };

/** Record a change; returns its id (for its toast's Undo button). */
export function pushUndo(entry: UndoEntry): number {
  const id = nextId++;
  stack = [...stack, { ...entry, id }];
  for (const dropped of stack.splice(0, Math.max(0, stack.length - MAX_ENTRIES))) toastOf.delete(dropped.id);
  notify();
  return id;
}

/** Take a change off the list to undo it: the one with `id`, or the last one. Undefined when it is gone (already undone). */
export function takeUndo(id?: number): (UndoEntry & { id: number }) | undefined {
  const i = id === undefined ? stack.length - 1 : stack.findIndex((e) => e.id === id);
  if (i < 0) return undefined;
  const entry = stack[i]!;
  stack = stack.filter((_, n) => n !== i);
  notify();
  return entry;
}

/** Forget every change (another notebook was opened: their ids mean nothing there). */
export function clearUndo(): void {
  stack = [];
  toastOf.clear();
  notify();
}

/** What Ctrl+Z would undo now (null: nothing). */
export function lastUndo(): string | null {
  return stack.at(-1)?.message ?? null;
}

/** Re-renders with the message of the last change (for a title or a menu), null when there is none. */
export function useLastUndo(): string | null {
  const [last, setLast] = useState(lastUndo);
  useEffect(() => {
    const fn = () => setLast(lastUndo());
    listeners.add(fn);
    fn();
    return () => { listeners.delete(fn); };
  }, []);
  return last;
}

/** Whether the element keeps Ctrl+Z for itself: text fields (their own typing undo) and editable content. */
export function ownsUndo(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color', 'image'].includes(el.type);
  if (el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLElement && el.isContentEditable;
}

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * `record(entry)`: remember a change and show its toast with an Undo button (`toast: false`: no
 * toast, Ctrl+Z only, for small edits that show themselves). `undo(id?)`: take back that change, or
 * the last one.
 */
export function useUndo() {
  const run = useAction();
  const { show, dismiss } = useToasts();
  const undo = useCallback(async (id?: number) => {
    const entry = takeUndo(id);
    if (!entry) {
      if (id === undefined) show({ message: 'Nothing to undo.', timeoutMs: 3000 });
      return false;
    }
    const toast = toastOf.get(entry.id);
    toastOf.delete(entry.id);
    if (toast !== undefined) dismiss(toast);
    const ok = await run(async (api) => { await entry.undo(api); return true; });
    if (ok) show({ message: `Undone: ${entry.message}`, timeoutMs: 5000 });
    return ok === true;
  }, [run, show, dismiss]);
  const record = useCallback((entry: UndoEntry & { toast?: boolean }) => {
    const { toast, ...rest } = entry;
    const id = pushUndo(rest);
    if (toast !== false) toastOf.set(id, show({ message: rest.message, action: { label: 'Undo', run: () => void undo(id) } }));
  }, [show, undo]);
  return { record, undo };
}
