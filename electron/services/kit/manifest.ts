/**
 * The capture kit's manifest.json (written by collect.sh; its fields are listed at the top of that
 * script), read back when the kit's archive is imported: each file's command line, when it ran and,
 * for the monitors, the benchmark they were recorded around. That becomes the file's CaptureContext
 * (parser hint, clock, run window) and the note of its link on the experiment.
 *
 * A manifest is data from another machine: every field is checked for its type and length, and a
 * file that is not a kit manifest (another archive's manifest.json) is simply not one.
 */
import type { CaptureContext, CaptureRun } from '../../../shared/capture/types';

export const KIT_FORMAT = 'tunebook-kit';
/** the newest manifest format this Tunebook reads; a newer one is read for the fields it knows */
export const KIT_FORMAT_VERSION = 1;
/** a manifest larger than this is not the kit's (it lists a few dozen entries) */
export const MAX_MANIFEST_BYTES = 1 << 20;

export interface KitEntry {
  file: string;
  /** the tool's stderr beside its output, when it wrote any */
  stderrFile: string | null;
  phase: string;
  tool: string;
  command: string;
  version: string | null;
  startEpoch: number | null;
  endEpoch: number | null;
  status: string;
  reason: string | null;
  stoppedByKit: boolean;
}

export interface KitManifest {
  formatVersion: number;
  hostname: string;
  mode: string;
  entries: KitEntry[];
  /** the COMMAND the kit ran, with its times, when it ran one */
  run: CaptureRun | null;
}

const text = (v: unknown, max = 4096): string | null => (typeof v === 'string' && v.length <= max ? v : null);
const epoch = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 1e11 ? v : null);

/** The manifest in `json`, or null when it is not a capture kit's manifest. */
export function readKitManifest(json: string): KitManifest | null {
  let raw: unknown;
  try { raw = JSON.parse(json); } catch { return null; }
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  if (m.format !== KIT_FORMAT || typeof m.formatVersion !== 'number' || !Array.isArray(m.entries)) return null;
  const entries: KitEntry[] = [];
  for (const e of m.entries as unknown[]) {
    if (!e || typeof e !== 'object') continue;
    const r = e as Record<string, unknown>;
    const file = text(r.file, 1024);
    const command = text(r.command);
    if (!file || command === null) continue;
    entries.push({
      file, command,
      stderrFile: text(r.stderrFile, 1024),
      phase: text(r.phase, 32) ?? '',
      tool: text(r.tool, 256) ?? '',
      version: text(r.version, 1024),
      startEpoch: epoch(r.startEpoch),
      endEpoch: epoch(r.endEpoch),
      status: text(r.status, 32) ?? '',
      reason: text(r.reason),
      stoppedByKit: r.stoppedByKit === true,
    });
  }
  const cmd = entries.find((e) => e.phase === 'command' && e.startEpoch !== null && e.endEpoch !== null);
  return {
    formatVersion: m.formatVersion,
    hostname: text(m.hostname, 256) ?? '',
    mode: text(m.mode, 32) ?? '',
    entries,
    run: cmd ? { command: cmd.command, started: cmd.startEpoch! * 1000, ended: cmd.endEpoch! * 1000 } : null,
  };
}

/** What the manifest tells of one of its files (a path below the kit's top folder), or undefined. */
export function kitContext(m: KitManifest, file: string): { context?: CaptureContext; note: string } | undefined {
  const e = m.entries.find((x) => x.file === file);
  if (!e) {
    // what a tool said on stderr: kept as text, with the command it came from
    const of = m.entries.find((x) => x.stderrFile === file);
    return of ? { note: `stderr of ${kitNote(of, m)}` } : undefined;
  }
  const context: CaptureContext = { command: e.command, source: `capture kit manifest (${KIT_FORMAT} ${m.formatVersion}, host ${m.hostname || 'unknown'})` };
  if (e.startEpoch !== null) context.started = e.startEpoch * 1000;
  if (e.endEpoch !== null) context.ended = e.endEpoch * 1000;
  if (e.phase === 'monitor' && m.run) context.run = m.run;
  return { context, note: kitNote(e, m) };
}

const clock = (epochS: number | null): string => (epochS === null ? '?' : new Date(epochS * 1000).toISOString().slice(11, 19));

/** The link's note: what ran, when, on which host, and how it ended when it did not end well. */
function kitNote(e: KitEntry, m: KitManifest): string {
  const parts = [`${e.command} (capture kit on ${m.hostname || 'an unnamed host'}, ${clock(e.startEpoch)}–${clock(e.endEpoch)} UTC)`];
  if (e.version) parts.push(e.version);
  if (e.phase === 'monitor' && m.run) parts.push(`recorded around: ${m.run.command}`);
  if (e.status === 'failed') parts.push(`failed: ${e.reason ?? 'no reason given'}`);
  return parts.join(' · ');
}
