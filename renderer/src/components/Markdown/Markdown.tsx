import type { ReactNode } from 'react';
import './Markdown.css';

/**
 * A deliberately tiny Markdown renderer producing React elements (never HTML strings): paragraphs,
 * headings, bullet and numbered lists, fenced code blocks, `code`, **strong**, *emphasis*, and
 * links shown as text followed by their address (nothing is clickable, nothing is fetched).
 */
export function Markdown({ text }: { text: string }) {
  return <div className="markdown">{renderBlocks(text.replace(/\r\n?/g, '\n'))}</div>;
}

function renderBlocks(text: string): ReactNode[] {
  const lines = text.split('\n');
  const out: ReactNode[] = [];
  let i = 0;
  let key = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (/^\s*$/.test(line)) { i++; continue; }
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      out.push(<pre key={key++}><code>{body.join('\n')}</code></pre>);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(<p key={key++} className="md-heading">{renderInline(heading[2]!)}</p>);
      i++;
      continue;
    }
    if (/^\s*[-*+]\s+/.test(line) || /^\s*\d+[.)]\s+/.test(line)) {
      const ordered = /^\s*\d+[.)]\s+/.test(line);
      const items: string[] = [];
      const itemRe = ordered ? /^\s*\d+[.)]\s+(.*)$/ : /^\s*[-*+]\s+(.*)$/;
      while (i < lines.length) {
        const m = itemRe.exec(lines[i]!);
        if (m) { items.push(m[1]!); i++; continue; }
        if (/^\s{2,}\S/.test(lines[i]!) && items.length) { items[items.length - 1] += ' ' + lines[i]!.trim(); i++; continue; }
        break;
      }
      const children = items.map((it, n) => <li key={n}>{renderInline(it)}</li>);
      out.push(ordered ? <ol key={key++}>{children}</ol> : <ul key={key++}>{children}</ul>);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !/^\s*$/.test(lines[i]!) && !/^\s*(```|~~~|#{1,6}\s|[-*+]\s|\d+[.)]\s)/.test(lines[i]!)) para.push(lines[i++]!);
    if (!para.length) { para.push(line); i++; }
    out.push(<p key={key++}>{renderInline(para.join('\n'))}</p>);
  }
  return out;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let key = 0;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) { out.push(rest); break; }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const tok = m[0];
    if (m[1]) out.push(<code key={key++}>{tok.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={key++}>{renderInline(tok.slice(2, -2))}</strong>);
    else if (m[3]) out.push(<em key={key++}>{renderInline(tok.slice(1, -1))}</em>);
    else {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(tok)!;
      out.push(<span key={key++} className="md-link">{link[1]} <span className="md-url">({link[2]})</span></span>);
    }
    rest = rest.slice(m.index + tok.length);
  }
  return out;
}
