import { describe, expect, it } from 'vitest';
import { sniffEncoding, Utf16Decoder } from '../../shared/capture/encoding';
import { parseText } from '../../shared/capture/registry';
import { readdirSync, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import type { ParsedCapture } from '../../shared/capture/types';
import { FIX, read } from './sysstat-helpers';

/** what a parse read (metrics, series, facts, settings, tables) */
const essence = (c: ParsedCapture): string => JSON.stringify([c.kind, c.metrics, c.series, c.facts, c.settings, c.tables, c.warnings]);

const le = (s: string): Buffer => Buffer.from(s, 'utf16le');
const be = (s: string): Buffer => le(s).swap16();

describe('capture encodings', () => {
  it('tells UTF-8 and UTF-16 from the first bytes, BOM or not', () => {
    const text = 'Linux 6.1.0 (host) \t11/29/26 \t_x86_64_\t(2 CPU)\n';
    expect(sniffEncoding(Buffer.from(text))).toEqual({ encoding: 'utf-8', bom: 0 });
    expect(sniffEncoding(Buffer.from('\uFEFF' + text))).toEqual({ encoding: 'utf-8', bom: 3 });
    expect(sniffEncoding(le('\uFEFF' + text))).toEqual({ encoding: 'utf-16le', bom: 2 });
    expect(sniffEncoding(be('\uFEFF' + text))).toEqual({ encoding: 'utf-16be', bom: 2 });
    expect(sniffEncoding(le(text))).toEqual({ encoding: 'utf-16le', bom: 0 });
    expect(sniffEncoding(be(text))).toEqual({ encoding: 'utf-16be', bom: 0 });
    // a few stray NULs in UTF-8 text are not UTF-16
    expect(sniffEncoding(Buffer.from(text + '\0\0\0' + text)).encoding).toBe('utf-8');
    expect(sniffEncoding(Buffer.from('ab')).encoding).toBe('utf-8');
  });

  it('decodes UTF-16 in pieces cut anywhere, surrogate pairs kept, halves refused', () => {
    const text = '\uFEFFprocs µs 😀 done\r\n';
    for (const [bytes, little] of [[le(text), true], [be(text), false]] as const) {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const d = new Utf16Decoder(little);
        expect(d.write(bytes.subarray(0, cut)) + d.write(bytes.subarray(cut)) + d.end(), `cut at ${cut}`).toBe(text.slice(1));
      }
    }
    const d = new Utf16Decoder(true);
    // a lone high surrogate, a lone low one, and an odd last byte
    expect(d.write(Buffer.from([0x3d, 0xd8, 0x41, 0x00, 0x00, 0xde, 0x42])) + d.end()).toBe('\uFFFDA\uFFFD\uFFFD');
  });

  it('a UTF-16 capture decoded by Utf16Decoder parses as the UTF-8 one', () => {
    const text = read('iostat', 'x-1-3.txt');
    const d = new Utf16Decoder(true);
    const u = parseText(d.write(le('\uFEFF' + text.replace(/\n/g, '\r\n'))) + d.end());
    const want = parseText(text);
    expect(u.kind).toBe('iostat');
    expect(u.series.map((s) => s.values)).toEqual(want.series.map((s) => s.values));
    expect(u.warnings).toEqual(want.warnings);
  });

  it('CaptureStream recognizes UTF-16 read as UTF-8, reads it, and says so', () => {
    const text = read('iostat', 'x-1-3.txt');
    const want = parseText(text);
    for (const [bytes, order] of [[le('\uFEFF' + text.replace(/\n/g, '\r\n')), 'little-endian'], [be(text.replace(/\n/g, '\r\n')), 'big-endian']] as const) {
      const d = new StringDecoder('utf8');
      const c = parseText(d.write(bytes) + d.end());
      expect(c.kind).toBe('iostat');
      expect(c.series.map((s) => [s.name, s.values, s.lines])).toEqual(want.series.map((s) => [s.name, s.values, s.lines]));
      expect(c.warnings[0]).toMatch(new RegExp(`looks like UTF-16 \\(${order}.*save it as UTF-8`));
    }
  });

  it('a UTF-8 BOM (Notepad) is not part of the first line: every capture reads the same with one', () => {
    // before: uname -a, lsb_release -a and hey's CSV were kept as plain text, iostat warned about its banner …
    let n = 0;
    for (const kind of readdirSync(FIX)) {
      for (const f of readdirSync(path.join(FIX, kind)).filter((x) => !/\.(cmd\.txt|jc\.json|md)$/.test(x))) {
        const text = readFileSync(path.join(FIX, kind, f), 'utf8');
        expect(essence(parseText('\uFEFF' + text)), `${kind}/${f}`).toBe(essence(parseText(text)));
        n++;
      }
    }
    expect(n).toBeGreaterThan(100);
  });
});
