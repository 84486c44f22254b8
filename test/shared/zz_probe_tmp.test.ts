import { it } from 'vitest';
import fc from 'fast-check';
import { escapeMarkdown, parseMarkdown, markdownCodeBlock, markdownToHtml, inlineText } from '../../shared/markdown';
import type { MdBlock } from '../../shared/markdown';
const exact = (s: string) => { const t = parseMarkdown(escapeMarkdown(s)); return t.length === 1 && t[0]!.type === 'paragraph' && (t[0] as Extract<MdBlock,{type:'paragraph'}>).children.every((c) => c.type === 'text') && inlineText((t[0] as Extract<MdBlock,{type:'paragraph'}>).children) === s; };
it('probe escape', () => {
  for (const s of ['www.example.com', 'x@example.com', 'see https://example.com', '  lead', 'trail  ', 'a\nb', 'a \n  b', '\n', '\r\n', 'a\r', '\t', '#', 'a #', '- x', '1. x', 'x\n# y', 'x\n===', 'x\n---', 'x\n    y', '<!--', 'a_\nb_', '_a\n_'])
    console.log(JSON.stringify(s), JSON.stringify(escapeMarkdown(s)), exact(s));
  const alpha = 'ab *_`~[]()<>!#-+=|\\&;:/.@1 \t\n\rwhxp:'.split('');
  const tokens = ['www.', 'http://', 'https://', 'mailto:', 'xmpp:', '@x.com', '&amp;', '&#10;', '<a>', '<!--', '-->', '```', '~~~', '    ', '\n\n', '[^1]', '[a]: b', '| --- |', '\\', '\u00a0', '\u2028', '\f', '\v', '\u0085', 'é', '😀'];
  const r = fc.check(fc.property(fc.array(fc.oneof(fc.constantFrom(...alpha), fc.constantFrom(...tokens)), { maxLength: 30 }).map((a) => a.join('')), (s) => { fc.pre(s.length > 0); return exact(s); }), { numRuns: 20000 });
  console.log('fuzz tokens', r.failed ? JSON.stringify(r.counterexample) + ' -> ' + JSON.stringify(escapeMarkdown(r.counterexample![0])) + ' ' + JSON.stringify(parseMarkdown(escapeMarkdown(r.counterexample![0]))) : 'ok');
  const r2 = fc.check(fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), (s) => { fc.pre(!s.includes('\0')); return exact(s); }), { numRuns: 20000 });
  console.log('fuzz binary', r2.failed ? JSON.stringify(r2.counterexample) + ' -> ' + JSON.stringify(parseMarkdown(escapeMarkdown(r2.counterexample![0]))) : 'ok');
  const r3 = fc.check(fc.property(fc.array(fc.oneof(fc.constantFrom(...alpha), fc.constantFrom(...tokens)), { maxLength: 30 }).map((a) => a.join('')), (s) => { const t = parseMarkdown(markdownCodeBlock(s, 'sh')); return t.length === 1 && t[0]!.type === 'code' && t[0]!.value === s; }), { numRuns: 20000 });
  console.log('fuzz code', r3.failed ? JSON.stringify(r3.counterexample) + ' ' + JSON.stringify(markdownCodeBlock(r3.counterexample![0])) + JSON.stringify(parseMarkdown(markdownCodeBlock(r3.counterexample![0]))) : 'ok');
  console.log(markdownToHtml('- a\n- b\n\n1. x\n\n2. y\n\n[t](https://x.org/a) https://x.org [u](javascript:a) www.x.org a@b.co ![i](http://e/x.png)'));
}, 600_000);
