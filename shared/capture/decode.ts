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
}

export function captureDecoder(): CaptureDecoder {
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let decode: ((bytes: Uint8Array, last: boolean) => string) | null = null;
  let encoding: CaptureEncoding | null = null;

  const choose = (first: Uint8Array): void => {
    const sniffed = sniffEncoding(first);
    encoding = sniffed.encoding;
    if (sniffed.encoding === 'utf-8') {
      const utf8 = new TextDecoder('utf-8'); // drops a leading BOM; invalid sequences become U+FFFD
      decode = (bytes, last) => utf8.decode(bytes, { stream: !last });
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
