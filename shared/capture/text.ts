/**
 * Small text helpers: cleaning a line (the registry, the capture store), the command after a shell
 * prompt and a command line's program (the registry's parserForCommand, the capture context), and
 * splitting and reading numbers. Parsers reach them through their kit (parsers/kit.ts), which
 * re-exports those they use. Pure, allocation-light, never throw.
 */

// CSI / OSC / single-char escape sequences as terminals and `script` logs leave them, and the
// charset (ESC ( B), keypad (ESC =, ESC >) and cursor save/restore (ESC 7, ESC 8) ones of full-screen
// programs such as an interactive top.
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_]|[()*+][ -~]|[=>78])/g;
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
// The same characters as CONTROL, found by what they are not (tab, line breaks, printable ASCII and
// everything from U+0080 on): V8 scans a one-byte string about 1.6× faster for a negated class.
const HAS_CONTROL = /[^\t\n\r\x20-\x7e\x80-\uffff]/;

/**
 * Whether `s` holds a control character cleanLine would remove (anything below U+0020 but tab,
 * \n and \r, and DEL): most chunks of a capture hold none, so their lines need no cleaning.
 */
export function hasControlChar(s: string): boolean {
  return HAS_CONTROL.test(s);
}

/** hasControlChar of ASCII bytes[start, end) */
export function hasControlByte(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
}

/** The character codes of an ASCII string, to match bytes against (sameCodes); null when it is not ASCII. */
export function asciiCodes(s: string): Uint8Array | null {
  const out = new Uint8Array(s.length);
  for (let k = 0; k < s.length; k++) { const c = s.charCodeAt(k); if (c > 0x7f) return null; out[k] = c; }
  return out;
}

/** The bytes at `at` are `codes` (asciiCodes of a name or a header the sink looks for). */
export function sameCodes(bytes: Uint8Array, at: number, codes: Uint8Array): boolean {
  const n = codes.length;
  if (at + n > bytes.length) return false;
  for (let k = 0; k < n; k++) if (bytes[at + k] !== codes[k]) return false;
  return true;
}

declare const TextDecoder: new (label: 'latin1') => { decode(bytes: Uint8Array): string };
/**
 * What the label latin1 names (windows-1252): for ASCII bytes, one character a byte. Three times
 * faster than String.fromCharCode over the bytes for a line (0.1 µs); null where the runtime lacks it.
 */
const LATIN1 = ((): { decode(bytes: Uint8Array): string } | null => {
  try { return new TextDecoder('latin1'); } catch { return null; }
})();

/** The text of ASCII bytes[start, end): one character a byte. */
export function asciiString(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (end <= start) return ''; // (a blank line: no view of the bytes made)
  if (LATIN1 !== null) return LATIN1.decode(bytes.subarray(start, end));
  let out = '';
  // (in slices: a call takes only so many arguments)
  for (let i = start; i < end; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 8192)) as unknown as number[]);
  return out;
}

/** Remove ANSI colour codes and other control characters (keeps tabs). */
export function cleanLine(s: string): string {
  // fast path: most lines have no escape or control character at all (one native scan)
  if (!HAS_CONTROL.test(s)) return s;
  if (s.indexOf('\x1b') !== -1) s = s.replace(ANSI, '');
  return s.replace(CONTROL, '');
}

const PROMPT = /^\s*(?:\([^)]*\)\s*)?(?:\[[^\]\n]{1,80}\]\s?[#$%]|[\w.-]+@[\w.-]+(?::[^\s#$]*)?\s?[#$%]|[\w.~/-]*\s?[#$%])\s+(\S.*)$/;

/**
 * If `line` looks like a shell prompt followed by a command ("[root@h ~]# fio …",
 * "user@host:~$ iostat -x 1", "$ ab -n 10 …", "# sysctl -a"), return the command; else undefined.
 * `tools` (optional) restricts the match to commands that start with one of the given words
 * (after sudo/env/time/watch prefixes).
 */
export function promptCommand(line: string, tools?: readonly string[]): string | undefined {
  const m = PROMPT.exec(line);
  if (!m) return undefined;
  const cmd = m[1]!.trim();
  if (!tools) return cmd;
  return tools.includes(commandWord(cmd)) ? cmd : undefined;
}

/**
 * A command line's program (base name) and its arguments, skipping sudo/env/time/nice/watch/timeout
 * prefixes, their options and VAR=value assignments: `sudo LC_ALL=C /usr/bin/iostat -x 1` →
 * { program: 'iostat', args: ['-x', '1'] }. The program is '' when there is none.
 */
export function commandParts(cmd: string): { program: string; args: string[] } {
  const words = cmd.trim().split(/\s+/);
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (/^(sudo|env|time|nice|nohup|stdbuf|taskset|numactl|exec|command)$/.test(w) || /^-/.test(w) || /^\w+=/.test(w)) { i++; continue; }
    if (w === 'watch' || w === 'timeout') { i++; while (i < words.length && (/^-/.test(words[i]!) || /^\d+(\.\d+)?[smh]?$/.test(words[i]!))) i++; continue; }
    return { program: w.split('/').pop() ?? w, args: words.slice(i + 1) };
  }
  return { program: '', args: [] };
}

/** The program name of a command line (commandParts). */
export function commandWord(cmd: string): string {
  return commandParts(cmd).program;
}

/** Split a line on runs of spaces/tabs, dropping empty leading/trailing fields. */
export function fields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    let c = line.charCodeAt(i);
    while (i < n && (c === 32 || c === 9)) c = line.charCodeAt(++i);
    if (i >= n) break;
    const start = i;
    while (i < n && c !== 32 && c !== 9) c = line.charCodeAt(++i);
    out.push(line.slice(start, i));
  }
  return out;
}

/**
 * The fields of `fields`, as `starts`/`ends` offsets (no substrings allocated). Returns the number
 * of fields, at most starts.length (that many when there are more).
 */
export function scanFields(line: string, starts: Int32Array, ends: Int32Array): number {
  const n = line.length;
  const max = starts.length;
  let k = 0;
  let i = 0;
  while (i < n && k < max) {
    let c = line.charCodeAt(i);
    while (c === 32 || c === 9) { if (++i >= n) return k; c = line.charCodeAt(i); }
    starts[k] = i;
    while (i < n && c !== 32 && c !== 9) c = line.charCodeAt(++i);
    ends[k++] = i;
  }
  return k;
}

/** A character JavaScript's \s (and String.prototype.trim) counts as white space. */
export function isJsSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/**
 * The words of a line: exactly `line.trim().split(/\s+/)` for a line that is not blank ([] for a
 * blank one), without the regex.
 */
export function words(line: string): string[] {
  const out: string[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isJsSpace(line.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isJsSpace(line.charCodeAt(i))) i++;
    out.push(line.slice(start, i));
  }
  return out;
}

/** x, or NaN when it is ±Infinity (a number too long for a double is unreadable, not infinite). */
const finite = (x: number): number => (x === Infinity || x === -Infinity ? NaN : x);

/**
 * Parse a number as tools print it: "1234", "12.5", "-3", "1e3", and with a decimal comma as
 * sysstat prints it under many non-English locales ("12,50"). Returns NaN when not a number, and
 * when it overflows a double ("9" × 400 is not Infinity: no tool printed that).
 */
export function num(s: string | undefined): number {
  if (s === undefined || s === '') return NaN;
  let t = s;
  if (t.indexOf(',') !== -1) {
    // "12,50" (decimal comma) vs "1,234,567" (thousands): thousands groups are exactly 3 digits
    t = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t) ? t.replace(/,/g, '') : t.replace(',', '.');
  }
  // unambiguous alternatives: no backtracking on long runs of digits
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(t)) return NaN;
  return finite(Number(t));
}
