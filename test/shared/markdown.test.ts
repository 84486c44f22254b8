/**
 * Notes as Markdown: the safe tree, the HTML of the report and the Markdown written back hold
 * nothing that runs or loads, whatever a note or a capture says; user text put into Markdown reads
 * back literally; a code block cannot be closed by what it holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { escapeMarkdown, markdownCodeBlock, markdownToHtml, parseMarkdown, safeMarkdown } from '../../shared/markdown';
import type { MdBlock, MdInline } from '../../shared/markdown';

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java&#x09;script:alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '<a href="javascript:alert(1)">raw</a>',
  '![x](http://evil.example/t.png)',
  '<javascript:alert(1)>',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '<svg onload=alert(1)>',
  '[x](http://a.example "\\"><script>alert(1)</script>")',
  '![">\\<script>alert(1)</script>](http://a.example/x.png)',
  '<iframe src="http://evil.example"></iframe>',
  '<style>body{background:url(http://evil.example)}</style>',
  '[x]( javascript:alert(1) )',
  '<details open ontoggle=alert(1)>',
];

const ALLOWED_TAGS = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'strong', 'em', 'del', 'br', 'a', 'span'];

function texts(nodes: readonly (MdBlock | MdInline)[]): string {
  return nodes.map((n) => ('value' in n ? n.value : 'children' in n ? texts(n.children as (MdBlock | MdInline)[]) : 'items' in n ? n.items.map((i) => texts(i.children)).join('') : '')).join('');
}

describe('markdown', () => {
  it('reads a typical note into the tree', () => {
    const tree = parseMarkdown('# Baseline\n\n`ab -n 100000 -c 1000` gives **140 req/s**.\n\n- vmstat: cs ≈ 7,000/s\n- [x] strace\n\n```sh\nstrace -c -p 42\n```\n\n| tool | value |\n|---|---:|\n| ab | 140 |\n\nSee [the post](https://example.com/post).');
    expect(tree.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'code', 'table', 'paragraph']);
    expect(tree[1]).toEqual({ type: 'paragraph', children: [
      { type: 'inlineCode', value: 'ab -n 100000 -c 1000' }, { type: 'text', value: ' gives ' },
      { type: 'strong', children: [{ type: 'text', value: '140 req/s' }] }, { type: 'text', value: '.' },
    ] });
    expect(tree[2]).toMatchObject({ type: 'list', ordered: false, items: [{ checked: null }, { checked: true }] });
    expect(tree[3]).toEqual({ type: 'code', lang: 'sh', value: 'strace -c -p 42' });
    expect(tree[4]).toMatchObject({ type: 'table', align: [null, 'right'] });
    expect(tree[5]).toMatchObject({ children: [{ type: 'text', value: 'See ' }, { type: 'link', href: 'https://example.com/post' }, { type: 'text', value: '.' }] });
  });

  it('headings move down under the report\'s own, and stay at most h6', () => {
    expect(markdownToHtml('# a\n\n#### b', { headingOffset: 3 })).toBe('<h4>a</h4>\n<h6>b</h6>');
    expect(safeMarkdown('# a', { headingOffset: 3 })).toBe('#### a');
  });

  it.each(HOSTILE)('nothing runs or loads: %s', (note) => {
    for (const html of [markdownToHtml(note), markdownToHtml(safeMarkdown(note))]) {
      // every element is one the writer makes, with no attribute but a safe href, a class or an alignment
      for (const [, tag, attrs] of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
        expect(ALLOWED_TAGS, html).toContain(tag!.toLowerCase());
        for (const [, name, value] of attrs!.matchAll(/([\w-]+)="([^"]*)"/g)) {
          expect(['href', 'rel', 'class', 'start', 'style'], html).toContain(name);
          if (name === 'href') expect(value).toMatch(/^(https?:|mailto:)/i);
          if (name === 'style') expect(value).toMatch(/^text-align: (left|right|center)$/);
        }
      }
    }
    // the Markdown written back, read by any CommonMark renderer: no raw HTML, no unsafe link or image
    const tree = fromMarkdown(safeMarkdown(note), { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
    const walk = (n: { type: string; url?: string; children?: unknown[] }): void => {
      expect(n.type).not.toBe('html');
      expect(n.type).not.toBe('image');
      if (n.type === 'link') expect(n.url).toMatch(/^(https?:|mailto:)/i);
      for (const c of n.children ?? []) walk(c as typeof n);
    };
    walk(tree);
  });

  it('keeps the text of what it refuses, so a reader sees what was written', () => {
    expect(markdownToHtml('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(markdownToHtml('[x](javascript:alert(1))')).toBe('<p>x <span class="md-url">(javascript:alert(1))</span></p>');
    expect(markdownToHtml('![chart](http://evil.example/t.png)')).toBe('<p>[image: chart] (http://evil.example/t.png)</p>');
  });

  it('escapeMarkdown: any text reads back as exactly that text, in one paragraph', () => {
    const cases = ['*not emphasis*', '# not a heading', '- not a list', '1. not a list', '> not a quote', '[not](a link)', '<b>not html</b>',
      '`not code`', '~~not struck~~', 'a | b | c', 'www.example.com', 'http://example.com', 'x@example.com', '&amp; &lt;', '\\*', '---', '| a |'];
    for (const s of cases) {
      const tree = parseMarkdown(escapeMarkdown(s));
      expect(tree.map((b) => b.type), s).toEqual(['paragraph']);
      expect(texts(tree), s).toBe(s);
    }
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'ab *_`~[]()<>!#-+=|\\&;:/.@1 \t'.split('')) , maxLength: 40 }), (s) => {
      const line = s.replace(/\t/g, ' ');
      fc.pre(line.trim() === line && line.length > 0 && !/ {2,}/.test(line));
      const tree = parseMarkdown(escapeMarkdown(line));
      return tree.length === 1 && tree[0]!.type === 'paragraph' && texts(tree) === line;
    }), { numRuns: 500 });
  });

  it('escapeMarkdown keeps a table cell in its cell', () => {
    const tree = parseMarkdown(`| a | b |\n|---|---|\n| ${escapeMarkdown('x | y')} | z |`);
    expect(tree[0]).toMatchObject({ type: 'table' });
    const rows = (tree[0] as Extract<MdBlock, { type: 'table' }>).rows;
    expect(rows[1]!.map((c) => texts(c))).toEqual(['x | y', 'z']);
  });

  it('markdownCodeBlock: nothing inside can close the block', () => {
    for (const s of ['plain', 'a ``` b', '```\nnot the end\n```', '~~~\nx\n~~~', '````', 'trailing\n']) {
      const tree = parseMarkdown(markdownCodeBlock(s, 'sh'));
      expect(tree, s).toEqual([{ type: 'code', lang: 'sh', value: s }]);
    }
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('`', '~', 'a', '\n', ' ', '<', '>'), maxLength: 60 }), (s) => {
      const tree = parseMarkdown(markdownCodeBlock(s));
      return tree.length === 1 && tree[0]!.type === 'code' && (tree[0] as { value: string }).value === s;
    }), { numRuns: 500 });
  });

  it('a huge note is cut with a marker, not a hang', () => {
    const tree = parseMarkdown(`${'*'.repeat(50_000)}\n${'x'.repeat(2_100_000)}`);
    expect(tree.at(-2)).toMatchObject({ type: 'paragraph' });
    expect(tree.at(-1)).toMatchObject({ type: 'code' });
  });
});
