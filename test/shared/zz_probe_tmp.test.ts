import { it } from 'vitest';
import fc from 'fast-check';
import { escapeMarkdown, parseMarkdown, inlineText } from '../../shared/markdown';
import type { MdBlock } from '../../shared/markdown';
const exact = (s: string) => { const t = parseMarkdown(escapeMarkdown(s)); return t.length === 1 && t[0]!.type === 'paragraph' && (t[0] as Extract<MdBlock,{type:'paragraph'}>).children.every((c) => c.type === 'text') && inlineText((t[0] as Extract<MdBlock,{type:'paragraph'}>).children) === s; };
it('probe', () => {
  const alpha = 'aW *_`~[]()<>!#-+=|\\&;:/.@1 \t\n\rwhHxp:sS'.split('');
  const tokens = ['www.', 'WWW.', 'Www.', 'http://', 'HTTPS://', 'hTtP://', 'mailto:', 'xmpp:', '@x.com', '@X.COM', '&amp;', '&#10;', '<a>', '<!--', '-->', '```', '~~~', '    ', '\n\n', '[^1]', '[a]: b', '| --- |', '\\', '\u00a0', '\u2028', '\f', '\v', 'é', '😀', 'x@y.z', '1.', '2)', '***', '___', '~~', '<http://a>', '<a@b.c>', '](x)', '![', '&', '#', '> '];
  for (const seed of [1, 2, 3]) {
    const r = fc.check(fc.property(fc.array(fc.oneof(fc.constantFrom(...alpha), fc.constantFrom(...tokens)), { maxLength: 40 }).map((a) => a.join('')), (s) => { fc.pre(s.length > 0); return exact(s); }), { numRuns: 40000, seed });
    console.log('fuzz tokens', r.failed ? JSON.stringify(r.counterexample) + ' -> ' + JSON.stringify(escapeMarkdown(r.counterexample![0])) + ' ' + JSON.stringify(parseMarkdown(escapeMarkdown(r.counterexample![0]))) : 'ok');
  }
  const filler = 'Plain prose of a note with no markup at all, just words and numbers 1234.\n';
  const runs = (one: string) => { let s = ''; for (let i = 0; i < 10; i++) s += one + '\n\n'; while (s.length < 190_000) s += filler; return s; };
  const cases: Record<string, string> = {
    nestedEm: runs('*'.repeat(495) + 'a' + '*'.repeat(495)),
    nestedUnd: runs('_'.repeat(495) + 'a' + '_'.repeat(495)),
    altEm: runs('*_'.repeat(245) + 'a' + '_*'.repeat(245)),
    brlinks: runs('[a]('.repeat(495)),
    brackets: runs('['.repeat(990)),
    linkInLink: runs('[a'.repeat(490) + '](b)'.repeat(10)),
    inlineComment: runs('a <!--'.repeat(990)),
    inlinePI: runs('a <?'.repeat(990)),
    titles: runs('[a](b "'.repeat(990)),
    footnotes: runs('[^a]'.repeat(495)),
    emRuns: runs('**a'.repeat(495)),
    listNest: runs(Array.from({ length: 200 }, () => '- '.repeat(31) + 'x').join('\n')),
    quoteNest: runs(Array.from({ length: 200 }, () => '>'.repeat(32) + ' x').join('\n')),
    olNest: runs(Array.from({ length: 200 }, () => '1. '.repeat(31) + 'x').join('\n')),
  };
  for (const [k, s] of Object.entries(cases)) {
    const t = performance.now();
    let kind = '';
    try { const tree = parseMarkdown(s); kind = tree.slice(0, 2).map((b) => b.type).join(','); } catch (e) { kind = 'THROW ' + String(e).slice(0, 50); }
    console.log(k.padEnd(20), String(s.length).padStart(8), String(Math.round(performance.now() - t)).padStart(6), 'ms', kind);
  }
}, 900_000);
