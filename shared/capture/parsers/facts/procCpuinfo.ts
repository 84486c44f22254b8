/** /proc/cpuinfo (x86, ARM, POWER, s390 layouts) → CPU facts and a per-processor table. */
import type { CaptureParser } from '../../types';
import { headCommand, metric } from '../kit';
import { FactsSink } from './common';

const COLS = ['processor', 'model name', 'physical id', 'core id', 'cpu cores', 'siblings', 'cpu MHz'] as const;

class CpuinfoSink extends FactsSink {
  private cur: Map<string, string> | null = null;
  private readonly procs: Map<string, string>[] = [];
  private readonly global = new Map<string, string>();
  private first = 0;
  private last = 0;

  constructor() { super(['cat', 'less', 'more', 'head', 'tail']); }

  protected read(text: string, lineNo: number): void {
    if (text.trim() === '') return;
    const i = text.indexOf(':');
    if (i <= 0) { this.warn(lineNo, text); return; }
    const key = text.slice(0, i).trim();
    const value = text.slice(i + 1).trim();
    if (!this.first) this.first = lineNo;
    this.last = lineNo;
    if (key === 'processor') {
      this.cur = new Map([[key, value]]);
      this.procs.push(this.cur);
      return;
    }
    // ARM prints "Hardware", "Revision", "Serial" after all processors; some keys come before the first one
    if (this.cur && !/^(Hardware|Revision|Serial|Model)$/.test(key)) this.cur.set(key, value);
    else if (!this.global.has(key)) this.global.set(key, value);
  }

  protected override finish(): void {
    const procs = this.procs;
    const get = (k: string) => {
      for (const p of procs) { const v = p.get(k); if (v !== undefined && v !== '') return v; }
      return this.global.get(k);
    };
    const model = get('model name') ?? get('Processor') ?? get('cpu') ?? get('Model') ?? get('Hardware');
    if (model) this.facts.cpu_model = model;
    const vendor = get('vendor_id') ?? get('CPU implementer') ?? get('vendor_id');
    if (vendor) this.facts.cpu_vendor = vendor;
    if (procs.length) this.facts.cpu_threads = procs.length;
    const phys = new Set<string>();
    const cores = new Set<string>();
    for (const p of procs) {
      const ph = p.get('physical id');
      const co = p.get('core id');
      if (ph !== undefined) phys.add(ph);
      if (ph !== undefined && co !== undefined) cores.add(ph + '/' + co);
    }
    if (phys.size) this.facts.cpu_sockets = phys.size;
    if (cores.size) this.facts.cpu_cores = cores.size;
    else {
      const cc = parseInt(get('cpu cores') ?? '', 10);
      if (cc > 0) this.facts.cpu_cores = cc * (phys.size || 1);
    }
    const mhz = parseFloat(get('cpu MHz') ?? get('clock') ?? '');
    if (Number.isFinite(mhz)) this.facts.cpu_mhz = mhz;
    const flags = get('flags') ?? get('Features');
    if (flags) {
      const list = flags.split(/\s+/).filter(Boolean);
      this.facts.cpu_flags = list;
      if (list.includes('hypervisor')) this.facts.cpu_hypervisor_flag = true;
    }
    const cache = get('cache size');
    if (cache) this.facts.cpu_cache_size = cache;
    if (procs.length) {
      this.metrics.push(metric('cpu_threads', procs.length, 'count', { column: 'processor', lines: [this.first, this.last] }));
      this.tables = { processors: { columns: [...COLS], rows: procs.map((p) => COLS.map((c) => { const v = p.get(c); if (v === undefined) return null; const n = Number(v); return v !== '' && Number.isFinite(n) ? n : v; })) } };
    }
  }
}

export const procCpuinfoParser: CaptureParser = {
  id: 'proc-cpuinfo',
  title: '/proc/cpuinfo',
  commands: [{ program: 'cat', args: /\/proc\/cpuinfo\b/ }],
  detect(head) {
    let proc = false, other = 0;
    const n = Math.min(head.length, 400);
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (/^processor\s*:\s*\d+\s*$/.test(l)) proc = true;
      else if (/^(vendor_id|model name|cpu family|cpu MHz|cache size|physical id|core id|flags|bogomips|BogoMIPS|CPU implementer|CPU architecture|Features)\s*:/.test(l)) other++;
    }
    if (proc && other >= 2) return 0.95;
    if (proc && other === 1) return 0.7;
    if (other >= 3 && headCommand(head, ['cat']) !== undefined && head.some((l) => /\/proc\/cpuinfo/.test(l))) return 0.8;
    return 0;
  },
  open: () => new CpuinfoSink(),
};
