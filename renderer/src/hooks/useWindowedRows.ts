import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/** Lists longer than this draw only the rows in view. */
export const WINDOW_AFTER = 200;

/**
 * The rows of a long table or list that are in view, for rendering only those
 * (@tanstack/react-virtual), with the space of the others kept as padding above and below. Short
 * lists (≤ WINDOW_AFTER) render every row and need no scroll box of their own.
 */
export function useWindowedRows(count: number, rowHeight: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const windowed = count > WINDOW_AFTER;
  const v = useVirtualizer({ count: windowed ? count : 0, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 20 });
  if (!windowed) return { windowed, scrollRef, indices: Array.from({ length: count }, (_, i) => i), padTop: 0, padBottom: 0, scrollToIndex: (_i: number) => {} };
  const items = v.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = Math.max(0, v.getTotalSize() - (items[items.length - 1]?.end ?? 0));
  return { windowed, scrollRef, indices: items.map((i) => i.index), padTop, padBottom, scrollToIndex: (i: number) => v.scrollToIndex(i, { align: 'auto' }) };
}
