/**
 * uptime (procps-ng 3.3 / 4.x, BusyBox, BSD/macOS): " 23:10:01 up 3 days,  4:05,  2 users,  load
 * average: 0.52, 0.58, 0.59" (also "up 5 min", "up 1 day, 10 min", "1 user", "load averages:"), and
 * `uptime -p` ("up 1 week, 3 days, 8 hours, 2 minutes") and `uptime -s` ("2026-11-30 15:24:53", read
 * only under an `uptime -s` command line) → metrics load_average_1m/5m/15m (count), uptime_seconds
 * (s), users_count (count); repeated lines (watch, a loop) keep the last values.
 */
import type { CaptureParser } from '../../types';
import { headCommand, lookupTable, metric } from '../kit';
import { FactsSink } from './common';

/** " 23:10:01 up …" — the classic line; also without the clock (BusyBox prints it, some logs drop it). */
const CLASSIC = /^(?:(\d{1,2}:\d{2}(?::\d{2})?)(?:\s*[AaPp][Mm])?\s+)?up\s+(.*?),?\s+(?:(\d+)\s+users?,\s+)?load averages?:\s*(\d+(?:[.,]\d+)?)[,\s]\s*(\d+(?:[.,]\d+)?)[,\s]\s*(\d+(?:[.,]\d+)?)\s*$/;
const PRETTY = /^up\s+(.+)$/;
const SINCE = /^(\d{4})-(\d{2})-(\d{2})\s+(\d{2}):(\d{2}):(\d{2})$/;

const UNIT_S = lookupTable({
  sec: 1, secs: 1, second: 1, seconds: 1, min: 60, mins: 60, minute: 60, minutes: 60, hour: 3600, hours: 3600, hr: 3600, hrs: 3600,
  day: 86400, days: 86400, week: 604800, weeks: 604800, year: 31536000, years: 31536000, decade: 315360000, decades: 315360000,
});

/** "3 days,  4:05" / "5 min" / "1 day, 10 min" / "8 hours, 2 minutes" / "2 days, 3 hours" → seconds. */
export function uptimeSeconds(s: string): number {
  let total = 0, any = false;
  for (const part of s.split(',')) {
    const p = part.trim();
    if (p === '') continue;
    let m = /^(\d+):(\d{2})$/.exec(p);
    if (m) { total += Number(m[1]) * 3600 + Number(m[2]) * 60; any = true; continue; }
    m = /^(\d+)\s+([a-z]+)$/.exec(p);
    if (m && UNIT_S[m[2]!] !== undefined) { total += Number(m[1]) * UNIT_S[m[2]!]!; any = true; continue; }
    return NaN;
  }
  return any ? total : NaN;
}

/** the line patterns are only tried on lines of plausible length (linear time on long lines) */
const MAX = 300;
const classic = (t: string): RegExpExecArray | null => (t.length <= MAX && t.includes('load average') ? CLASSIC.exec(t) : null);

const num = (s: string): number => Number(s.replace(',', '.'));

class UptimeSink extends FactsSink {
  private last: { lineNo: number; up?: number; users?: number; load?: [number, number, number] } | null = null;
  private sinceLine: number | null = null;

  constructor() { super(['uptime']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    let m = classic(t);
    if (m) {
      const up = uptimeSeconds(m[2]!);
      const load = [num(m[4]!), num(m[5]!), num(m[6]!)] as [number, number, number];
      if (!load.every(Number.isFinite)) { this.warn(lineNo, text, 'load averages'); return; }
      this.last = { lineNo, load };
      if (Number.isFinite(up)) this.last.up = up; else this.warn(lineNo, text, 'time up');
      if (m[3] !== undefined) this.last.users = Number(m[3]);
      if (m[1]) this.facts.time = m[1];
      return;
    }
    m = t.length <= MAX ? PRETTY.exec(t) : null;
    if (m && !/load average/.test(t)) {
      const up = uptimeSeconds(m[1]!);
      if (Number.isFinite(up)) { this.last = { lineNo, up }; return; }
    }
    m = t.length <= MAX ? SINCE.exec(t) : null;
    if (m && /\s-s\b|--since/.test(this.command ?? '')) { this.facts.up_since = t; this.sinceLine = lineNo; return; }
    this.warn(lineNo, text);
  }

  protected override finish(): void {
    const l = this.last;
    if (!l) return;
    if (l.load) {
      this.metrics.push(metric('load_average_1m', l.load[0], 'count', { column: 'load average (1 min)', lines: l.lineNo }));
      this.metrics.push(metric('load_average_5m', l.load[1], 'count', { column: 'load average (5 min)', lines: l.lineNo }));
      this.metrics.push(metric('load_average_15m', l.load[2], 'count', { column: 'load average (15 min)', lines: l.lineNo }));
    }
    if (l.up !== undefined) { this.metrics.push(metric('uptime_seconds', l.up, 's', { column: 'up', lines: l.lineNo })); this.facts.uptime_seconds = l.up; }
    if (l.users !== undefined) this.metrics.push(metric('users_count', l.users, 'count', { column: 'users', lines: l.lineNo }));
    void this.sinceLine;
  }
}

export const uptimeParser: CaptureParser = {
  id: 'uptime',
  title: 'uptime',
  commands: [{ program: 'uptime' }],
  detect(head) {
    const n = Math.min(head.length, 20);
    let nClassic = 0, pretty = 0, other = 0;
    for (let i = 0; i < n; i++) {
      const t = head[i]!.trim();
      if (t === '') continue;
      if (classic(t)) nClassic++;
      else if (t.length <= MAX && PRETTY.test(t) && Number.isFinite(uptimeSeconds(t.slice(3)))) pretty++;
      else other++;
    }
    const cmd = headCommand(head, ['uptime']) !== undefined;
    if (nClassic && other <= 1) return 0.9;
    if (pretty && other === 0) return 0.8;
    if (cmd && (nClassic || pretty)) return 0.8;
    if (cmd) return 0.5;
    return 0;
  },
  open: () => new UptimeSink(),
};
