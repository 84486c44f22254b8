/**
 * captureDecoder: capture bytes to text the same way for every reader, whatever the encoding —
 * UTF-8 with or without a BOM, UTF-16 as Windows writes it (iconv makes the files here) — and
 * whatever pieces the bytes arrive in. A UTF-16 capture stored in a notebook parses like its
 * UTF-8 twin.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureDecoder, type AsciiText } from '../../shared/capture/decode';
import { asciiText } from '../../electron/services/asciiText';
import { Backend } from '../../electron/services/backend';
import type { ImportResult } from '../../shared/model';
import { buildBundles, useTempDir } from '../helpers';

const VMSTAT = path.join(__dirname, '..', 'fixtures', 'captures', 'vmstat', 'D.txt');
const utf8 = readFileSync(VMSTAT);
const text = utf8.toString('utf8');
const iconv = (to: string, input: Buffer): Buffer => execFileSync('iconv', ['-f', 'UTF-8', '-t', to], { input });

function decodeInPieces(bytes: Buffer, sizes: number[], ascii: AsciiText | null = null): string {
  const d = captureDecoder(ascii);
  let out = '';
  let o = 0;
  for (let i = 0; o < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length]!);
    out += d.write(bytes.subarray(o, o + n));
    o += n;
  }
  return out + d.end();
}

describe('captureDecoder', () => {
  it('reads UTF-16 as Windows writes it (LE with a BOM), and either byte order without one, in any pieces', () => {
    const le = iconv('UTF-16', Buffer.from(text)); // glibc iconv writes a BOM and little-endian here
    expect([le[0], le[1]]).toEqual([0xff, 0xfe]);
    const be = iconv('UTF-16BE', Buffer.from(text));
    const leBare = iconv('UTF-16LE', Buffer.from(text));
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: 1, maxLength: 8 }), (sizes) => {
      for (const bytes of [le, be, leBare, utf8]) expect(decodeInPieces(bytes, sizes)).toBe(text);
    }), { numRuns: 60 });
    const d = captureDecoder();
    d.write(be);
    d.end();
    expect(d.encoding).toBe('utf-16be');
  });

  it('drops a UTF-8 BOM, and reads invalid UTF-8 as before (U+FFFD), also when it is cut between pieces', () => {
    expect(decodeInPieces(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), [5000])).toBe(text);
    const bad = Buffer.concat([Buffer.from('procs ünïcödé '), Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]), Buffer.from(' end\n')]);
    const node = new StringDecoder('utf8');
    const expected = node.write(bad) + node.end();
    for (const n of [1, 2, 3, 7, 100]) expect(decodeInPieces(bad, [n])).toBe(expected);
  });

  it('gives the same text with the ASCII fast path of the hosts, however the pieces cut multi-byte and invalid sequences', () => {
    // ASCII runs long enough for whole pieces of them, UTF-8 characters of 2-4 bytes, a BOM (first or
    // inside), invalid bytes and sequences cut short
    const part = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', ' ', '7', '\n', '\t', '.', '%'), minLength: 1, maxLength: 300 }),
      fc.constantFrom('é', 'ü', '€', '中文', '\u{1F600}', '\uFEFF', '\r\n'),
      fc.uint8Array({ minLength: 1, maxLength: 4 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    const asBytes = (parts: string[]): Buffer => Buffer.concat(parts.map((p) => (/^[\x00-\xff]*$/.test(p) && /[\x80-\xff]/.test(p) ? Buffer.from(p, 'latin1') : Buffer.from(p))));
    // (past the first 4 KiB, which are always decoded in full to tell the encoding)
    const head = Buffer.from('x'.repeat(4095) + '\n');
    fc.assert(fc.property(fc.array(part, { maxLength: 80 }), fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (parts, sizes, bom) => {
      const bytes = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), head, asBytes(parts)]);
      expect(decodeInPieces(bytes, [4096, ...sizes], asciiText)).toBe(decodeInPieces(bytes, [4096, ...sizes]));
    }), { numRuns: 500 });
    // a piece that ends inside a character, then a piece of ASCII: the decoder's U+FFFD comes first
    const cut = Buffer.concat([head, Buffer.from('ab'), Buffer.from([0xc3]), Buffer.from('cd')]);
    expect(decodeInPieces(cut, [4096, 3, 2], asciiText)).toBe(head.toString() + 'ab\ufffdcd');
    // a long ASCII log after a first line with a non-ASCII character: pieces past it take the fast path
    const log = Buffer.concat([Buffer.from('Linux 6.1 (hôte)\n'), Buffer.from('vda 1.00 2.00\n'.repeat(20000))]);
    expect(decodeInPieces(log, [4096], asciiText)).toBe(log.toString('utf8'));
    expect(asciiText(Buffer.from('plain'))).toBe('plain');
    expect(asciiText(Buffer.from('café'))).toBeNull();
  });

  it('a tiny file, or none at all', () => {
    expect(decodeInPieces(Buffer.from('x'), [1])).toBe('x');
    const d = captureDecoder();
    expect(d.end()).toBe('');
  });
});

describe('a UTF-16 capture in the notebook', () => {
  const tmp = useTempDir();
  it('is recognised and parsed like its UTF-8 twin, on import and on re-parse', async () => {
    const workers = await buildBundles();
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const utf16 = path.join(tmp(), 'vmstat-powershell.txt');
      writeFileSync(utf16, iconv('UTF-16', utf8));
      const study = backend.api.createStudy({ title: 'encodings' });
      const e = backend.api.createExperiment(study.id, { title: 'both' });
      const r: ImportResult = await backend.api.importCaptures(e.id, [{ path: VMSTAT }, { path: utf16 }]);
      expect(r.failed).toEqual([]);
      const [a, b] = r.imported.map((c) => backend.api.getCapture(c.captureId));
      expect(b!.kind).toBe('vmstat');
      // decoded as UTF-16, not read as UTF-8 and repaired by the parse engine (which would say so)
      expect(b!.parsed.warnings.join('\n')).not.toMatch(/UTF-16/);
      expect(b!.kind).toBe(a!.kind);
      expect(b!.parsed.series.map((s) => [s.name, s.count, s.mean])).toEqual(a!.parsed.series.map((s) => [s.name, s.count, s.mean]));
      await backend.api.reparseCaptures();
      expect(backend.api.getCapture(b!.id).parsed.series.length).toBe(a!.parsed.series.length);
      // the bytes are kept as they came
      expect(Buffer.concat([...backend.captureBytes(b!.id)]).equals(readFileSync(utf16))).toBe(true);
    } finally {
      backend.close();
    }
  });
});
