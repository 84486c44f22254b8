/**
 * sysctl: `sysctl -a`, `sysctl KEY…`, `sysctl -w k=v` / `sysctl -p` echoes ("key = value"),
 * /etc/sysctl.conf and sysctl.d files ("key=value", # and ; comments, "-key" = ignore errors),
 * and `sysctl -n KEY…` (values only: mapped to the keys of the command line when it is shown).
 * Error lines ("sysctl: permission denied on key …", "cannot stat …", "error: …") are counted
 * into one warning per kind.
 */
import type { CaptureParser, LineSink, Metric, ParseOutput } from '../../types';
import { commandLine, commandWord, emptyOutput, lookupTable, num } from '../kit';
import { ErrorCounter, promptLine, warnIfEmpty } from './common';

/** the programs of a prompt line (or bare command line) that printed the capture: sysctl, or cat/grep of a conf file */
const TOOLS = ['sysctl', 'cat', 'grep'];

/** Top-level sysctl namespaces of Linux (and the BSDs' most common ones). */
const TOP = /^(?:kernel|vm|net|fs|dev|abi|debug|user|crypto|sunrpc|hw|kern|machdep|security|vfs)[./][\w.\-/:@+]*$/;
const KV = /^\s*(-?)([A-Za-z][\w.\-/:@+]*)\s*=\s?(.*)$/;
const ERR = /^(?:sysctl:\s*(.*)|(error:.*))$/;
/** BSD / macOS `sysctl -a`: "kern.ostype: FreeBSD" */
const KV_COLON = /^((?:kern|vm|hw|net|machdep|security|vfs|debug|dev|user|compat|p1003_1b)\.[\w.%-]+):\s?(.*)$/;
/** `grep -r . /proc/sys/net/ipv4/`: "/proc/sys/net/ipv4/tcp_tw_reuse:2" */
const KV_PROC = /^(\/proc\/sys\/[\w.\-/]+):(.*)$/;

/**
 * Keys of `sysctl -a` that are the kernel's running state, not settings: counters and ids that
 * differ between any two snapshots (fs.file-nr, kernel.ns_last_pid, kernel.random.uuid …, found by
 * diffing two `sysctl -a` taken seconds apart). They stay in the capture; a diff of two snapshots
 * leaves them out, so the config changes it proposes are only the settings someone changed.
 */
const STATE_KEYS = new Set([
  'fs.dentry-state', 'fs.file-nr', 'fs.inode-nr', 'fs.inode-state', 'fs.aio-nr', 'kernel.ns_last_pid', 'kernel.pty.nr',
  'kernel.random.uuid', 'kernel.random.boot_id', 'kernel.random.entropy_avail', 'net.netfilter.nf_conntrack_count',
  'fs.quota.allocated_dquots', 'fs.quota.cache_hits', 'fs.quota.drops', 'fs.quota.free_dquots', 'fs.quota.lookups',
  'fs.quota.reads', 'fs.quota.syncs', 'fs.quota.writes', 'dev.cdrom.info',
]);

/** Whether a sysctl key is the kernel's running state (a counter, an id) rather than a setting. */
export function isSysctlState(key: string): boolean {
  return STATE_KEYS.has(key) || key.startsWith('fs.binfmt_misc.');
}

/** Well-known numeric keys also given as metrics. */
const METRIC_KEYS = lookupTable<{ name: string; unit: string }>({
  'net.core.somaxconn': { name: 'net_core_somaxconn', unit: 'count' },
  'net.ipv4.tcp_max_tw_buckets': { name: 'net_ipv4_tcp_max_tw_buckets', unit: 'count' },
  'net.ipv4.tcp_max_syn_backlog': { name: 'net_ipv4_tcp_max_syn_backlog', unit: 'count' },
  'net.ipv4.tcp_fin_timeout': { name: 'net_ipv4_tcp_fin_timeout_seconds', unit: 's' },
  'net.ipv4.tcp_tw_reuse': { name: 'net_ipv4_tcp_tw_reuse', unit: 'count' },
  'net.ipv4.tcp_tw_recycle': { name: 'net_ipv4_tcp_tw_recycle', unit: 'count' },
  'net.core.netdev_max_backlog': { name: 'net_core_netdev_max_backlog', unit: 'count' },
  'fs.file-max': { name: 'fs_file_max', unit: 'count' },
  'fs.nr_open': { name: 'fs_nr_open', unit: 'count' },
  'vm.swappiness': { name: 'vm_swappiness', unit: 'count' },
  'vm.dirty_ratio': { name: 'vm_dirty_ratio_percent', unit: '%' },
  'vm.dirty_background_ratio': { name: 'vm_dirty_background_ratio_percent', unit: '%' },
  'vm.max_map_count': { name: 'vm_max_map_count', unit: 'count' },
});

function normKey(k: string): string {
  // sysctl accepts "net/ipv4/tcp_tw_reuse"; sysctl -a prints dots
  return k.indexOf('.') < 0 && k.indexOf('/') >= 0 ? k.replace(/\//g, '.') : k;
}

function isSysctlCommand(cmd: string): boolean {
  const w = commandWord(cmd);
  if (w === 'cat' || w === 'grep') return /\s\/proc\/sys\//.test(cmd);
  return w === 'sysctl' && /(^|\s|\/)sysctl(\s+-|\s+[a-z][\w-]*[./][\w.\-/]|\s*$)/.test(cmd);
}

/** "/proc/sys/net/ipv4/tcp_tw_reuse" → "net.ipv4.tcp_tw_reuse" */
function procSysKey(path: string): string {
  return path.replace(/^\/proc\/sys\//, '').replace(/\//g, '.');
}

/** The keys named on a `sysctl -n k1 k2` command line (undefined when it is not one). */
function valuesOnlyKeys(cmd: string): string[] | undefined {
  const words = cmd.trim().split(/\s+/);
  if (commandWord(cmd) === 'cat') {
    // cat /proc/sys/a/b [/proc/sys/c/d …]: one value line per file, in order
    const files: string[] = [];
    for (const w of words.slice(words.findIndex((x) => /(^|\/)cat$/.test(x)) + 1)) {
      if (w === '|' || w === ';' || w === '&&' || w.startsWith('>')) break;
      if (w.startsWith('-')) continue;
      if (!/^\/proc\/sys\/[\w.\-/]+$/.test(w)) return undefined;
      files.push(procSysKey(w));
    }
    return files.length ? files : undefined;
  }
  const i = words.findIndex((w) => /(^|\/)sysctl$/.test(w));
  if (i < 0) return undefined;
  let n = false;
  const keys: string[] = [];
  for (const w of words.slice(i + 1)) {
    if (w === '|' || w === ';' || w === '&&' || w.startsWith('>') || w.startsWith('2>')) break;
    if (/^-[A-Za-z]+$/.test(w)) { if (w.includes('n') || w === '--values') n = true; continue; }
    if (w === '--values') { n = true; continue; }
    if (/^[a-z][\w.\-/]*$/.test(w) && !w.includes('=')) keys.push(normKey(w));
  }
  return n && !words.slice(i + 1).some((w) => /^-\w*a/.test(w)) ? keys : undefined;
}

export const sysctl: CaptureParser = {
  id: 'sysctl',
  title: 'sysctl (-a, keys, -w/-p echoes, sysctl.conf, /proc/sys)',
  commands: [{ program: 'sysctl' }, { program: 'cat', args: /sysctl[^\s]*\.conf\b/ }],
  detect(head) {
    let kv = 0, kernelKv = 0, other = 0, errs = 0, cmd = false, valuesOnly = false, total = 0;
    for (const raw of head) {
      const line = raw.trim();
      if (!line) continue;
      if (total++ > 400) break;
      if (line.startsWith('#') || line.startsWith(';')) {
        const c = commandLine(line, TOOLS);
        if (c && isSysctlCommand(c)) { cmd = true; if (valuesOnlyKeys(c)) valuesOnly = true; }
        continue;
      }
      const c = commandLine(line, TOOLS, { bare: true });
      if (c && isSysctlCommand(c)) { cmd = true; if (valuesOnlyKeys(c)) valuesOnly = true; continue; }
      if (ERR.test(line)) { errs++; continue; }
      const m = KV.exec(line);
      if (m) { kv++; if (TOP.test(m[2]!)) kernelKv++; continue; }
      if (KV_COLON.test(line) || KV_PROC.test(line)) { kv++; kernelKv++; continue; }
      other++;
    }
    if (valuesOnly) return 0.5;
    if (kernelKv === 0) return cmd && errs > 0 ? 0.5 : 0;
    const ratio = kernelKv / Math.max(1, kv + other);
    if (ratio < 0.5) return 0;
    let c = kernelKv >= 20 ? 0.92 : kernelKv >= 5 ? 0.85 : 0.7;
    if (ratio < 0.8) c -= 0.2;
    if (cmd) c += 0.06;
    if (errs) c += 0.02;
    return Math.min(0.98, c);
  },
  open(): LineSink {
    const out: ParseOutput = emptyOutput();
    const firstLine = new Map<string, number>();
    const keyLine = new Map<string, number>();
    const errors = new ErrorCounter();
    const dups: string[] = [];
    let dupCount = 0;
    let pendingKeys: string[] | undefined;
    let valuesOnlyIndex = 0;
    let unread = 0;
    let lastKey = '';
    let lastLine = -1;
    let fromConf = false;
    /** A sysctl command line (a prompt line keeps the first as the capture's): `sysctl -n k1 k2` maps the values below it to keys. */
    const takeCommand = (c: string, told = false): void => {
      if (told) out.command = c; else out.command ??= c;
      pendingKeys = valuesOnlyKeys(c);
      valuesOnlyIndex = 0;
    };
    return {
      /** the command line told from outside the text (a capture kit's manifest), read as a prompt line */
      setCommand(cmd) {
        if (isSysctlCommand(cmd)) takeCommand(cmd, true);
      },
      line(text, lineNo) {
        const line = text.trim();
        if (!line) return;
        if (line.startsWith('#') || line.startsWith(';')) {
          const c = commandLine(line, TOOLS);
          if (c && isSysctlCommand(c)) takeCommand(c);
          return;
        }
        const c = commandLine(line, TOOLS, { bare: true });
        if (c && isSysctlCommand(c) && !KV.test(line)) {
          takeCommand(c);
          return;
        }
        const e = ERR.exec(line);
        if (e) {
          const msg = e[1] ?? e[2] ?? '';
          const kind = /permission denied/i.test(msg) ? 'permission denied'
            : /cannot stat|no such file/i.test(msg) ? 'unknown key'
              : /unknown key/i.test(msg) ? 'unknown key'
                : /^error/i.test(msg) ? 'error'
                  : /reading key/i.test(msg) ? 'error reading key' : 'other';
          errors.add(kind, lineNo, line);
          return;
        }
        if (pendingKeys) {
          // sysctl -n: one value per key, in command-line order
          const key = pendingKeys[valuesOnlyIndex++];
          if (key !== undefined) { out.settings[key] = line; keyLine.set(key, lineNo); return; }
        }
        let m = KV.exec(text);
        if (!m) {
          const b = KV_COLON.exec(line);
          if (b) m = ['', '', b[1]!, b[2]!] as unknown as RegExpExecArray;
          const p = KV_PROC.exec(line);
          if (p) m = ['', '', procSysKey(p[1]!), p[2]!] as unknown as RegExpExecArray;
        }
        if (!m) {
          if (/^(sysctl from procps|sysctl \(procps)/i.test(line)) { out.toolVersion = line; return; }
          if (promptLine(out, line)) return;
          if (++unread <= 50) out.warnings.push(`line ${lineNo}: could not read "${line.slice(0, 80)}"`);
          return;
        }
        const key = normKey(m[2]!);
        const value = m[3]!.replace(/\s+$/, '');
        if (key === lastKey && lineNo === lastLine + 1 && !fromConf) {
          // sysctl prints a multi-line value as one "key = line" per line (kernel.core_modes)
          out.settings[key] = `${out.settings[key] ?? ''}\n${value}`;
          lastLine = lineNo;
          keyLine.set(key, lineNo);
          return;
        }
        lastKey = key;
        lastLine = lineNo;
        if (m[1] === '-' || /^\S+=/.test(line)) fromConf = true;
        if (key in out.settings && out.settings[key] !== value) {
          dupCount++;
          if (dups.length < 5) dups.push(`${key} (lines ${firstLine.get(key)} and ${lineNo})`);
        } else if (!firstLine.has(key)) firstLine.set(key, lineNo);
        out.settings[key] = value;
        keyLine.set(key, lineNo);
      },
      end() {
        if (unread > 50) out.warnings.push(`${unread - 50} more lines could not be read`);
        if (dupCount) out.warnings.push(`${dupCount} keys set more than once with different values; the last value wins: ${dups.join(', ')}${dupCount > dups.length ? ', …' : ''}`);
        out.warnings.push(...errors.warnings('keys could not be read'));
        if (errors.size) out.facts.sysctl_unreadable_keys = errors.size;
        const metrics: Metric[] = [];
        for (const [key, spec] of Object.entries(METRIC_KEYS)) {
          const v = out.settings[key];
          if (v === undefined) continue;
          const n = num(v.trim());
          if (Number.isFinite(n)) { const l = keyLine.get(key) ?? 0; metrics.push({ name: spec.name, value: n, unit: spec.unit, column: key, lines: [l, l] }); }
        }
        const range = out.settings['net.ipv4.ip_local_port_range'];
        if (range !== undefined) {
          const p = range.trim().split(/\s+/).map((x) => num(x));
          const lo = p[0], hi = p[1];
          if (lo !== undefined && hi !== undefined && Number.isFinite(lo) && Number.isFinite(hi) && hi >= lo) {
            const l = keyLine.get('net.ipv4.ip_local_port_range') ?? 0;
            metrics.push({ name: 'local_port_range_size', value: hi - lo + 1, unit: 'count', column: 'net.ipv4.ip_local_port_range', lines: [l, l] });
          }
        }
        out.metrics.push(...metrics);
        return warnIfEmpty(out, 'sysctl settings');
      },
    };
  },
};
