/**
 * Markdown of notes, read with the micromark/mdast family (CommonMark + GFM: tables, strikethrough,
 * task lists, autolinks) into a small closed tree of our own that holds nothing able to run or load:
 * raw HTML becomes text, links keep an address only when it is http, https or mailto (otherwise the
 * text and the address are shown as text), images are never loaded (their alt text and address are
 * shown). The app's view (renderer Markdown.tsx), the HTML report (markdownToHtml) and the Markdown
 * report (safeMarkdown, written back with mdast-util-to-markdown, which escapes text so that it reads
 * literally) all render this one tree. escapeMarkdown and markdownCodeBlock put user text into
 * Markdown the report writes itself.
 */
import type { Nodes as MdastNodes, Parents as MdastParents, PhrasingContent, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';
import { escapeHtml } from './html';

export type MdInline =
  | { type: 'text'; value: string }
  | { type: 'strong' | 'emphasis' | 'delete'; children: MdInline[] }
  | { type: 'inlineCode'; value: string }
  | { type: 'break' }
  /** href null: the address was not http(s) or mailto; `url` is then shown as text */
  | { type: 'link'; href: string | null; url: string; children: MdInline[] };

export type MdBlock =
  | { type: 'paragraph'; children: MdInline[] }
  | { type: 'heading'; depth: number; children: MdInline[] }
  | { type: 'list'; ordered: boolean; start: number | null; items: { checked: boolean | null; children: MdBlock[] }[] }
  | { type: 'blockquote'; children: MdBlock[] }
  | { type: 'code'; lang: string | null; value: string }
  | { type: 'thematicBreak' }
  /** rows[0] is the header row */
  | { type: 'table'; align: ('left' | 'right' | 'center' | null)[]; rows: MdInline[][][] };

/** Longest note read as Markdown; the rest is kept as plain text after a marker (a guard against pathological input). */
export const MAX_MARKDOWN_CHARS = 2_000_000;

const SAFE_SCHEME = /^(https?:|mailto:)/i;

/** An address a link may keep: http, https or mailto only (control characters and spaces make it unusable). */
export function safeHref(url: string): string | null {
  const u = url.trim();
  return SAFE_SCHEME.test(u) && !/[\u0000-\u001f\u007f\s]/.test(u) ? u : null;
}

function parseTree(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function plainText(n: MdastNodes): string {
  if ('value' in n && typeof n.value === 'string') return n.value;
  if ('children' in n) return (n.children as MdastNodes[]).map(plainText).join('');
  if (n.type === 'image') return n.alt ?? '';
  return '';
}

type Definitions = Map<string, string>;

function collectDefinitions(n: MdastNodes, out: Definitions): Definitions {
  if (n.type === 'definition') out.set(n.identifier, n.url);
  if ('children' in n) for (const c of n.children as MdastNodes[]) collectDefinitions(c, out);
  return out;
}

function link(url: string, children: MdInline[]): MdInline {
  return { type: 'link', href: safeHref(url), url, children };
}

function inline(n: PhrasingContent | MdastNodes, defs: Definitions): MdInline[] {
  switch (n.type) {
    case 'text': return [{ type: 'text', value: n.value }];
    case 'strong': case 'emphasis': case 'delete':
      return [{ type: n.type, children: n.children.flatMap((c) => inline(c, defs)) }];
    case 'inlineCode': return [{ type: 'inlineCode', value: n.value }];
    case 'break': return [{ type: 'break' }];
    case 'link': return [link(n.url, n.children.flatMap((c) => inline(c, defs)))];
    case 'linkReference': {
      const url = defs.get(n.identifier);
      const children = n.children.flatMap((c) => inline(c, defs));
      return url === undefined ? [{ type: 'text', value: `[${plainText(n)}]` }] : [link(url, children)];
    }
    // never loaded: what the image is, and where it would come from
    case 'image': return [{ type: 'text', value: `${n.alt ? `[image: ${n.alt}]` : '[image]'} (${n.url})` }];
    case 'imageReference': return [{ type: 'text', value: `[image: ${n.alt ?? ''}]` }];
    case 'footnoteReference': return [{ type: 'text', value: `[^${n.label ?? n.identifier}]` }];
    // raw HTML and anything else: its text, literally
    case 'html': return [{ type: 'text', value: n.value }];
    default: return [{ type: 'text', value: plainText(n) }];
  }
}

function block(n: RootContent, defs: Definitions): MdBlock[] {
  switch (n.type) {
    case 'paragraph': return [{ type: 'paragraph', children: n.children.flatMap((c) => inline(c, defs)) }];
    case 'heading': return [{ type: 'heading', depth: n.depth, children: n.children.flatMap((c) => inline(c, defs)) }];
    case 'list':
      return [{
        type: 'list', ordered: n.ordered === true, start: n.ordered ? n.start ?? 1 : null,
        items: n.children.map((item) => ({ checked: item.checked ?? null, children: item.children.flatMap((c) => block(c, defs)) })),
      }];
    case 'blockquote': return [{ type: 'blockquote', children: n.children.flatMap((c) => block(c, defs)) }];
    case 'code': return [{ type: 'code', lang: n.lang ? n.lang.replace(/[^A-Za-z0-9_+-]/g, '').slice(0, 40) || null : null, value: n.value }];
    case 'thematicBreak': return [{ type: 'thematicBreak' }];
    case 'table':
      return [{
        type: 'table', align: n.align ?? [],
        rows: n.children.map((row) => row.children.map((cell) => cell.children.flatMap((c) => inline(c, defs)))),
      }];
    case 'definition': return [];
    case 'footnoteDefinition':
      return [{ type: 'paragraph', children: [{ type: 'text', value: `[^${n.label ?? n.identifier}]: ` }] }, ...n.children.flatMap((c) => block(c, defs))];
    case 'html': return [{ type: 'paragraph', children: [{ type: 'text', value: n.value }] }];
    default: {
      const value = plainText(n as MdastNodes);
      return value ? [{ type: 'paragraph', children: [{ type: 'text', value }] }] : [];
    }
  }
}

/** A note as a safe tree. */
export function parseMarkdown(text: string): MdBlock[] {
  const src = text.replace(/\r\n?/g, '\n');
  const head = src.length > MAX_MARKDOWN_CHARS ? src.slice(0, MAX_MARKDOWN_CHARS) : src;
  const root = parseTree(head);
  const defs = collectDefinitions(root, new Map());
  const out = root.children.flatMap((c) => block(c, defs));
  if (head.length < src.length) {
    out.push({ type: 'paragraph', children: [{ type: 'text', value: `[the note is longer than ${MAX_MARKDOWN_CHARS.toLocaleString('en-US')} characters; the rest follows as plain text]` }] });
    out.push({ type: 'code', lang: null, value: src.slice(MAX_MARKDOWN_CHARS) });
  }
  return out;
}

// ---- HTML -------------------------------------------------------------------------------------

function inlineHtml(n: MdInline): string {
  switch (n.type) {
    case 'text': return escapeHtml(n.value);
    case 'strong': return `<strong>${n.children.map(inlineHtml).join('')}</strong>`;
    case 'emphasis': return `<em>${n.children.map(inlineHtml).join('')}</em>`;
    case 'delete': return `<del>${n.children.map(inlineHtml).join('')}</del>`;
    case 'inlineCode': return `<code>${escapeHtml(n.value)}</code>`;
    case 'break': return '<br>';
    case 'link': {
      const inner = n.children.map(inlineHtml).join('');
      return n.href
        ? `<a href="${escapeHtml(n.href)}" rel="noopener noreferrer nofollow">${inner}</a>`
        : `${inner} <span class="md-url">(${escapeHtml(n.url)})</span>`;
    }
  }
}

function blockHtml(n: MdBlock, offset: number): string {
  switch (n.type) {
    case 'paragraph': return `<p>${n.children.map(inlineHtml).join('')}</p>`;
    case 'heading': {
      const h = Math.min(6, n.depth + offset);
      return `<h${h}>${n.children.map(inlineHtml).join('')}</h${h}>`;
    }
    case 'list': {
      const tag = n.ordered ? 'ol' : 'ul';
      const start = n.ordered && n.start !== null && n.start !== 1 ? ` start="${n.start}"` : '';
      return `<${tag}${start}>${n.items.map((it) => `<li>${it.checked === null ? '' : it.checked ? '☑ ' : '☐ '}${it.children.map((c) => blockHtml(c, offset)).join('')}</li>`).join('')}</${tag}>`;
    }
    case 'blockquote': return `<blockquote>${n.children.map((c) => blockHtml(c, offset)).join('')}</blockquote>`;
    case 'code': return `<pre><code${n.lang ? ` class="language-${escapeHtml(n.lang)}"` : ''}>${escapeHtml(n.value)}</code></pre>`;
    case 'thematicBreak': return '<hr>';
    case 'table': {
      const align = (i: number) => (n.align[i] ? ` style="text-align: ${n.align[i]}"` : '');
      const [head, ...body] = n.rows;
      return `<table><thead><tr>${(head ?? []).map((c, i) => `<th${align(i)}>${c.map(inlineHtml).join('')}</th>`).join('')}</tr></thead>`
        + `<tbody>${body.map((r) => `<tr>${r.map((c, i) => `<td${align(i)}>${c.map(inlineHtml).join('')}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
    }
  }
}

/** A note as an HTML fragment; its headings sit `headingOffset` levels down (a note's # under the report's own headings). */
export function markdownToHtml(text: string, opts: { headingOffset?: number } = {}): string {
  return parseMarkdown(text).map((b) => blockHtml(b, opts.headingOffset ?? 0)).join('\n');
}

// ---- Markdown ---------------------------------------------------------------------------------

function toMdastInline(n: MdInline): PhrasingContent[] {
  switch (n.type) {
    case 'text': return [{ type: 'text', value: n.value }];
    case 'strong': case 'emphasis': case 'delete': return [{ type: n.type, children: n.children.flatMap(toMdastInline) }];
    case 'inlineCode': return [{ type: 'inlineCode', value: n.value }];
    case 'break': return [{ type: 'break' }];
    case 'link':
      return n.href
        ? [{ type: 'link', url: n.href, children: n.children.flatMap(toMdastInline) }]
        : [...n.children.flatMap(toMdastInline), { type: 'text', value: ` (${n.url})` }];
  }
}

function toMdastBlock(n: MdBlock, offset: number): RootContent {
  switch (n.type) {
    case 'paragraph': return { type: 'paragraph', children: n.children.flatMap(toMdastInline) };
    case 'heading': return { type: 'heading', depth: Math.min(6, n.depth + offset) as 1 | 2 | 3 | 4 | 5 | 6, children: n.children.flatMap(toMdastInline) };
    case 'list':
      return {
        type: 'list', ordered: n.ordered, ...(n.start !== null ? { start: n.start } : {}), spread: false,
        children: n.items.map((it) => ({
          type: 'listItem', spread: false, checked: it.checked,
          children: it.children.map((c) => toMdastBlock(c, offset)) as Extract<RootContent, { type: 'paragraph' }>[],
        })),
      };
    case 'blockquote': return { type: 'blockquote', children: n.children.map((c) => toMdastBlock(c, offset)) as Extract<RootContent, { type: 'paragraph' }>[] };
    case 'code': return { type: 'code', lang: n.lang, value: n.value };
    case 'thematicBreak': return { type: 'thematicBreak' };
    case 'table':
      return {
        type: 'table', align: n.align,
        children: n.rows.map((r) => ({ type: 'tableRow', children: r.map((c) => ({ type: 'tableCell', children: c.flatMap(toMdastInline) })) })),
      };
  }
}

function serialize(root: Root): string {
  return toMarkdown(root, { extensions: [gfmToMarkdown()], bullet: '-', emphasis: '*', strong: '*', fence: '`', rule: '-' });
}

/** A note as Markdown again, rebuilt from the safe tree: formatting kept, nothing that could run or load. */
export function safeMarkdown(text: string, opts: { headingOffset?: number } = {}): string {
  const blocks = parseMarkdown(text);
  if (!blocks.length) return '';
  return serialize({ type: 'root', children: blocks.map((b) => toMdastBlock(b, opts.headingOffset ?? 0)) as MdastParents['children'] as Root['children'] }).trimEnd();
}

/** User text put inline into Markdown, read back literally: no emphasis, link, HTML, heading, list or table cell break. Newlines become spaces. */
export function escapeMarkdown(text: string): string {
  const line = text.replace(/\r\n?|\n/g, ' ');
  if (!line) return '';
  const out = serialize({ type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: line }] }] }).replace(/\n$/, '');
  // a "|" would end a table cell: escaped everywhere (\| reads as | in any paragraph too)
  return out.replace(/(\\*)\|/g, (m, slashes: string) => (slashes.length % 2 ? m : `${slashes}\\|`));
}

/** Text as a fenced code block that nothing inside can close: the fence is longer than any run of backticks in it. */
export function markdownCodeBlock(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang.replace(/[^A-Za-z0-9_+-]/g, '')}\n${text}\n${fence}`;
}
