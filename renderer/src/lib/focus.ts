/**
 * Where the focus goes after a change, for every list of the app (studies, experiments, config
 * changes, results, requirements, profiles, captures …): after creating something, on the new item
 * once it is drawn; after deleting one, on its neighbour (the next one, else the one before), else on
 * the list's way to add one. Never on the page's body.
 *
 * An item says who it is with `data-focus-key` (unique in the page, e.g. "experiment:12") and which
 * list it belongs to with `data-focus-group`; the element carrying them is the one focused (a row
 * that is not a control gets tabIndex={-1}).
 */

const KEY = 'data-focus-key';
const GROUP = 'data-focus-group';

/** How long a new item may take to be drawn (its list reloads after the write). */
const WAIT_MS = 4000;
/** How long a focused item is followed (drawn anew by its list's reload, it is focused again). */
const FOLLOW_MS = 1500;

function find(key: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${KEY}="${CSS.escape(key)}"]`);
}

let pending: { cancel: () => void } | null = null;

/** A focus move is waiting for its item to be drawn. */
export function focusPending(): boolean {
  return pending !== null;
}

/**
 * Focus the item `key` as soon as it is drawn (at once if it is there); if it is not drawn within a
 * few seconds, or `key` is null, the item `fallback` instead. Dropped when the user clicks or
 * presses a key meanwhile (they have moved on), or when another focus move is asked for.
 */
export function focusWhenShown(key: string | null, fallback?: string | null): void {
  pending?.cancel();
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener('pointerdown', stop, true);
    window.removeEventListener('keydown', stop, true);
    if (pending === handle) pending = null;
  };
  const handle = { cancel: stop };
  // once focused, the element is followed a moment: the list redrawn after the write may draw it anew
  let focused: string | null = null;
  let followUntil = 0;
  const take = (k: string, el: HTMLElement) => { el.focus(); focused = k; followUntil = Date.now() + FOLLOW_MS; };
  const attempt = () => {
    if (focused === null) {
      const el = key === null ? null : find(key);
      if (el) take(key!, el);
      else if (key === null || Date.now() - started > WAIT_MS) {
        const other = fallback ? find(fallback) : null;
        if (!other) { stop(); return; }
        take(fallback!, other);
      }
    } else {
      const active = document.activeElement;
      if (!active || active === document.body) find(focused)?.focus();
      if (Date.now() > followUntil) { stop(); return; }
    }
    timer = setTimeout(attempt, 30);
  };
  pending = handle;
  // listened from the next turn: the click or key press that asked for this move is not "meanwhile"
  setTimeout(() => {
    if (pending !== handle) return;
    window.addEventListener('pointerdown', stop, true);
    window.addEventListener('keydown', stop, true);
  }, 0);
  attempt();
}

/**
 * Called before the item `key` is deleted: where the focus goes once it is, as a function to call
 * when the deletion is done. The neighbour is taken now, while the item is still in its list.
 */
export function focusAfterRemoval(key: string, fallback: string): () => void {
  const el = find(key);
  const group = el?.getAttribute(GROUP);
  let neighbour: string | null = null;
  if (el && group) {
    const items = [...document.querySelectorAll<HTMLElement>(`[${GROUP}="${CSS.escape(group)}"]`)];
    const i = items.indexOf(el);
    neighbour = (items[i + 1] ?? items[i - 1])?.getAttribute(KEY) ?? null;
  }
  return () => focusWhenShown(neighbour, fallback);
}
