/**
 * The one way capture bytes become text, for every reader (the CLI and the app's parser, the
 * store's import and re-parse): a streaming decoder that tells the encoding from the first bytes
 * (sniffEncoding: UTF-8 with or without a BOM, UTF-16 of either byte order with or without one)
 * and decodes the rest that way. Pure (TextDecoder is in Node, workers and pages).
 */
import { SNIFF_BYTES, sniffEncoding, Utf16Decoder, type CaptureEncoding } from './encoding';

/** WHATWG TextDecoder, global in Node, workers and pages (declared here: shared/ compiles without DOM or Node types). */
declare const TextDecoder: new (label: 'utf-8') => { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string };

export interface CaptureDecoder {
  /** the text of the bytes so far (a character cut at the end waits for the next piece) */
  write(bytes: Uint8Array): string;
  /** the rest */
  end(): string;
  /** the encoding it chose (known after the first SNIFF_BYTES bytes, or at the end) */
  readonly encoding: CaptureEncoding | null;
  /**
   * It chose UTF-8 and holds nothing back: a next piece of ASCII bytes is then its own text, which
   * a caller may hand on as bytes (CaptureStream.writeAscii) instead of through write().
   */
  readonly clear: boolean;
}

/**
 * The text of bytes that are all ASCII, or null when one is not: where the platform has a faster way
 * than TextDecoder to tell and copy them (Node's buffer.isAscii and a latin1 string: ~7× faster on
 * this project's VM), the hosts pass it in (electron/services/asciiText.ts).
 */
export type AsciiText = (bytes: Uint8Array) => string | null;

export function captureDecoder(asciiText: AsciiText | null = null): CaptureDecoder {
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let decode: ((bytes: Uint8Array, last: boolean) => string) | null = null;
  let encoding: CaptureEncoding | null = null;
  /** UTF-8 chosen, and the last byte written was ASCII (decode says why that holds nothing back) */
  let clear = false;

  const choose = (first: Uint8Array): void => {
    const sniffed = sniffEncoding(first);
    encoding = sniffed.encoding;
    if (sniffed.encoding === 'utf-8') {
      const utf8 = new TextDecoder('utf-8'); // drops a leading BOM; invalid sequences become U+FFFD
      // The decoder holds nothing back when the last byte it was given is ASCII (an unfinished
      // sequence before it has been written out as U+FFFD): then a piece of ASCII bytes is the same
      // text whoever decodes it. The first piece always goes through the decoder (its BOM).
      decode = (bytes, last) => {
        if (clear && asciiText !== null) {
          const text = asciiText(bytes);
          if (text !== null) return text;
        }
        const text = utf8.decode(bytes, { stream: !last });
        if (bytes.length > 0) clear = bytes[bytes.length - 1]! < 0x80;
        return text;
      };
    } else {
      const utf16 = new Utf16Decoder(sniffed.encoding === 'utf-16le');
      decode = (bytes, last) => utf16.write(bytes) + (last ? utf16.end() : '');
    }
  };

  const flushHead = (last: boolean): string => {
    const all = head.length === 1 ? head[0]! : concat(head, headBytes);
    head = [];
    headBytes = 0;
    choose(all);
    return decode!(all, last);
  };

  return {
    get encoding() { return encoding; },
    get clear() { return clear; },
    write(bytes) {
      if (decode) return decode(bytes, false);
      head.push(bytes.slice());
      headBytes += bytes.length;
      return headBytes >= SNIFF_BYTES ? flushHead(false) : '';
    },
    end() {
      if (!decode) return flushHead(true);
      return decode(new Uint8Array(0), true);
    },
  };
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}
