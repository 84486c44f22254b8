/**
 * free (procps-ng 3.3.x and 4.x): default KiB, -b/-k/-m/-g/--tera/--peta, --kilo/--mega/--giga (SI),
 * --si, -h human ("23Gi", old "23G"), -w wide (buffers + cache), -t total, -l low/high rows,
 * the old "-/+ buffers/cache:" layout, and repeated reports (-s / -c) as series.
 */
import type { CaptureParser, ParseOutput, Series } from '../../types';
import { SeriesSet } from '../../series';
import { fields, headCommand, lookupTable } from '../kit';
import { FactsSink } from './common';

const COLUMN_NAMES = lookupTable({
  total: 'total', used: 'used', free: 'free', shared: 'shared', 'buff/cache': 'buff_cache', buffers: 'buffers',
  cache: 'cache', cached: 'cache', available: 'available',
  // zh_CN / de / fr / es
  '总计': 'total', '已用': 'used', '空闲': 'free', '共享': 'shared', '缓冲/缓存': 'buff_cache', '可用': 'available', '缓冲': 'buffers', '缓存': 'cache',
  gesamt: 'total', benutzt: 'used', frei: 'free', gemeinsam: 'shared', 'gemns.': 'shared', 'Puffer/Cache': 'buff_cache', 'Puffer/Zwischenspeicher': 'buff_cache', verfügbar: 'available', Puffer: 'buffers',
  'utilisé': 'used', libre: 'free', 'partagé': 'shared', 'tamp/cache': 'buff_cache', disponible: 'available',
  usado: 'used', libr: 'free', compartido: 'shared', 'búfer/caché': 'buff_cache',
});

const HUMAN = /^(\d+(?:[.,]\d+)?)([BKMGTPE]?)(i?)$/;
/** free's long unit options → bytes per unit */
const LONG_UNITS = lookupTable({
  '--bytes': 1, '--kibi': 1024, '--mebi': 1024 ** 2, '--gibi': 1024 ** 3, '--tebi': 1024 ** 4, '--pebi': 1024 ** 5,
  '--kilo': 1000, '--mega': 1e6, '--giga': 1e9, '--tera': 1e12, '--peta': 1e15,
});

class FreeSink extends FactsSink {
  private cols: string[] | null = null;
  private rawCols: string[] = [];
  private unit = 1024;
  private unitFromCommand = false;
  private sawHuman = false;
  /** an -h value with a bare unit ("25G"), read without the command line: binary or --si cannot be told apart */
  private bareHumanUnit = false;
  private readonly set = new SeriesSet();
  private reports = 0;
  private readonly last: Record<string, number> = {};
  /** free -h: each value as printed ("23Gi"), beside its bytes: [row label, column, printed, bytes, name] */
  private readonly printed: [string, string, string, number, string][] = [];
  private guessed = false;

  constructor() { super(['free']); }

  protected override onCommand(cmd: string): void {
    const w = cmd.split(/\s+/).slice(1);
    const si = w.includes('--si');
    const k = si ? 1000 : 1024;
    let unit = 0;
    for (const o of w) {
      if (LONG_UNITS[o] !== undefined) unit = LONG_UNITS[o]!;
      else if (/^-[a-zA-Z]+$/.test(o)) {
        for (const c of o.slice(1)) {
          if (c === 'b') unit = 1; else if (c === 'k') unit = k; else if (c === 'm') unit = k ** 2; else if (c === 'g') unit = k ** 3;
        }
      }
    }
    this.unit = unit || k;
    this.unitFromCommand = true;
  }

  private value(s: string, si: boolean): number {
    const m = HUMAN.exec(s);
    if (!m) return NaN;
    const v = Number(m[1]!.replace(',', '.'));
    if (m[2] === '' ) return m[3] ? NaN : v * this.unit;
    this.sawHuman = true;
    const p = 'BKMGTPE'.indexOf(m[2]!);
    // "Gi" is binary; bare "G" from old procps -h is binary too, unless --si was given
    if (m[3] !== 'i' && p > 0 && !this.unitFromCommand) this.bareHumanUnit = true;
    const base = m[3] === 'i' ? 1024 : si ? 1000 : 1024;
    return Math.round(v * base ** p);
  }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    const f = fields(t);
    // header: column names only
    if (f.every((x) => COLUMN_NAMES[x] !== undefined || x === 'buff/cache')) {
      this.cols = f.map((x) => COLUMN_NAMES[x] ?? x);
      this.rawCols = f;
      return;
    }
    if (!this.cols) { this.warn(lineNo, text); return; }
    const si = this.command?.includes('--si') ?? false;
    // "-/+ buffers/cache:     274456    8143260" (procps ≤ 3.3.9)
    if (t.startsWith('-/+ buffers/cache')) {
      const rest = fields(t.slice(t.indexOf(':') + 1));
      const used = this.value(rest[0] ?? '', si);
      const free = this.value(rest[1] ?? '', si);
      this.put('memory_used_excluding_cache_bytes', 'used', used, lineNo);
      this.put('memory_free_including_cache_bytes', 'free', free, lineNo);
      return;
    }
    const colon = t.indexOf(':') >= 0 ? t.indexOf(':') : t.indexOf('：');
    if (colon <= 0) { this.warn(lineNo, text); return; }
    const label = t.slice(0, colon).trim();
    const vals = fields(t.slice(colon + 1));
    let row: string;
    if (/^(Mem|内存|Speicher|Mém|Memoria)$/i.test(label)) { row = 'memory'; this.reports++; } else if (/^(Swap|交换|Auslagerung|Échange|Intercambio)$/i.test(label)) row = 'swap';
    else if (/^(Total|总量|Gesamt|Insgesamt)$/i.test(label)) row = 'memory_plus_swap';
    else if (/^(Low|High)$/i.test(label)) row = 'memory_' + label.toLowerCase();
    else if (/^Comm$/i.test(label)) row = 'commit';
    else { this.warn(lineNo, text); return; }
    const cols = this.cols;
    for (let i = 0; i < vals.length && i < cols.length; i++) {
      const v = this.value(vals[i]!, si);
      if (!Number.isFinite(v)) { this.warn(lineNo, text, `value "${vals[i]}"`); continue; }
      this.put(`${row}_${cols[i]}_bytes`, `${label}: ${this.rawCols[i] ?? cols[i]}`, v, lineNo);
      if (/[A-Za-z]$/.test(vals[i]!)) this.printed.push([label, this.rawCols[i] ?? cols[i]!, vals[i]!, v, `${row}_${cols[i]}_bytes`]);
    }
  }


  private put(name: string, column: string, v: number, lineNo: number): void {
    this.last[name] = v;
    this.set.push(name, column, 'B', undefined, v, lineNo);
  }

  /** Scale every value read so far (the unit turned out not to be KiB). Powers of two: exact. */
  private rescale(factor: number): void {
    const d = (x: number | null): number | null => (x === null ? null : x * factor);
    for (const s of this.set.list) {
      s.values = s.values.map((x) => x * factor);
      // a thinned series keeps exact statistics beside its points: scale them too
      const st = s.stats;
      if (st) s.stats = { ...st, first: d(st.first), min: d(st.min), max: d(st.max), last: d(st.last), sum: st.sum * factor, sumAll: st.sumAll * factor,
        ...(st.sumC !== undefined ? { sumC: st.sumC * factor } : {}), ...(st.sumAllC !== undefined ? { sumAllC: st.sumAllC * factor } : {}) };
    }
    for (const k of Object.keys(this.last)) this.last[k] = this.last[k]! * factor;
  }

  protected override finish(): void {
    if (!this.unitFromCommand && !this.sawHuman) {
      const total = this.last.memory_total_bytes;
      // Without the command line the unit is unknown. free's default is KiB, but a total that makes
      // no sense in KiB tells the unit: above 4 TiB it is bytes (-b); below 64 MiB of memory it is
      // MiB (-m), below 256 KiB GiB (-g) — no machine that runs these tools is that small.
      const kib = total === undefined ? undefined : total / 1024;
      const guess = kib === undefined ? undefined
        : kib > 4e9 ? { factor: 1 / 1024, flag: '-b', unit: 'bytes' }
        : kib < 256 ? { factor: 1024 ** 2, flag: '-g', unit: 'GiB' }
        : kib < 65536 ? { factor: 1024, flag: '-m', unit: 'MiB' }
        : undefined;
      if (guess) {
        this.rescale(guess.factor);
        this.warnings.push(`no command line: values look like ${guess.unit} (free ${guess.flag})`);
      } else if (total !== undefined) {
        this.guessed = true;
      }
    }
    if (this.guessed) this.warnings.push('no command line: values assumed to be KiB (free\'s default unit)');
    if (this.bareHumanUnit) {
      this.warnings.push('no command line: sizes printed as "25G" (no "i") were read as binary units, as free -h prints them before procps-ng 3.3.16; '
        + 'printed by free -h --si they are decimal and these figures are 5–10 % high — add the command line ($ free -h --si) to read them so');
    }
    for (const s of this.set.list) {
      const v = this.last[s.name]!;
      this.metrics.push({ name: s.name, value: v, unit: 'B', column: s.column, ...(s.lines ? { lines: [s.lines[1], s.lines[1]] as [number, number] } : {}) });
    }
    if (this.reports > 1) this.series.push(...this.set.list);
    if (this.last.memory_total_bytes !== undefined) this.facts.memory_total_bytes = this.last.memory_total_bytes;
    if (this.last.swap_total_bytes !== undefined) this.facts.swap_total_bytes = this.last.swap_total_bytes;
    // free -h: the human units kept as printed, beside the bytes they were converted to
    if (this.printed.length) {
      const as = (name: string) => this.printed.findLast((p) => p[4] === name)?.[2];
      const mem = as('memory_total_bytes');
      const swap = as('swap_total_bytes');
      if (mem !== undefined) this.facts.memory_total_printed = mem;
      if (swap !== undefined) this.facts.swap_total_printed = swap;
      const rows = this.printed.map(([row, column, text, bytes]) => [row, column, text, bytes] as (string | number | null)[]);
      this.tables = { ...(this.tables ?? {}), as_printed: { columns: ['row', 'column', 'printed', 'bytes'], rows } };
    }
  }

  private readonly series: Series[] = [];

  override end(): ParseOutput {
    const out = super.end();
    out.series = this.series;
    return out;
  }
}

export const freeParser: CaptureParser = {
  id: 'free',
  title: 'free (procps)',
  commands: [{ program: 'free' }],
  detect(head) {
    let header = false, mem = false, swap = false;
    const n = Math.min(head.length, 100);
    for (let i = 0; i < n; i++) {
      const l = head[i]!.trim();
      const f = fields(l);
      if (f.length >= 3 && f.every((x) => COLUMN_NAMES[x] !== undefined) && (f[0] === 'total' || COLUMN_NAMES[f[0]!] === 'total')) header = true;
      else if (/^(Mem|内存|Speicher|Mém|Memoria)\s*[:：]\s*\d/.test(l)) mem = true;
      else if (/^(Swap|交换|Auslagerung|Échange|Intercambio)\s*[:：]\s*\d/.test(l)) swap = true;
    }
    if (header && mem) return 0.95;
    if (mem && swap) return 0.7;
    if (headCommand(head, ['free']) !== undefined && (mem || header)) return 0.8;
    return 0;
  },
  open: () => new FreeSink(),
};
