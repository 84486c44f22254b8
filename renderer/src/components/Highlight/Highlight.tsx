import type { ReactNode } from 'react';

/**
 * Renders a search snippet whose matches are delimited by \u0002 … \u0003 as text with <mark>
 * elements. The text is never parsed as HTML.
 */
export function Highlight({ snippet }: { snippet: string }) {
  const parts: ReactNode[] = [];
  let rest = snippet;
  let key = 0;
  while (rest.length) {
    const start = rest.indexOf('\u0002');
    if (start < 0) { parts.push(rest); break; }
    if (start > 0) parts.push(rest.slice(0, start));
    const end = rest.indexOf('\u0003', start + 1);
    const marked = end < 0 ? rest.slice(start + 1) : rest.slice(start + 1, end);
    parts.push(<mark key={key++}>{marked}</mark>);
    rest = end < 0 ? '' : rest.slice(end + 1);
  }
  return <>{parts}</>;
}
