/**
 * A capture file's text encoding, told from its first bytes, and a streaming UTF-16 decoder.
 * Windows PowerShell's `>` and `Out-File` write UTF-16LE with a byte order mark; Notepad may add a
 * UTF-8 BOM. Whoever reads capture bytes (the CLI, the store) calls `sniffEncoding` on the first
 * bytes and, for UTF-16, decodes with `Utf16Decoder` instead of UTF-8 — CaptureStream then gets
 * the real text. (Given UTF-16 decoded as UTF-8 all the same, CaptureStream recognizes it, drops
 * the zero bytes and says so in a warning: see utf16ReadAsUtf8 in registry.ts.)
 * Pure: no Node or DOM API, so it runs in Node, a worker or a page.
 */

export type CaptureEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface SniffedEncoding {
  encoding: CaptureEncoding;
  /** length in bytes of the byte order mark the text starts with (0, 2 or 3): skip it */
  bom: number;
}

/** How many first bytes `sniffEncoding` looks at (give it at least this many when the file has them). */
export const SNIFF_BYTES = 4096;

/**
 * The encoding of a capture from its first bytes: a BOM says it (EF BB BF, FF FE, FE FF); without
 * one, text where every other byte is zero (ASCII in UTF-16) is UTF-16 of that byte order. Anything
 * else is UTF-8 (the default: invalid sequences become U+FFFD as before).
 */
export function sniffEncoding(head: Uint8Array): SniffedEncoding {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  const n = Math.min(head.length, SNIFF_BYTES) & ~1;
  if (n < 16) return { encoding: 'utf-8', bom: 0 };
  let even = 0, odd = 0;
  for (let i = 0; i < n; i++) if (head[i] === 0) { if (i & 1) odd++; else even++; }
  const pairs = n >> 1;
  if (odd >= pairs * 0.6 && even <= pairs * 0.1) return { encoding: 'utf-16le', bom: 0 };
  if (even >= pairs * 0.6 && odd <= pairs * 0.1) return { encoding: 'utf-16be', bom: 0 };
  return { encoding: 'utf-8', bom: 0 };
}

/**
 * Streaming UTF-16 → string, like StringDecoder: write(bytes) returns the text of the whole code
 * units so far (a byte or a high surrogate cut at a piece's end waits for the next piece), end()
 * the rest. A leading BOM is dropped; an unpaired surrogate or a last odd byte becomes U+FFFD
 * (the notebook stores UTF-8, which cannot hold half a pair).
 */
export class Utf16Decoder {
  private carry = -1;
  private high = 0;
  private started = false;

  constructor(private readonly littleEndian: boolean) {}

  write(bytes: Uint8Array): string {
    const le = this.littleEndian;
    const units: number[] = [];
    let i = 0;
    if (this.carry >= 0 && bytes.length > 0) {
      units.push(le ? this.carry | (bytes[0]! << 8) : (this.carry << 8) | bytes[0]!);
      this.carry = -1;
      i = 1;
    }
    for (; i + 1 < bytes.length; i += 2) units.push(le ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
    if (i < bytes.length) this.carry = bytes[i]!;
    return this.text(units);
  }

  end(): string {
    let out = '';
    if (this.high) { out += '\uFFFD'; this.high = 0; }
    if (this.carry >= 0) { out += '\uFFFD'; this.carry = -1; }
    return out;
  }

  private text(units: number[]): string {
    let k = 0;
    const out: number[] = [];
    if (!this.started && units.length) {
      this.started = true;
      if (units[0] === 0xfeff) k = 1;
    }
    for (; k < units.length; k++) {
      const u = units[k]!;
      if (this.high) {
        if (u >= 0xdc00 && u <= 0xdfff) { out.push(this.high, u); this.high = 0; continue; }
        out.push(0xfffd);
        this.high = 0;
      }
      if (u >= 0xd800 && u <= 0xdbff) this.high = u;
      else if (u >= 0xdc00 && u <= 0xdfff) out.push(0xfffd);
      else out.push(u);
    }
    let s = '';
    for (let o = 0; o < out.length; o += 8192) s += String.fromCharCode(...out.slice(o, o + 8192));
    return s;
  }
}
