/**
 * Where lines end in a capture's raw bytes, by the rule CaptureStream (registry.ts) reads text
 * with: a line ends at "\n", at "\r\n" (one break) or at a lone "\r" (terminal progress output,
 * fio's glued progress lines). Stored captures are cut into chunks and read back by line number
 * with these functions, so the line numbers a finding or a metric points at ("lines 5-25") are the
 * lines the raw-text view shows. Pure: works on Uint8Array, no Node.
 */

const LF = 10;
const CR = 13;

/**
 * Running count of line breaks over a byte stream given in pieces. A "\r" at the end of a piece is
 * counted at once (a break either way); a "\n" that starts the next piece then completes that
 * "\r\n" and is not counted again.
 */
export class LineBreakCounter {
  /** breaks seen so far */
  count = 0;
  /** bytes seen since the last break: > 0 means the stream is inside a line */
  sinceBreak = 0;
  private afterCR = false;

  push(bytes: Uint8Array, start = 0, end = bytes.length): void {
    let i = start;
    if (this.afterCR && i < end) {
      this.afterCR = false;
      if (bytes[i] === LF) i++;
    }
    const from = i;
    let last = -1;
    const cr = bytes.indexOf(CR, i);
    if (cr === -1 || cr >= end) {
      // most logs have no "\r": count "\n" with the native search
      for (let at = bytes.indexOf(LF, i); at !== -1 && at < end; at = bytes.indexOf(LF, at + 1)) { this.count++; last = at; }
      this.sinceBreak = last === -1 ? this.sinceBreak + (end - from) : end - last - 1;
      return;
    }
    for (; i < end; i++) {
      const b = bytes[i];
      if (b === LF) { this.count++; last = i; } else if (b === CR) {
        this.count++;
        last = i;
        if (i + 1 < end) { if (bytes[i + 1] === LF) { i++; last = i; } } else this.afterCR = true;
      }
    }
    this.sinceBreak = last === -1 ? this.sinceBreak + (end - from) : end - last - 1;
  }

  /** Lines in the whole stream: every break ends one, and bytes after the last break make one more. */
  lines(): number {
    return this.count + (this.sinceBreak > 0 ? 1 : 0);
  }
}

/**
 * Where to cut `bytes[0..end)` so the piece ends right after a line break: the position after the
 * last "\n", or after the last lone "\r" whose next byte is known. -1 when there is none. A cut is
 * never put between "\r" and "\n".
 */
export function lastLineEnd(bytes: Uint8Array, end = bytes.length): number {
  for (let i = end - 1; i >= 0; i--) {
    const b = bytes[i];
    if (b === LF) return i + 1;
    if (b === CR && i + 1 < end) return i + 1; // next byte is not LF, else the loop had stopped at it
  }
  return -1;
}

/** A cut at `pos` that does not split "\r\n". */
export function safeCut(bytes: Uint8Array, pos: number): number {
  return pos > 0 && pos < bytes.length && bytes[pos - 1] === CR && bytes[pos] === LF ? pos + 1 : pos;
}

/**
 * Splits bytes given in pieces into lines (without their terminators), numbering them from
 * `firstLine`. Lines that run over a piece boundary are joined. `skip` breaks are passed over
 * first (to start at a line inside the first piece).
 */
export class LineSplitter {
  private partial: Uint8Array[] = [];
  private partialLength = 0;
  private afterCR = false;
  private skipping: number;
  lineNo: number;

  constructor(private readonly onLine: (bytes: Uint8Array, lineNo: number) => boolean | void, firstLine = 1, skip = 0) {
    this.lineNo = firstLine;
    this.skipping = skip;
  }

  /** false once onLine asked to stop */
  push(bytes: Uint8Array): boolean {
    let i = 0;
    const n = bytes.length;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (bytes[0] === LF) i = 1;
    }
    let start = i;
    for (; i < n; i++) {
      const b = bytes[i];
      if (b !== LF && b !== CR) continue;
      const end = i;
      if (b === CR) {
        if (i + 1 < n) { if (bytes[i + 1] === LF) i++; } else this.afterCR = true;
      }
      if (!this.emit(bytes, start, end)) return false;
      start = i + 1;
    }
    if (start < n && this.skipping === 0) {
      this.partial.push(bytes.subarray(start, n));
      this.partialLength += n - start;
    }
    return true;
  }

  private emit(bytes: Uint8Array, start: number, end: number): boolean {
    if (this.skipping > 0) {
      this.skipping--;
      this.partial = [];
      this.partialLength = 0;
      return true;
    }
    let line = bytes.subarray(start, end);
    if (this.partialLength) {
      const joined = new Uint8Array(this.partialLength + line.length);
      let o = 0;
      for (const p of this.partial) { joined.set(p, o); o += p.length; }
      joined.set(line, o);
      line = joined;
      this.partial = [];
      this.partialLength = 0;
    }
    return this.onLine(line, this.lineNo++) !== false;
  }

  /** The last line when the bytes do not end with a break. */
  end(): void {
    if (this.partialLength && this.skipping === 0) this.emit(new Uint8Array(0), 0, 0);
  }
}
