/** Helpers for the sysstat-group parser tests (iostat, vmstat, pidstat, mpstat, sar). */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { ParsedCapture, Series } from '../../shared/capture/types';
import { summarizeSeries } from '../../shared/capture/series';

export const FIX = path.join(__dirname, '..', 'fixtures', 'captures');
export const read = (id: string, name: string): string => readFileSync(path.join(FIX, id, name), 'utf8');
export const readJc = (id: string, name: string): Record<string, unknown>[] | undefined => {
  const p = path.join(FIX, id, name.replace(/\.txt$/, '.jc.json'));
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>[]) : undefined;
};

export function series(c: ParsedCapture, name: string, labels?: Record<string, string>): Series {
  const s = c.series.find((x) => x.name === name && JSON.stringify(x.labels ?? {}) === JSON.stringify(labels ?? {}));
  if (!s) throw new Error(`no series ${name} ${JSON.stringify(labels ?? {})} in [${[...new Set(c.series.map((x) => x.name))].join(', ')}]`);
  return s;
}

export function byColumn(c: ParsedCapture, column: string, labels?: Record<string, string>): Series {
  const s = c.series.find((x) => x.column === column && JSON.stringify(x.labels ?? {}) === JSON.stringify(labels ?? {}));
  if (!s) throw new Error(`no series for column ${column} ${JSON.stringify(labels ?? {})}`);
  return s;
}

export const summary = summarizeSeries;

/** jc's key for a printed column: "%rrqm" → percent_rrqm, "rkB/s" → rkb_s, "rareq-sz" → rareq_sz */
export function jcKey(column: string): string {
  return column.replace(/^%/, 'percent_').replace(/[/-]/g, '_').toLowerCase();
}

/** prepend a shell prompt + command line, as pasted captures have it */
export const withPrompt = (cmd: string, text: string): string => `[root@host ~]# ${cmd}\n${text}`;
