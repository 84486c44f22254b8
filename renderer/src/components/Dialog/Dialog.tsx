import { useId, useLayoutEffect, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import './Dialog.css';

/** What Tab moves through. */
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';
const FIELD = 'input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled])';

const shown = (el: HTMLElement): boolean => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';

/**
 * Where the focus starts in a dialog: an element marked data-autofocus (e.g. Cancel in a
 * confirmation of something that cannot be undone), else the first field (of a group of radio
 * buttons, the checked one), else the primary button, else the first control other than Close.
 */
export function initialFocus(root: HTMLElement): HTMLElement | null {
  const marked = root.querySelector<HTMLElement>('[data-autofocus]');
  if (marked && shown(marked)) return marked;
  const field = [...root.querySelectorAll<HTMLElement>(FIELD)].find(shown);
  if (field) {
    if (field instanceof HTMLInputElement && field.type === 'radio' && field.name && !field.checked) {
      const checked = root.querySelector<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(field.name)}"]:checked`);
      if (checked && shown(checked)) return checked;
    }
    return field;
  }
  const primary = [...root.querySelectorAll<HTMLElement>('.btn-primary:not([disabled])')].find(shown);
  if (primary) return primary;
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].find((el) => shown(el) && !el.hasAttribute('data-dialog-close')) ?? null;
}

/** The controls Tab reaches in the dialog, in order (of a group of radio buttons, only the checked one or the first). */
function tabbables(root: HTMLElement): HTMLElement[] {
  const all = [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(shown);
  return all.filter((el) => {
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) return true;
    const group = all.filter((x): x is HTMLInputElement => x instanceof HTMLInputElement && x.type === 'radio' && x.name === el.name);
    const checked = group.find((x) => x.checked);
    return checked ? checked === el : group[0] === el;
  });
}

/**
 * A modal on the native <dialog> (the page behind is inert), rendered only while open. Every dialog
 * of the app behaves the same: it opens with the focus in its first field (initialFocus), Tab and
 * Shift+Tab cycle inside it, Escape closes it, and on closing the focus goes back where it was
 * (or, when that element is gone, to the main view).
 */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  // where the focus was when the dialog opened (read before the dialog takes it)
  const opener = useRef<Element | null>(null);
  if (opener.current === null && typeof document !== 'undefined') opener.current = document.activeElement;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    if (!el.open) el.showModal();
    initialFocus(el)?.focus();
    let gone = false;
    // closed by the browser itself (e.g. its own Escape handling): tell the owner
    const onNativeClose = () => { if (!gone) onCloseRef.current(); };
    el.addEventListener('close', onNativeClose);
    const from = opener.current;
    return () => {
      gone = true;
      el.removeEventListener('close', onNativeClose);
      if (el.open) el.close();
      // once the dialog (and whatever closed with it) is gone from the page: back where the focus
      // was, unless something else took it meanwhile (e.g. the item just created)
      queueMicrotask(() => {
        if (el.isConnected && el.open) return; // shown again at once (React's StrictMode runs effects twice in development)
        const active = document.activeElement;
        if (active && active !== document.body && active.isConnected && !el.contains(active) && active !== from) return;
        if (from instanceof HTMLElement && from !== document.body && from.isConnected) from.focus();
        else document.getElementById('main')?.focus();
      });
    };
  }, []);

  // the focus stays in the dialog: Tab from the last control goes to the first, Shift+Tab from the first to the last
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const list = tabbables(ref.current);
    if (!list.length) { e.preventDefault(); return; }
    const first = list[0]!;
    const last = list[list.length - 1]!;
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && ref.current.contains(active) && active !== ref.current;
    if (e.shiftKey && (!inside || active === first)) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && (!inside || active === last)) { e.preventDefault(); first.focus(); }
  };

  return (
    <dialog
      ref={ref}
      className={`dialog ${wide ? 'dialog-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => { e.preventDefault(); onCloseRef.current(); }}
      onClick={(e) => { if (e.target === ref.current) onCloseRef.current(); }}
      onKeyDown={onKeyDown}
    >
      <div className="dialog-body">
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn btn-icon" aria-label="Close" data-dialog-close onClick={() => onCloseRef.current()}>×</button>
        </header>
        {children}
      </div>
    </dialog>
  );
}
