import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAll, parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

/** perf record's own summary lines, pasted alone (real captures of perf 6.1.187: ../fixtures/captures/perf-report/how-these-were-made.md) */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'captures');
const DIR = path.join(FIXTURES, 'perf-record');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string): number | undefined => c.metrics.find((m) => m.name === name && !m.labels)?.value;
const MB = 1024 * 1024;

describe('perf-record parser', () => {
  it('reads the two lines of perf record -g pasted alone', () => {
    const c = parseText(read('perf-record-g-sh-loop.txt'));
    expect(c.kind).toBe('perf-record');
    expect(c.confidence).toBe(0.9);
    expect(c.warnings).toEqual([]);
    expect(c.metrics.map((m) => [m.name, m.value, m.unit, m.lines])).toEqual([
      ['record_wakeups_total', 1, 'count', [1, 1]],
      ['recorded_bytes', Math.round(0.158 * MB), 'B', [2, 2]],
      ['recorded_samples_total', 2216, 'count', [2, 2]],
    ]);
    expect(c.facts).toEqual({ perf_record_output: '/tmp/pr/sh.data' });
  });

  it('--call-graph dwarf and fp: the recorded program\'s own output is said, not read', () => {
    const d = parseText(read('perf-record-call-graph-dwarf.txt'));
    expect(d.kind).toBe('perf-record');
    expect(val(d, 'record_wakeups_total')).toBe(20);
    expect(val(d, 'recorded_bytes')).toBe(Math.round(5.002 * MB));
    expect(val(d, 'recorded_samples_total')).toBe(621);
    expect(d.warnings).toEqual(['line 1: 1 line not perf\'s (the recorded command\'s own output?), not read: "burn: 30 rounds, sink 925883134087424346"']);
    const f = parseText(read('perf-record-call-graph-fp.txt'));
    expect(val(f, 'recorded_samples_total')).toBe(471);
    expect(f.facts.perf_record_output).toBe('/tmp/pr/fpx.data');
  });

  it('-z: the compressed size, the original one and the ratio (perf prints no sample count then)', () => {
    const c = parseText(read('perf-record-z.txt'));
    expect(val(c, 'recorded_bytes')).toBe(Math.round(0.003 * MB));
    expect(val(c, 'recorded_uncompressed_bytes')).toBe(Math.round(0.017 * MB));
    expect(val(c, 'record_compression_ratio')).toBe(6.886);
    expect(val(c, 'recorded_samples_total')).toBeUndefined();
    expect(c.facts.perf_record_output).toBe('/tmp/pr/z.data');
  });

  it('--max-size and --switch-output: the size limit, the dumps and perf\'s warning', () => {
    const m = parseText(read('perf-record-max-size.txt'));
    expect(m.facts.perf_record_size_limit_bytes).toBe(36 * 1024);
    expect(val(m, 'recorded_samples_total')).toBe(446);
    const s = parseText(read('perf-record-switch-output.txt'));
    expect(s.facts).toMatchObject({
      perf_record_output: '/tmp/pr/sw.data.<timestamp>',
      perf_record_dumps: ['/tmp/pr/sw.data.2026120100381140'],
      perf_messages: ['WARNING: switch-output data size lower than wakeup kernel buffer size (258K) expect bigger perf.data sizes'],
    });
    expect(s.warnings).toEqual([expect.stringMatching(/^line 2: 1 line not perf's/)]);
  });

  it('lost events and samples: perf\'s warnings as figures, and kept as it said them', () => {
    const c = parseText(read('perf-record-lost.txt'));
    expect(val(c, 'record_wakeups_total')).toBe(1187);
    expect(val(c, 'recorded_samples_total')).toBe(4627);
    expect(val(c, 'lost_chunks_total')).toBe(18);
    expect(val(c, 'lost_samples_percent')).toBe(11.02);
    expect(c.facts.perf_messages).toEqual(['Warning: Processed 5868 events and lost 18 chunks!', 'Check IO/CPU overload!', 'Warning: Processed 5200 samples and lost 11.02%!']);
  });

  it('a prompt gives the command; CRLF and a missing closing bracket are read the same', () => {
    const text = `$ perf record -g -e cpu-clock -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'\r\n${read('perf-record-g-sh-loop.txt').replace(/\n/g, '\r\n').replace(' samples) ]', ' samples)')}`;
    const c = parseText(text);
    expect(c.kind).toBe('perf-record');
    expect(c.command).toBe("perf record -g -e cpu-clock -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'");
    expect(val(c, 'recorded_samples_total')).toBe(2216);
    expect(c.warnings).toEqual([]);
  });

  it('detection: alone it is perf-record; in front of a report, the report\'s parser reads it; nothing else is taken for it', () => {
    for (const kind of readdirSync(FIXTURES)) {
      for (const f of readdirSync(path.join(FIXTURES, kind)).filter((n) => n.endsWith('.txt') && !n.endsWith('.cmd.txt'))) {
        const best = detectAll(readFileSync(path.join(FIXTURES, kind, f), 'utf8').split(/\r?\n/).slice(0, 400))[0];
        if (kind === 'perf-record') expect(best?.kind, f).toBe('perf-record');
        else expect(best?.kind, `${kind}/${f}`).not.toBe('perf-record');
      }
    }
    // a program that prints a lot before perf's two lines: its own output decides (here: nothing known, low confidence)
    const noisy = [...Array.from({ length: 60 }, (_, i) => `result ${i}`), ...read('perf-record-g-sh-loop.txt').split('\n')];
    expect(detectAll(noisy)[0]).toEqual({ kind: 'perf-record', confidence: 0.5 });
    expect(detectAll(['hello', 'world'])[0]?.kind).not.toBe('perf-record');
  });
});
