import { useMemo } from 'react';
import type { ReactNode } from 'react';
import { parseMarkdown, showsAddress } from '../../../../shared/markdown';
import type { MdBlock, MdInline, MdLink } from '../../../../shared/markdown';
import './Markdown.css';

/**
 * A note's Markdown as React elements (never HTML strings), from the one safe tree of
 * shared/markdown.ts: CommonMark and GFM (tables, task lists, strikethrough). Raw HTML shows as the
 * text it is; images show what they are and where from, and are never loaded.
 */
export function Markdown({ text }: { text: string }) {
  const tree = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{tree.map((b, i) => <Block key={i} node={b} />)}</div>;
}

function Block({ node: n, tight = false }: { node: MdBlock; tight?: boolean }): ReactNode {
  switch (n.type) {
    // a tight list's paragraphs are its items' text, without paragraph spacing
    case 'paragraph': return tight ? <Inlines nodes={n.children} /> : <p><Inlines nodes={n.children} /></p>;
    // a note's headings are emphasis inside the experiment, not page structure
    case 'heading': return <p className={`md-heading md-h${n.depth}`}><Inlines nodes={n.children} /></p>;
    case 'list': {
      const items = n.items.map((it, i) => (
        <li key={i} className={it.checked === null ? undefined : 'md-task'}>
          {it.checked !== null && <input type="checkbox" checked={it.checked} readOnly disabled aria-label={it.checked ? 'done' : 'not done'} />}
          {it.children.map((c, j) => <Block key={j} node={c} tight={!n.spread} />)}
        </li>
      ));
      return n.ordered ? <ol start={n.start ?? undefined}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'blockquote': return <blockquote>{n.children.map((c, i) => <Block key={i} node={c} />)}</blockquote>;
    case 'code': return <pre><code>{n.value}</code></pre>;
    case 'thematicBreak': return <hr />;
    case 'table': {
      const [head, ...body] = n.rows;
      const align = (i: number) => n.align[i] ?? undefined;
      return (
        <div className="md-table">
          <table>
            <thead><tr>{(head ?? []).map((c, i) => <th key={i} style={{ textAlign: align(i) }}><Inlines nodes={c} /></th>)}</tr></thead>
            <tbody>{body.map((r, i) => <tr key={i}>{r.map((c, j) => <td key={j} style={{ textAlign: align(j) }}><Inlines nodes={c} /></td>)}</tr>)}</tbody>
          </table>
        </div>
      );
    }
  }
}

function Inlines({ nodes }: { nodes: MdInline[] }) {
  return <>{nodes.map((n, i) => <Inline key={i} node={n} />)}</>;
}

function Inline({ node: n }: { node: MdInline }): ReactNode {
  switch (n.type) {
    case 'text': return n.value;
    case 'strong': return <strong><Inlines nodes={n.children} /></strong>;
    case 'emphasis': return <em><Inlines nodes={n.children} /></em>;
    case 'delete': return <del><Inlines nodes={n.children} /></del>;
    case 'inlineCode': return <code>{n.value}</code>;
    case 'break': return <br />;
    case 'link': return <Link node={n} />;
  }
}

/**
 * A click never navigates the window: target=_blank goes to the main process's window-open
 * handler (electron/main/security.ts decideWindowOpen), which opens no window and hands only
 * allow-listed https addresses to the system browser; in browser mode it is an ordinary new tab.
 * Anything else (an address that is not http(s)/mailto) is text. The address is shown as well
 * when the text does not say it (showsAddress), so one not on the allow-list can still be copied.
 */
function Link({ node: n }: { node: MdLink }) {
  const address = showsAddress(n) ? <>{' '}<span className="md-url">({n.url})</span></> : null;
  if (n.href === null) return <><span className="md-link"><Inlines nodes={n.children} /></span>{address}</>;
  return <><a href={n.href} target="_blank" rel="noopener noreferrer" title={n.href}><Inlines nodes={n.children} /></a>{address}</>;
}
