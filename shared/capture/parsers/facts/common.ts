/** Helpers shared by the hardware-facts parsers. Pure; never throw. */
import type { LineSink, Metric, ParseOutput } from '../../types';
import { commandLine, textRecord } from '../kit';

/** "Key:   value" / "Key：value" (full-width colon) → [key, value]; undefined if no colon. */
export function keyValue(line: string): [string, string] | undefined {
  let i = line.indexOf(':');
  const j = line.indexOf('：');
  if (j >= 0 && (i < 0 || j < i)) i = j;
  if (i <= 0) return undefined;
  return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
}

/** "1 KiB", "32K", "2 MiB (2 instances)", "1024 KB" → bytes (binary units, as lscpu and /proc print them). */
export function cacheBytes(s: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\b/i.exec(s);
  if (!m) return NaN;
  const p = m[2] ? 'KMGT'.indexOf(m[2].toUpperCase()) + 1 : 0;
  return Math.round(Number(m[1]) * 1024 ** p);
}

/**
 * A base sink: handles a shell prompt + command line at the top (only for `tools`), collects
 * warnings, facts, settings and metrics. Subclasses implement `read`.
 */
export abstract class FactsSink implements LineSink {
  protected command: string | undefined;
  protected toolVersion: string | undefined;
  protected readonly warnings: string[] = [];
  protected readonly facts: ParseOutput['facts'] = textRecord();
  protected readonly settings: Record<string, string> = textRecord();
  protected readonly metrics: Metric[] = [];
  protected tables: ParseOutput['tables'];
  private seen = 0;

  constructor(private readonly tools: readonly string[]) {}

  line(text: string, lineNo: number): void {
    if (this.seen < 5 && this.command === undefined) {
      const c = commandLine(text, this.tools);
      if (c !== undefined) { this.setCommand(c); return; }
    }
    if (text.trim() !== '') this.seen++;
    this.read(text, lineNo);
  }

  /** The command line: a prompt line at the top, or told from outside the text (a capture kit's manifest, CaptureStream's `context`). */
  setCommand(cmd: string): void {
    this.command = cmd;
    this.onCommand(cmd);
  }

  protected onCommand(_cmd: string): void { /* optional */ }

  protected abstract read(text: string, lineNo: number): void;

  protected finish(): void { /* optional */ }

  protected warn(lineNo: number, text: string, what = 'line'): void {
    this.warnings.push(`line ${lineNo}: could not read ${what}: ${text.trim().slice(0, 80)}`);
  }

  end(): ParseOutput {
    try { this.finish(); } catch (e) { this.warnings.push(`could not finish: ${String(e)}`); }
    const empty = !this.metrics.length && !Object.keys(this.facts).length && !Object.keys(this.settings).length && !(this.tables && Object.keys(this.tables).length);
    if (empty && !this.warnings.length) this.warnings.push(`found nothing to read (${this.seen} non-blank lines)`);
    const out: ParseOutput = { metrics: this.metrics, series: [], facts: this.facts, settings: this.settings, warnings: this.warnings };
    if (this.command !== undefined) out.command = this.command;
    if (this.toolVersion !== undefined) out.toolVersion = this.toolVersion;
    if (this.tables && Object.keys(this.tables).length) out.tables = this.tables;
    return out;
  }
}
