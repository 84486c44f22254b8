import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { frameOf } from '../../shared/capture/parsers/trace/perfScript';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'perf-script');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('perf-script parser', () => {
  it('folds perf script -g stacks (system wide) for a flame graph', () => {
    const text = read('perf-script-g-a.txt');
    const c = parseText(text);
    expect(c.kind).toBe('perf-script');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    // every sample header line starts at column 0 with the comm
    const headers = text.split('\n').filter((l) => /^\S/.test(l)).length;
    expect(val(c, 'samples_total')).toBe(headers);
    expect(val(c, 'samples_total')).toBe(59);
    expect(val(c, 'samples_total', { command: 'swapper' })).toBe(23);
    expect(val(c, 'samples_total', { command: 'dd' })).toBe(13);
    const folded = c.tables!.folded!;
    expect(folded.columns).toEqual(['stack', 'count']);
    expect(folded.rows[0]).toEqual(['swapper;common_startup_64;x86_64_start_kernel;__pfx_clear_bss;start_kernel;rest_init;cpu_startup_entry;do_idle;cpuidle_enter;cpuidle_enter_state;default_enter_idle;default_idle;pv_native_safe_halt', 22]);
    expect(folded.rows.reduce((a, r) => a + Number(r[1]), 0)).toBe(59);
    // unknown symbols take the name of their object, as stackcollapse-perf.pl does
    expect(folded.rows.some((r) => r[0] === 'python3;[python3.11]')).toBe(true);
    expect(val(c, 'leaf_samples_total', { symbol: 'pv_native_safe_halt' })).toBe(22);
    expect(val(c, 'leaf_samples_percent', { symbol: 'pv_native_safe_halt' })).toBe(37.29);
  });

  it('gives the same stacks from -F output without offsets', () => {
    const a = parseText(read('perf-script-g-a.txt'));
    const b = parseText(read('perf-script-F.txt'));
    expect(b.kind).toBe('perf-script');
    expect(b.warnings).toEqual([]);
    expect(b.tables!.folded!.rows).toEqual(a.tables!.folded!.rows);
  });

  it('reads one-line samples without call graphs', () => {
    const c = parseText(read('perf-script-nocallgraph.txt'));
    expect(c.kind).toBe('perf-script');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'samples_total')).toBe(68);
    expect(val(c, 'leaf_samples_total', { symbol: 'ext4fs_dirhash' })).toBe(5);
    expect(c.tables!.folded!.rows[1]).toEqual(['ls;ext4fs_dirhash', 5]);
  });

  it('reads -F without pid and dso', () => {
    const c = parseText(read('perf-script-F-no-pid.txt'));
    expect(c.kind).toBe('perf-script');
    expect(c.confidence).toBeGreaterThanOrEqual(0.85);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'samples_total')).toBe(68);
    expect(val(c, 'samples_total', { command: 'ls' })).toBe(68);
    expect(val(c, 'leaf_samples_total', { symbol: 'ext4fs_dirhash' })).toBe(5);
  });

  it('survives CRLF, a prompt and a cut end', () => {
    const lines = read('perf-script-g-a.txt').split('\n').slice(0, 30);
    const c = parseText(['$ perf script -i /tmp/perf3.data', ...lines, 'garbage here'].join('\r\n'));
    expect(c.kind).toBe('perf-script');
    expect(c.command).toBe('perf script -i /tmp/perf3.data');
    expect(c.warnings).toEqual(['line 32: could not read "garbage here"']);
    expect(val(c, 'samples_total')).toBeGreaterThan(0);
  });

  it('names frames as the regex reading it replaced, on every real frame line and on random text', () => {
    // the reading frameOf replaced, kept here as the reference
    const reference = (line: string): string | undefined => {
      const t = line.trim();
      const sp = t.search(/\s/);
      const addr = sp < 0 ? t : t.slice(0, sp);
      if (!/^[0-9a-fA-F]+$/.test(addr)) return undefined;
      let rest = sp < 0 ? '' : t.slice(sp).trim();
      let dso: string | undefined;
      if (rest.endsWith(')')) {
        const open = rest.lastIndexOf(' (');
        if (open >= 0) { dso = rest.slice(open + 2, -1); rest = rest.slice(0, open).trim(); }
        else if (rest.startsWith('(')) { dso = rest.slice(1, -1); rest = ''; }
      }
      let s = rest.trim().replace(/\+0x[0-9a-fA-F]+$/, '');
      if (s === '' || s === '[unknown]') s = dso && dso !== '[unknown]' ? '[' + (dso.split('/').pop() ?? dso) + ']' : '[unknown]';
      return s.replace(/;/g, ':');
    };
    const lines = readdirSync(DIR).flatMap((f) => readFileSync(path.join(DIR, f), 'utf8').split('\n'));
    expect(lines.filter((l) => l.startsWith('\t')).length).toBeGreaterThan(100);
    const alphabet = ['\t', ' ', '\u00a0', 'f', 'F', '0', '9', 'x', '+', '(', ')', ' (', '[unknown]', '/', ';', 'g', '.'];
    let seed = 5;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n; };
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[rnd(alphabet.length)]).join('');
    const hex = '0123456789abcdefABCDEFG';
    for (let k = 0; k < 20_000; k++) {
      // half of them shaped like a frame: spaces, an address, a space, then anything
      lines.push(k % 2 ? pick(1 + rnd(12)) : `${'\t '.slice(rnd(2))}${Array.from({ length: 1 + rnd(4) }, () => hex[rnd(hex.length)]).join('')} ${pick(rnd(10))}`);
    }
    for (const l of ['\t ffff sym+0x1c1 (dso)', '\tab +0xab (/x/y.so)', '\tab a+0x0x5', '\tab a+0x', '\tab a  (b)', '\tab ()', '\tab )', 'ab (', '\t1 [unknown] ([unknown])', '\t1 x;y+0x1 (a;b)']) lines.push(l);
    for (const l of lines) expect(frameOf(l), JSON.stringify(l)).toBe(reference(l));
  });
});
