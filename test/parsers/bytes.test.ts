/**
 * Lines read as bytes (LineSink.spanBytes: a host hands pure-ASCII pieces of a file to the stream
 * as they are, CaptureStream.writeAscii through halfParse.writeBytes) give exactly what the same
 * text gives written as a string: the number scanner over bytes against the one over strings, and
 * every fixture of the kinds that read bytes, whole, in pieces cut anywhere, with lines mutated
 * (control characters, letters, carriage returns, characters beyond ASCII) so that pieces switch
 * between bytes and text in the middle of lines.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CaptureStream, DETECT_BYTES, parseText } from '../../shared/capture/registry';
import { captureDecoder } from '../../shared/capture/decode';
import { toCaptureJson } from '../../shared/capture/json';
import { SCAN, scanNumbers, scanNumbersBytes } from '../../shared/capture/parsers/sysstat/common';
import { asciiString, hasControlByte, hasControlChar } from '../../shared/capture/text';
import { asciiText } from '../../electron/services/asciiText';
import { writeBytes } from '../../electron/services/halfParse';

const FIX = path.join(__dirname, '..', 'fixtures', 'captures');
const fixtures = (dir: string): string[] =>
  readdirSync(path.join(FIX, dir)).filter((f) => f.endsWith('.txt') && !f.endsWith('.cmd.txt')).map((f) => path.join(dir, f));

/**
 * the capture JSON with points and tables, as `tunebook parse --json --series --tables` prints it,
 * and the lines each series was read from (its evidence in findings)
 */
const json = (s: CaptureStream): unknown => {
  const c = s.end();
  return { ...JSON.parse(JSON.stringify(toCaptureJson(c, { series: true, tables: true }))), lines: c.series.map((x) => x.lines) };
};

/** the file's bytes through writeBytes as a host feeds them, in pieces of the given sizes (cycled) */
function asBytes(bytes: Buffer, sizes: readonly number[]): { out: unknown; asBytes: number; firstBytes: number[] } {
  const s = new CaptureStream();
  const decoder = captureDecoder(asciiText);
  let took = 0;
  const firstBytes: number[] = [];
  const writeAscii = s.writeAscii.bind(s);
  s.writeAscii = (b: Uint8Array) => { took += b.length; firstBytes.push(b[0]!); writeAscii(b); };
  for (let o = 0, k = 0; o < bytes.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]!);
    writeBytes(s, decoder, bytes.subarray(o, o + n));
    o += n;
  }
  s.write(decoder.end());
  return { out: json(s), asBytes: took, firstBytes };
}

/** the text again and again, past the head detection reads (those lines go through line() whole) */
function pastHead(text: string): string {
  let out = text.replace(/\n*$/, '\n');
  while (out.length < 4 * DETECT_BYTES) out += text.replace(/\n*$/, '\n');
  return out;
}

describe('numbers read from bytes', () => {
  const token = fc.oneof(
    fc.integer({ min: -99999, max: 9_999_999 }).map(String),
    fc.tuple(fc.nat(99999), fc.nat(999)).map(([a, b]) => `${a}.${b}`),
    fc.tuple(fc.nat(999), fc.nat(99)).map(([a, b]) => `${a},${b}`),
    fc.constantFrom('-', '.', ',', '-.5', '1e5', '2.5E-3', '0x1f', 'eth0', 'N/A', '12%', '1.2.3', '+7', '00012', '12345678901234567', '3.14159265358979323'),
  );
  const line = fc.tuple(fc.array(fc.tuple(fc.constantFrom(' ', '  ', '\t', ' \t '), token), { maxLength: 24 }), fc.constantFrom('', ' ', '\t', ' x'))
    .map(([cells, tail]) => cells.map(([b, t]) => b + t).join('') + tail);

  it('are the numbers scanNumbers reads from the same characters, and it stops at the same place', () => {
    fc.assert(fc.property(line, fc.integer({ min: 1, max: 30 }), fc.nat(3), (text, max, lead) => {
      const padded = 'x'.repeat(lead) + text;
      const bytes = new Uint8Array([...padded].map((c) => c.charCodeAt(0)));
      const a = new Float64Array(32), b = new Float64Array(32);
      const ka = scanNumbers(padded, lead, a, max, padded.length);
      const endA = SCAN.end;
      const kb = scanNumbersBytes(bytes, lead, b, max, bytes.length);
      expect(kb).toBe(ka);
      expect(SCAN.end).toBe(endA);
      expect([...b.subarray(0, kb)]).toEqual([...a.subarray(0, ka)]);
    }), { numRuns: 5000, seed: 71 });
  });

  it('text and control characters of bytes are those of the same string', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }).map((u) => u.map((x) => x & 0x7f)), fc.nat(), fc.nat(), (bytes, a, b) => {
      const from = a % (bytes.length + 1), to = from + (b % (bytes.length - from + 1));
      const text = String.fromCharCode(...bytes.subarray(from, to));
      expect(asciiString(bytes, from, to)).toBe(text);
      expect(hasControlByte(bytes, from, to)).toBe(hasControlChar(text));
    }), { numRuns: 3000, seed: 72 });
  });
});

describe('lines read from bytes', () => {
  it.each([...fixtures('vmstat'), ...fixtures('iostat')])('%s: read as bytes, in pieces cut anywhere, as the text is read', (f) => {
    const text = pastHead(readFileSync(path.join(FIX, f), 'utf8'));
    const whole = json(((): CaptureStream => { const s = new CaptureStream(); s.write(text); return s; })());
    expect(parseText(text)).toBeTruthy();
    const bytes = Buffer.from(text, 'utf8');
    const big = asBytes(bytes, [65536, 1 << 20]);
    expect(big.out).toEqual(whole);
    // past the head and the pieces detection reads, the rest of a log of rows went as bytes (an ASCII fixture)
    const rows = (whole as { kind: string; series: unknown[] });
    if (rows.kind === f.split('/')[0] && rows.series.length > 0 && /^[\x00-\x7f]*$/.test(text) && !text.includes('\r')) expect(big.asBytes).toBeGreaterThan(text.length / 2);
    expect(asBytes(bytes, [997, 13, 65536, 1, 4099]).out).toEqual(whole);
  });

  it('vmstat and vmstat -a in turn: each header printed again brings back its own columns', () => {
    const plain = readFileSync(path.join(FIX, 'vmstat/plain-1-3.txt'), 'utf8').replace(/\n*$/, '\n');
    const active = readFileSync(path.join(FIX, 'vmstat/a-1-3.txt'), 'utf8').replace(/\n*$/, '\n');
    const text = pastHead(plain + active);
    const s = new CaptureStream();
    s.write(text);
    const whole = json(s);
    // inact/active where buff/cache were: the same count of columns, other series
    expect((whole as { series: { name: string }[] }).series.map((x) => x.name)).toEqual(expect.arrayContaining(['memory_active_bytes', 'buffer_bytes']));
    expect(asBytes(Buffer.from(text, 'utf8'), [65536]).out).toEqual(whole);
  });

  it('a carriage return that ends one piece and the line feed that begins the next are one line break', () => {
    const lines = pastHead(readFileSync(path.join(FIX, 'vmstat/plain-1-30.txt'), 'utf8')).split('\n');
    const at = Math.floor(lines.length * 0.8);
    lines[at] += '\r';
    const text = lines.join('\n');
    const bytes = Buffer.from(text, 'utf8');
    const cr = bytes.indexOf(13);
    const s = new CaptureStream();
    s.write(text);
    const read = asBytes(bytes, [cr + 1, bytes.length]);
    expect(read.out).toEqual(json(s));
    // the piece after the carriage return went as bytes, its line feed first
    expect(read.firstBytes).toContain(10);
  });

  it.each(['vmstat/plain-1-30.txt', 'iostat/x-p-all-1-2.txt', 'iostat/x-t-1-3.txt'])('%s: rows mutated at random read as bytes as they read as text', (f) => {
    const base = readFileSync(path.join(FIX, f), 'utf8').replace(/\n*$/, '\n');
    const lines = pastHead(base).split('\n');
    // what a row read as bytes must leave to the text path, or read as the text path does
    const mutations: ((l: string) => string)[] = [
      (l) => l.replace(/ (\d+)$/, ' \u001b[1m$1\u001b[0m'),
      (l) => l + '\u0007',
      (l) => l.replace(/\d(?=\s*$)/, 'x'),
      (l) => l.replace(/ +/g, '\t'),
      (l) => l + '\r',
      (l) => l + ' é',
      (l) => l.replace(/ (\d+) /, ' -$1 '),
      (l) => l.replace(/ (\d+) /, ' $1.5 '),
      (l) => l.replace(/\s+\S+\s*$/, ''),
      (l) => l + ' 1',
      (l) => l.replace(/^/, '\u0000'),
      (l) => `${l}\n`,
      (l) => l.replace(/^(\s*)(\S+)/, '$1$2x'),
      (l) => l.replace(/^(\s*)\S+/, '$1Device'),
      (l) => l.replace(/^(\s*)\S+/, '$1sdz'),
      (l) => l.replace(/^(\s*)(\S)/, '$1\u001b$2'),
      (l) => l.replace(/^(\s*)(\S+)/, '$1$2 extra'),
    ];
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.nat(), fc.nat(mutations.length - 1)), { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 70000 }), { minLength: 1, maxLength: 4 }),
      (edits, sizes) => {
        const ls = [...lines];
        for (const [at, m] of edits) { const i = Math.floor(lines.length * 0.7) + (at % Math.floor(lines.length * 0.3)); ls[i] = mutations[m]!(ls[i]!); }
        const text = ls.join('\n');
        const s = new CaptureStream();
        s.write(text);
        expect(asBytes(Buffer.from(text, 'utf8'), sizes).out).toEqual(json(s));
      },
    ), { numRuns: 60, seed: 73 });
  });
});
