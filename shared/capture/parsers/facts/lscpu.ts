/** lscpu (util-linux 2.2x–2.4x; plain "Key: value" and `lscpu -J` JSON) → CPU facts. */
import type { CaptureParser, FactValue } from '../../types';
import { FactsSink, cacheBytes, headHasCommand, keyValue, metric } from './common';

/** Canonical lscpu field → localized spellings seen in the wild (zh_CN, de, fr, es). */
const ALIASES: Record<string, string> = {
  '架构': 'Architecture', 'Architektur': 'Architecture',
  'CPU': 'CPU(s)', 'CPU(s)': 'CPU(s)', 'CPU(s)：': 'CPU(s)', 'Processeur(s)': 'CPU(s)', 'CPU(s) disponibles': 'CPU(s)',
  '型号名称': 'Model name', 'Modellname': 'Model name', 'Nom de modèle': 'Model name', 'Nombre del modelo': 'Model name',
  '每个核的线程数': 'Thread(s) per core', 'Thread(s) pro Kern': 'Thread(s) per core', 'Thread(s) par cœur': 'Thread(s) per core',
  '每个座的核数': 'Core(s) per socket', 'Kern(e) pro Sockel': 'Core(s) per socket', 'Kern(e) pro Socket': 'Core(s) per socket', 'Cœur(s) par socket': 'Core(s) per socket',
  '座': 'Socket(s)', 'Sockel': 'Socket(s)', 'Socket(s)': 'Socket(s)',
  '厂商 ID': 'Vendor ID', '厂商ID': 'Vendor ID', 'Anbieterkennung': 'Vendor ID',
  '超管理器厂商': 'Hypervisor vendor', 'Hypervisor-Anbieter': 'Hypervisor vendor',
  '虚拟化类型': 'Virtualization type', 'Virtualisierungstyp': 'Virtualization type',
  'CPU MHz': 'CPU MHz', 'CPU 最大 MHz': 'CPU max MHz', 'Maximale Taktfrequenz der CPU': 'CPU max MHz',
  'NUMA 节点': 'NUMA node(s)', 'NUMA-Knoten': 'NUMA node(s)',
  '虚拟化': 'Virtualization', 'Virtualisierung': 'Virtualization',
};

export class LscpuReader {
  readonly fields = new Map<string, string>();
  readonly lines = new Map<string, number>();

  add(rawKey: string, value: string, lineNo: number): void {
    const key = rawKey.replace(/[:：]\s*$/, '').trim();
    const canon = ALIASES[key] ?? key;
    if (!this.fields.has(canon)) { this.fields.set(canon, value); this.lines.set(canon, lineNo); }
  }

  facts(): Record<string, FactValue> {
    const f = this.fields;
    const out: Record<string, FactValue> = {};
    const int = (k: string) => { const v = parseInt(f.get(k) ?? '', 10); return Number.isFinite(v) ? v : undefined; };
    const model = f.get('Model name');
    if (model) out.cpu_model = model;
    const vendor = f.get('Vendor ID');
    if (vendor) out.cpu_vendor = vendor;
    const arch = f.get('Architecture');
    if (arch) out.arch = arch;
    const threads = int('CPU(s)');
    if (threads !== undefined) out.cpu_threads = threads;
    // ARM lscpu says "Cluster(s)" / "Core(s) per cluster" when the socket count is unknown
    const sockets = int('Socket(s)') ?? int('Book(s)') ?? int('Cluster(s)');
    if (sockets !== undefined) out.cpu_sockets = sockets;
    const perSocket = int('Core(s) per socket') ?? int('Core(s) per cluster');
    if (perSocket !== undefined && sockets !== undefined) out.cpu_cores = perSocket * sockets;
    else {
      const tpc = int('Thread(s) per core');
      if (tpc && threads !== undefined) out.cpu_cores = Math.round(threads / tpc);
    }
    const tpc = int('Thread(s) per core');
    if (tpc !== undefined) out.cpu_threads_per_core = tpc;
    const mhz = parseFloat(f.get('CPU MHz') ?? f.get('CPU max MHz') ?? '');
    if (Number.isFinite(mhz)) out.cpu_mhz = mhz;
    const maxMhz = parseFloat(f.get('CPU max MHz') ?? '');
    if (Number.isFinite(maxMhz)) out.cpu_max_mhz = maxMhz;
    const numa = int('NUMA node(s)');
    if (numa !== undefined) out.numa_nodes = numa;
    const hv = f.get('Hypervisor vendor');
    if (hv) out.virtualization = hv;
    else if (f.get('Virtualization type')) out.virtualization = f.get('Virtualization type')!;
    const vt = f.get('Virtualization type');
    if (vt) out.virtualization_type = vt;
    const hwVirt = f.get('Virtualization');
    if (hwVirt) out.cpu_hw_virtualization = hwVirt;
    for (const [k, name] of [['L1d cache', 'l1d'], ['L1i cache', 'l1i'], ['L2 cache', 'l2'], ['L3 cache', 'l3']] as const) {
      const v = f.get(k);
      if (v === undefined) continue;
      const b = cacheBytes(v);
      if (Number.isFinite(b)) out[`cpu_${name}_cache_bytes`] = b;
    }
    const flags = f.get('Flags');
    if (flags) out.cpu_flags = flags.split(/\s+/).filter(Boolean);
    return out;
  }
}

function flatten(node: unknown, r: LscpuReader, lineNo: number): void {
  if (Array.isArray(node)) { for (const n of node) flatten(n, r, lineNo); return; }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (typeof o.field === 'string') r.add(o.field, o.data === null || o.data === undefined ? '' : String(o.data), lineNo);
  if (o.children) flatten(o.children, r, lineNo);
  if (o.lscpu) flatten(o.lscpu, r, lineNo);
}

class LscpuSink extends FactsSink {
  private readonly r = new LscpuReader();
  private json: string[] | null = null;
  private jsonFirst = 0;
  private mode: 'unknown' | 'plain' | 'json' = 'unknown';

  constructor() { super(['lscpu']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    if (this.mode === 'unknown' && t.startsWith('{')) { this.mode = 'json'; this.json = []; this.jsonFirst = lineNo; }
    if (this.mode === 'json') { this.json?.push(text); return; }
    this.mode = 'plain';
    const kv = keyValue(text);
    if (!kv || kv[0] === '') { this.warn(lineNo, text); return; }
    this.r.add(kv[0], kv[1], lineNo);
  }

  protected override finish(): void {
    if (this.json) {
      try { flatten(JSON.parse(this.json.join('\n')), this.r, this.jsonFirst); } catch {
        this.warnings.push(`line ${this.jsonFirst}: could not read lscpu JSON (not valid JSON, truncated?)`);
      }
    }
    Object.assign(this.facts, this.r.facts());
    for (const [k, v] of this.r.fields) if (k !== 'Flags') this.settings[k] = v;
    const threads = this.facts.cpu_threads;
    if (typeof threads === 'number') this.metrics.push(metric('cpu_threads', threads, 'count', this.r.lines.get('CPU(s)'), 'CPU(s)'));
    const cores = this.facts.cpu_cores;
    if (typeof cores === 'number') this.metrics.push(metric('cpu_cores', cores, 'count', this.r.lines.get('Core(s) per socket'), 'Core(s) per socket'));
  }
}

export const lscpuParser: CaptureParser = {
  id: 'lscpu',
  title: 'lscpu',
  detect(head) {
    let score = 0;
    const n = Math.min(head.length, 200);
    let arch = false, cpus = false, other = false;
    for (let i = 0; i < n; i++) {
      const l = head[i]!;
      if (/^\s*"lscpu"\s*:\s*\[/.test(l) || /^\{\s*"lscpu"\s*:/.test(l)) return 0.97;
      if (/^(Architecture|架构|Architektur)\s*[:：]/.test(l)) arch = true;
      else if (/^(CPU\(s\)|CPU)\s*[:：]\s*\d+\s*$/.test(l)) cpus = true;
      else if (/^(Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|Model name|On-line CPU\(s\) list|每个核的线程数)\s*[:：]/.test(l)) other = true;
    }
    if (arch && cpus && other) score = 0.95;
    else if (arch && (cpus || other)) score = 0.8;
    if (score === 0 && headHasCommand(head, ['lscpu'])) score = 0.6;
    return score;
  },
  open: () => new LscpuSink(),
};
