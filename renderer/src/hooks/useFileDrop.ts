import { useEffect, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { droppedFiles } from '../features/captures/parseCaptures';

/** Whether a drag carries files (not text, a link, or a reordered row). */
export function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

/**
 * Drag-and-drop of files (and, in browser mode, folders) onto an element: spread `handlers` on
 * it and style it with `dragging`. Drags of anything but files (text, links) are left alone.
 * `stopPropagation` keeps a drop on a nested zone from also reaching an outer one.
 */
export function useFileDrop(onFiles: (files: File[]) => void, opts: { stopPropagation?: boolean } = {}) {
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);
  // a drop taken by a nested zone (which stops it) or a drag that ends elsewhere still ends ours
  useEffect(() => {
    if (!dragging) return;
    const reset = () => { depth.current = 0; setDragging(false); };
    window.addEventListener('drop', reset, true);
    window.addEventListener('dragend', reset, true);
    return () => { window.removeEventListener('drop', reset, true); window.removeEventListener('dragend', reset, true); };
  }, [dragging]);
  const handlers = {
    onDragEnter: (e: DragEvent<HTMLElement>) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setDragging(true);
    },
    onDragOver: (e: DragEvent<HTMLElement>) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent<HTMLElement>) => {
      if (!hasFiles(e)) return;
      // enter/leave fire for every child crossed: count them so the highlight doesn't flicker
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent<HTMLElement>) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (opts.stopPropagation) e.stopPropagation();
      depth.current = 0;
      setDragging(false);
      void droppedFiles(e.dataTransfer).then(onFiles);
    },
  };
  return { dragging, handlers };
}
