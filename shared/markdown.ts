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
  /** href null: the address was not http(s) or mailto; `url` is then shown as text (see showsAddress) */
  | { type: 'link'; href: string | null; url: string; children: MdInline[] };

export type MdListItem = { checked: boolean | null; children: MdBlock[] };

export type MdBlock =
  | { type: 'paragraph'; children: MdInline[] }
  | { type: 'heading'; depth: number; children: MdInline[] }
  /** spread false: a tight list, whose items' paragraphs render without paragraph spacing */
  | { type: 'list'; ordered: boolean; start: number | null; spread: boolean; items: MdListItem[] }
  | { type: 'blockquote'; children: MdBlock[] }
  | { type: 'code'; lang: string | null; value: string }
  | { type: 'thematicBreak' }
  /** rows[0] is the header row; every row has align.length cells */
  | { type: 'table'; align: ('left' | 'right' | 'center' | null)[]; rows: MdInline[][][] };

export type MdNode = MdBlock | MdInline;
export type MdLink = Extract<MdInline, { type: 'link' }>;

/**
 * Longest part of a note read as Markdown; the rest follows as plain text after a marker. Not a
 * few MB: micromark spends a second or more per 100 kB of ordinary prose on a slow machine, and a
 * note is re-read whenever it is shown.
 */
export const MAX_MARKDOWN_CHARS = 200_000;

/*
 * micromark is superlinear on some input (measured, micromark 4 / mdast-util-from-markdown 2.1):
 * runs of unmatched emphasis or link brackets within one paragraph (16,000 `*` around a letter:
 * tens of seconds), inline `<!--` / `<?` left open, and containers nested thousands deep on one
 * line (`- - - - …`, `>>>>…`, which also overflow the stack). Each costs something per markup
 * character of the paragraph it is in, so the budget is counted per run of non-blank lines
 * (paragraphs never cross a blank line) and over the note; a note over it is shown as plain text.
 * Lines inside fenced code are not counted (pasted logs are full of brackets) — see scanBudget for
 * why that is safe.
 */
const MAX_MARKUP_PER_RUN = 1_000;
const MAX_MARKUP_TOTAL = 10_000;
const MAX_LINE_NESTING = 32;
/** Deeper nesting (a note can still hold 250 levels of `**`) is kept as its text: bounded recursion here and in the renderers. */
const MAX_TREE_DEPTH = 40;

const SAFE_SCHEME = /^(https?:|mailto:)/i;

/** An address a link may keep: http, https or mailto only (control characters and spaces make it unusable). */
export function safeHref(url: string): string | null {
  const u = url.trim();
  return SAFE_SCHEME.test(u) && !/[\u0000-\u001f\u007f\s]/.test(u) ? u : null;
}

/**
 * Whether the renderers print a link's address after its text: always when the link does not
 * work, and when the text says something else than the address — in the app only allow-listed
 * hosts open at all, a printed report has no links, and text that looks like one address must not
 * hide another.
 */
export function showsAddress(link: MdLink): boolean {
  if (!link.url) return false;
  if (link.href === null) return true;
  const text = inlineText(link.children);
  return ![text, `http://${text}`, `https://${text}`, `mailto:${text}`].includes(link.url);
}

/** The text of inline nodes, as a reader sees it. */
export function inlineText(nodes: readonly MdInline[]): string {
  return nodes.map((n) => ('value' in n ? n.value : 'children' in n ? inlineText(n.children) : n.type === 'break' ? '\n' : '')).join('');
}

// ---- reading ----------------------------------------------------------------------------------

/*
 * GFM autolink literals are found twice: by micromark in the source, and again by a transform of
 * mdast-util-gfm over the decoded text. The second one sees `www\.example.com` as
 * `www.example.com`, so no escape could keep user text from turning into a link (escapeMarkdown
 * relies on that); micromark's own pass, which respects escapes, finds literals in notes.
 */
const GFM_FROM_MARKDOWN = gfmFromMarkdown().map(({ transforms: _decodedTextAutolinks, ...extension }) => extension);

function parseTree(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: GFM_FROM_MARKDOWN });
}

/** Text of an mdast subtree without recursion (the subtree may be deeper than the stack allows). */
function plainText(root: MdastNodes): string {
  let out = '';
  const stack: MdastNodes[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if ('value' in n && typeof n.value === 'string') out += n.value;
    else if (n.type === 'image' || n.type === 'imageReference') out += n.alt ?? '';
    else if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

type Definitions = Map<string, string>;

function collectDefinitions(root: Root): Definitions {
  const defs: Definitions = new Map();
  const stack: MdastNodes[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    // the first definition of a label wins (CommonMark)
    if (n.type === 'definition' && !defs.has(n.identifier)) defs.set(n.identifier, n.url);
    if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return defs;
}

const text = (value: string): MdInline => ({ type: 'text', value });
const paragraph = (value: string): MdBlock => ({ type: 'paragraph', children: [text(value)] });

/** Adjacent text (raw HTML next to text, say) is one node, as a reader sees it. */
function pushInline(out: MdInline[], n: MdInline): void {
  const last = out[out.length - 1];
  if (n.type === 'text' && last?.type === 'text') out[out.length - 1] = text(last.value + n.value);
  else out.push(n);
}

function inlines(nodes: readonly PhrasingContent[], defs: Definitions, depth: number): MdInline[] {
  const out: MdInline[] = [];
  for (const n of nodes) for (const m of inline(n, defs, depth)) pushInline(out, m);
  return out;
}

function link(url: string, children: MdInline[]): MdInline {
  return { type: 'link', href: safeHref(url), url, children };
}

// never loaded: what the image is, and where it would come from
function image(alt: string | null | undefined, url: string | undefined): MdInline {
  return text(`${alt ? `[image: ${alt}]` : '[image]'}${url ? ` (${url})` : ''}`);
}

function inline(n: PhrasingContent, defs: Definitions, depth: number): MdInline[] {
  if (depth > MAX_TREE_DEPTH) return [text(plainText(n))];
  const children = (c: PhrasingContent[]) => inlines(c, defs, depth + 1);
  switch (n.type) {
    case 'text': return [text(n.value)];
    case 'strong': case 'emphasis': case 'delete': return [{ type: n.type, children: children(n.children) }];
    case 'inlineCode': return [{ type: 'inlineCode', value: n.value }];
    case 'break': return [{ type: 'break' }];
    case 'link': return [link(n.url, children(n.children))];
    case 'linkReference': {
      const url = defs.get(n.identifier);
      return url === undefined ? [text(`[${plainText(n)}]`)] : [link(url, children(n.children))];
    }
    case 'image': return [image(n.alt, n.url)];
    case 'imageReference': return [image(n.alt, defs.get(n.identifier))];
    case 'footnoteReference': return [text(`[^${n.label ?? n.identifier}]`)];
    // raw HTML and anything else: its text, literally
    case 'html': return [text(n.value)];
    default: return [text(plainText(n))];
  }
}

/** A code block's language as ASCII letters, digits and `_+-` (it ends up in an info string and, narrowed further, a class name). */
function codeLang(lang: string | null | undefined): string | null {
  return lang ? lang.replace(/[^A-Za-z0-9_+-]/g, '').slice(0, 40) || null : null;
}

function blocks(nodes: readonly RootContent[], defs: Definitions, depth: number): MdBlock[] {
  return nodes.flatMap((n) => block(n, defs, depth));
}

function block(n: RootContent, defs: Definitions, depth: number): MdBlock[] {
  if (depth > MAX_TREE_DEPTH) {
    const value = plainText(n);
    return value ? [paragraph(value)] : [];
  }
  const phrasing = (c: PhrasingContent[]) => inlines(c, defs, depth + 1);
  switch (n.type) {
    case 'paragraph': return [{ type: 'paragraph', children: phrasing(n.children) }];
    case 'heading': return [{ type: 'heading', depth: n.depth, children: phrasing(n.children) }];
    case 'list':
      return [{
        type: 'list', ordered: n.ordered === true, start: n.ordered ? n.start ?? 1 : null,
        // loose as CommonMark (and mdast-util-to-hast) has it: blank lines between items or in one
        spread: n.spread === true || n.children.some((item) => item.spread === true),
        items: n.children.map((item) => ({ checked: item.checked ?? null, children: blocks(item.children, defs, depth + 1) })),
      }];
    case 'blockquote': return [{ type: 'blockquote', children: blocks(n.children, defs, depth + 1) }];
    case 'code': return [{ type: 'code', lang: codeLang(n.lang), value: n.value }];
    case 'thematicBreak': return [{ type: 'thematicBreak' }];
    case 'table': {
      // GFM: the header row sets the columns; a shorter row gets empty cells, a longer one loses the excess
      const align = n.align ?? [];
      const columns = Math.max(align.length, n.children[0]?.children.length ?? 0);
      return [{
        type: 'table', align: Array.from({ length: columns }, (_, i) => align[i] ?? null),
        rows: n.children.map((row) => Array.from({ length: columns }, (_, i) => phrasing(row.children[i]?.children ?? []))),
      }];
    }
    case 'definition': return [];
    case 'footnoteDefinition':
      return [paragraph(`[^${n.label ?? n.identifier}]: `), ...blocks(n.children, defs, depth + 1)];
    case 'html': return [paragraph(n.value)];
    default: {
      const value = plainText(n);
      return value ? [paragraph(value)] : [];
    }
  }
}

/**
 * Whether micromark can read `src` in bounded time: null if so, else why not. Counts the markup
 * that costs micromark superlinear time — `*`, `[`, `]`, `<`, and `_` not inside a word — per run of
 * non-blank lines and over the note, and the container markers (`>`, list markers, with their
 * indentation) at each line's start.
 *
 * Lines of a fenced code block are not counted, which is only safe if micromark reads them as code
 * too; so this follows only the fences it can be sure of. A fence opened at column 0 outside raw
 * HTML is one (a line at column 0 ends every container and interrupts a paragraph, and nothing
 * but its closing line ends it). Raw HTML is assumed from any line starting with `<`, and ends no
 * earlier than micromark's would. Anything that could open a fence this does not follow — an
 * indented one, which may sit in a list item, or one inside what may be raw HTML — means it
 * no longer knows where micromark's fences are: from there on every line counts.
 */
function scanBudget(src: string): string | null {
  let fence: { char: string; length: number } | null = null;
  let html: { end: RegExp | null } | null = null;
  let trusted = true;
  let run = 0;
  let total = 0;
  for (const line of src.split(/\r\n|\r|\n/)) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (/^[ \t]*$/.test(line)) {
      run = 0;
      if (html && html.end === null) html = null;
      continue;
    }
    if (trusted) {
      const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
      const opens = open !== null && !(open[2]![0] === '`' && open[3]!.includes('`'));
      if (opens && open[1] === '' && !html) {
        fence = { char: open[2]![0]!, length: open[2]!.length };
        run = 0;
        continue;
      }
      if (opens || (html && /^[ \t]*(`{3,}|~{3,})/.test(line))) trusted = false;
      else if (html) {
        if (html.end?.test(line)) html.end = null; // ends at the next blank line, never before micromark's
      } else if (/^[ \t]*</.test(line)) html = { end: htmlEnd(line.trimStart()) };
    }
    if (lineNesting(line) > MAX_LINE_NESTING) return 'nesting';
    const markup = countMarkup(line);
    run += markup;
    total += markup;
    if (run > MAX_MARKUP_PER_RUN || total > MAX_MARKUP_TOTAL) return 'markup';
  }
  return null;
}

/** Where raw HTML that may be of CommonMark's kinds 1-5 ends (those run across blank lines); null: at a blank line. */
function htmlEnd(line: string): RegExp | null {
  const s = line.toLowerCase();
  if (s.startsWith('<!--')) return /-->/;
  if (s.startsWith('<![cdata[')) return /]]>/;
  if (s.startsWith('<!')) return />/;
  if (s.startsWith('<?')) return /\?>/;
  if (/^<(script|pre|style|textarea)/.test(s)) return /<\/(script|pre|style|textarea)>/i;
  return null;
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9]/.test(c);
}

function countMarkup(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '*' || c === '[' || c === ']' || c === '<') n++;
    // `_` inside a word can neither open nor close emphasis
    else if (c === '_' && !(isWordChar(line[i - 1]) && isWordChar(line[i + 1]))) n++;
  }
  return n;
}

/** Containers a line opens at its start: `>` and list markers, and the indentation of nested list items. */
function lineNesting(line: string): number {
  let markers = 0;
  let indent = 0;
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') indent += line[i++] === '\t' ? 4 : 1;
    const c = line[i];
    const after = (j: number) => j >= line.length || line[j] === ' ' || line[j] === '\t';
    if (c === '>') { markers++; i++; continue; }
    if ((c === '*' || c === '+' || c === '-') && after(i + 1)) { markers++; i++; continue; }
    const ordered = /^\d{1,9}[.)]/.exec(line.slice(i, i + 11));
    if (ordered && after(i + ordered[0].length)) { markers++; i += ordered[0].length; continue; }
    break;
  }
  return markers ? markers + Math.floor(indent / 2) : 0;
}

/** Where to cut a long note: at a line end, never inside a surrogate pair. */
function cutAt(src: string, max: number): number {
  const nl = src.lastIndexOf('\n', max - 1);
  if (nl >= max / 2) return nl + 1;
  const code = src.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

const notice = (value: string): MdBlock => ({ type: 'paragraph', children: [{ type: 'emphasis', children: [text(value)] }] });

/**
 * A note as a safe tree, in bounded time: a note longer than MAX_MARKDOWN_CHARS is read up to
 * there and the rest follows as plain text; one with more markup than micromark reads in bounded
 * time is plain text.
 */
export function parseMarkdown(text: string): MdBlock[] {
  const cut = text.length > MAX_MARKDOWN_CHARS ? cutAt(text, MAX_MARKDOWN_CHARS) : text.length;
  const head = text.slice(0, cut);
  const out = readBounded(head);
  if (cut < text.length) {
    out.push(notice(`[the note is longer than ${MAX_MARKDOWN_CHARS.toLocaleString('en-US')} characters; the rest follows as plain text]`));
    out.push({ type: 'code', lang: null, value: text.slice(cut) });
  }
  return out;
}

function readBounded(src: string): MdBlock[] {
  const plain = (): MdBlock[] => [
    notice('[this note has more Markdown markup or nesting than is formatted; it is shown as plain text]'),
    { type: 'code', lang: null, value: src },
  ];
  if (scanBudget(src) !== null) return plain();
  try {
    const root = parseTree(src);
    return blocks(root.children, collectDefinitions(root), 0);
  } catch {
    // a stack overflow on nesting the budget let through: the text is still shown, whole
    return plain();
  }
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
      const shown = n.href ? `<a href="${escapeHtml(n.href)}" rel="noopener noreferrer nofollow">${inner}</a>` : inner;
      return showsAddress(n) ? `${shown} <span class="md-url">(${escapeHtml(n.url)})</span>` : shown;
    }
  }
}

function blockHtml(n: MdBlock, offset: number, tight = false): string {
  switch (n.type) {
    // a tight list's paragraphs are its items' text (CommonMark's HTML)
    case 'paragraph': return tight ? n.children.map(inlineHtml).join('') : `<p>${n.children.map(inlineHtml).join('')}</p>`;
    case 'heading': {
      const h = Math.max(1, Math.min(6, n.depth + offset));
      return `<h${h}>${n.children.map(inlineHtml).join('')}</h${h}>`;
    }
    case 'list': {
      const tag = n.ordered ? 'ol' : 'ul';
      const start = n.ordered && n.start !== null && n.start !== 1 ? ` start="${n.start}"` : '';
      const item = (it: MdListItem) => `<li>${it.checked === null ? '' : it.checked ? '☑ ' : '☐ '}${it.children.map((c) => blockHtml(c, offset, !n.spread)).join('')}</li>`;
      return `<${tag}${start}>${n.items.map(item).join('')}</${tag}>`;
    }
    case 'blockquote': return `<blockquote>${n.children.map((c) => blockHtml(c, offset)).join('')}</blockquote>`;
    case 'code': {
      // a class name: [a-z0-9-] only
      const lang = n.lang?.toLowerCase().replace(/[^a-z0-9-]/g, '');
      return `<pre><code${lang ? ` class="language-${lang}"` : ''}>${escapeHtml(n.value)}</code></pre>`;
    }
    case 'thematicBreak': return '<hr>';
    case 'table': {
      const align = (i: number) => (n.align[i] ? ` style="text-align: ${n.align[i]}"` : '');
      const [head, ...body] = n.rows;
      return `<table><thead><tr>${(head ?? []).map((c, i) => `<th${align(i)}>${c.map(inlineHtml).join('')}</th>`).join('')}</tr></thead>`
        + `<tbody>${body.map((r) => `<tr>${r.map((c, i) => `<td${align(i)}>${c.map(inlineHtml).join('')}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
    }
  }
}

/** A note as an HTML fragment; its headings sit `headingOffset` levels down (a note's # under the report's own headings), h6 at most. */
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
        : [...n.children.flatMap(toMdastInline), ...(n.url ? [{ type: 'text' as const, value: ` (${n.url})` }] : [])];
  }
}

function toMdastBlock(n: MdBlock, offset: number): RootContent {
  switch (n.type) {
    case 'paragraph': return { type: 'paragraph', children: n.children.flatMap(toMdastInline) };
    case 'heading': return { type: 'heading', depth: Math.max(1, Math.min(6, n.depth + offset)) as 1 | 2 | 3 | 4 | 5 | 6, children: n.children.flatMap(toMdastInline) };
    case 'list':
      return {
        type: 'list', ordered: n.ordered, ...(n.start !== null ? { start: n.start } : {}), spread: n.spread,
        children: n.items.map((it) => ({
          type: 'listItem', spread: n.spread, checked: it.checked,
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
  const tree = parseMarkdown(text);
  if (!tree.length) return '';
  return serialize({ type: 'root', children: tree.map((b) => toMdastBlock(b, opts.headingOffset ?? 0)) as MdastParents['children'] as Root['children'] }).trimEnd();
}

const LINE_ENDING_REF: Record<string, string> = { '\r\n': '&#13;&#10;', '\r': '&#13;', '\n': '&#10;' };

/**
 * User text put inline into Markdown (a heading, a list item, a table cell), read back as exactly
 * that text in one paragraph: no emphasis, link, autolink, HTML, heading, list, quote or table cell
 * break. mdast-util-to-markdown does the escaping; line endings become character references, so
 * the text stays on its line and keeps them. U+0000 becomes U+FFFD, as every CommonMark reader does.
 */
export function escapeMarkdown(text: string): string {
  if (!text) return '';
  const value = text.replace(/\0/g, '\uFFFD');
  const out = serialize({ type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value }] }] }).replace(/\n$/, '');
  return out
    // a "|" would end a table cell: escaped everywhere (\| reads as | in any paragraph too)
    .replace(/(\\*)\|/g, (m, slashes: string) => (slashes.length % 2 ? m : `${slashes}\\|`))
    // autolink literals: mdast-util-to-markdown misses an `@` right after an escaped one
    // (`a@b@c.d`), and micromark links `www.` and `HTTP://` in any case and `www.` before any
    // character; an escaped "@", "." or ":" breaks the literal
    .replace(/(\\*)@/g, (m, slashes: string) => (slashes.length % 2 ? m : `${slashes}\\@`))
    .replace(/(www)\./gi, '$1\\.')
    .replace(/(https?):(?=\/\/)/gi, '$1\\:')
    .replace(/\r\n|\r|\n/g, (m) => LINE_ENDING_REF[m]!);
}

/**
 * Text as a fenced code block that reads back as exactly that text (U+0000 aside, as above):
 * nothing inside can close it, as the fence is longer than any run of backticks in it.
 */
export function markdownCodeBlock(text: string, lang = ''): string {
  const value = text.replace(/\0/g, '\uFFFD');
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  // a last "\r" and the "\n" before the closing fence would read as one line ending
  const end = value.endsWith('\r') ? '\r\n' : '\n';
  return `${fence}${codeLang(lang) ?? ''}\n${value}${end}${fence}`;
}
