/**
 * ulimit: `ulimit -a` as bash, busybox (old "-n: file descriptors 1024" and new bash-like), dash,
 * zsh ("-n: file descriptors 1024", "-N 15: rt cpu time …") and mksh print it; `ulimit -X` (one
 * value, only when the command line is shown); /proc/<pid>/limits.
 * Settings keys are the canonical resource names (nofile, nproc, core, stack, memlock …); hard
 * limits (`ulimit -H`, /proc/<pid>/limits "Hard Limit") get a ".hard" suffix.
 */
import type { CaptureParser, LineSink, ParseOutput } from '../../types';
import { commandLine, emptyOutput, lookupTable } from '../kit';
import { promptLine, warnIfEmpty } from './common';

/** the programs of a prompt line that prints limits: ulimit (a shell builtin: also `bash -c 'ulimit -a'`), prlimit, cat of /proc/PID/limits */
const TOOLS = ['ulimit', 'bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'busybox', 'ash', 'cat', 'prlimit'];

/** Descriptions as shells and /proc/<pid>/limits print them (lowercase, units removed) → resource. */
const DESC = lookupTable({
  'core file size': 'core', coredump: 'core', core: 'core',
  'data seg size': 'data', data: 'data', 'data size': 'data',
  'scheduling priority': 'nice', 'max nice': 'nice', nice: 'nice', 'nice priority': 'nice',
  'file size': 'fsize', file: 'fsize',
  'pending signals': 'sigpending',
  'max locked memory': 'memlock', 'locked memory': 'memlock', 'locked-in-memory size': 'memlock', memlock: 'memlock',
  'max memory size': 'rss', 'resident set size': 'rss', memory: 'rss', 'resident set': 'rss',
  'open files': 'nofile', nofiles: 'nofile', nofile: 'nofile', 'file descriptors': 'nofile', descriptors: 'nofile',
  'pipe size': 'pipe',
  'posix message queues': 'msgqueue', 'bytes in posix msg queues': 'msgqueue', 'msgqueue size': 'msgqueue',
  'real-time priority': 'rtprio', 'max rt priority': 'rtprio', rtprio: 'rtprio', 'realtime priority': 'rtprio',
  'stack size': 'stack', stack: 'stack',
  'cpu time': 'cpu', time: 'cpu',
  'max user processes': 'nproc', processes: 'nproc', process: 'nproc', 'child processes': 'nproc', nproc: 'nproc',
  'virtual memory': 'as', 'address space': 'as', vmemory: 'as',
  'file locks': 'locks', locks: 'locks',
  'real-time non-blocking time': 'rttime', 'rt cpu time': 'rttime', 'realtime timeout': 'rttime', rttime: 'rttime',
  'socket buffer size': 'sbsize', sbsize: 'sbsize',
  'pseudo-terminals': 'npts', pseudoterminals: 'npts', ptys: 'npts',
  'max user threads': 'nthr', threads: 'nthr', 'max kqueues': 'kqueues', kqueues: 'kqueues',
  'swap size': 'swap', swap: 'swap', swapsize: 'swap',
  // ksh93 (shtab_limits)
  'address space limit': 'as', 'locked address space': 'memlock', 'message queue size': 'msgqueue',
  'pipe buffer size': 'pipe', sigpend: 'sigpending', 'process size': 'as', 'number of file locks': 'locks',
  'number of threads': 'nthr', 'number of processes': 'nproc', 'number of open files': 'nofile',
});

/** bash option letters (used when the description is not one we know). */
const LETTER = lookupTable({
  R: 'rttime', b: 'sbsize', c: 'core', d: 'data', e: 'nice', f: 'fsize', i: 'sigpending', k: 'kqueues',
  l: 'memlock', m: 'rss', n: 'nofile', p: 'pipe', q: 'msgqueue', r: 'rtprio', s: 'stack', t: 'cpu',
  u: 'nproc', v: 'as', x: 'locks', P: 'npts', T: 'nthr', w: 'swap', M: 'as',
});

const VALUE = /^(?:\d+|unlimited|infinity)$/i;
const BASH = /^([^\s()\d-][^()]*?(?:\([^()]*\)[^()]*?)?)\s*\((?:([^()]*?),\s*)?-([A-Za-z])\)\s+(\S+)\s*$/;
const ZSH = /^-([A-Za-z])(?:\s+(\d+))?:\s+(.+?)\s+(\S+)\s*$/;
const PLAIN = /^([A-Za-z][A-Za-z -]*?)\s*(?:\(([^()]*)\))?\s+(\S+)\s*$/;
const PROC_HEAD = /^Limit\s+Soft Limit\s+Hard Limit\s+Units\s*$/;
/** util-linux prlimit: "RESOURCE DESCRIPTION SOFT HARD UNITS" */
const PRLIMIT_HEAD = /^RESOURCE\s+DESCRIPTION\s+SOFT\s+HARD(?:\s+UNITS)?\s*$/;
const PRLIMIT_ROW = /^(AS|CORE|CPU|DATA|FSIZE|LOCKS|MEMLOCK|MSGQUEUE|NICE|NOFILE|NPROC|RSS|RTPRIO|RTTIME|SIGPENDING|STACK)\s+.*?\s(\d+|unlimited)\s+(\d+|unlimited)(?:\s+([a-z]+))?\s*$/;
const PROC_ROW = /^(Max [A-Za-z ]+?)\s{2,}(\S+)\s+(\S+)(?:\s+(\S+))?\s*$/;

function descKey(desc: string): string | undefined {
  const d = desc.toLowerCase().replace(/\([^()]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  return DESC[d] ?? DESC[d.replace(/^max(imum)? /, '')];
}

interface Row { key: string; value: string; kind: 'bash' | 'zsh' | 'plain' }

function readRow(line: string): Row | undefined {
  if (line.length > 200) return undefined;
  let m = BASH.exec(line);
  if (m && VALUE.test(m[4]!)) {
    const key = descKey(m[1]!) ?? LETTER[m[3]!];
    return key ? { key, value: m[4]!, kind: 'bash' } : undefined;
  }
  m = ZSH.exec(line);
  if (m && VALUE.test(m[4]!)) {
    const key = descKey(m[3]!) ?? (m[2] === undefined ? LETTER[m[1]!] : undefined) ?? (m[2] !== undefined ? `resource${m[2]}` : undefined);
    return key ? { key, value: m[4]!, kind: 'zsh' } : undefined;
  }
  m = PLAIN.exec(line);
  if (m && VALUE.test(m[3]!)) {
    const key = descKey(m[1]!);
    return key ? { key, value: m[3]!, kind: 'plain' } : undefined;
  }
  return undefined;
}

/** For "ulimit -n" / "ulimit -Hn" / "ulimit -S -c": the resource a lone value belongs to. */
function singleOption(cmd: string): { key: string; hard: boolean } | undefined {
  const words = cmd.trim().split(/\s+/);
  const i = words.findIndex((w) => w === 'ulimit' || w.endsWith('/ulimit'));
  if (i < 0) return undefined;
  let hard = false, soft = false;
  const letters: string[] = [];
  for (const w of words.slice(i + 1)) {
    if (w === '|' || w === ';' || w === '&&') break;
    if (!/^-[A-Za-z]+$/.test(w)) return undefined; // ulimit -n 4096 sets, prints nothing
    for (const ch of w.slice(1)) {
      if (ch === 'H') hard = true; else if (ch === 'S') soft = true; else if (ch === 'a') return undefined; else letters.push(ch);
    }
  }
  if (letters.length > 1) return undefined;
  const key = LETTER[letters[0] ?? 'f'];
  return key ? { key, hard: hard && !soft } : undefined;
}

function isHardAll(cmd: string): boolean {
  const words = cmd.split(/\s+/);
  const opts = words.filter((w) => /^-[A-Za-z]+$/.test(w)).join('');
  return opts.includes('H') && !opts.includes('S');
}

function ulimitCommand(line: string): string | undefined {
  const c = commandLine(line, TOOLS);
  if (c && /(^|[\s'"/])(?:ulimit|prlimit)(\s|$|['"])|\/limits\b/.test(c)) return c;
  const t = line.trim();
  if (/^(?:sudo\s+)?ulimit(?:\s+-[A-Za-z]+)*\s*$/.test(t)) return t;
  return undefined;
}

export const ulimit: CaptureParser = {
  id: 'ulimit',
  title: 'ulimit -a / /proc/<pid>/limits',
  commands: [{ program: 'ulimit' }, { program: 'cat', args: /\/proc\/\S+\/limits\b/ }],
  detect(head) {
    let bash = 0, zsh = 0, plain = 0, proc = 0, other = 0, n = 0;
    let single: { key: string } | undefined;
    let lone = false;
    let cmd = false;
    for (const raw of head) {
      const line = raw.trim();
      if (!line) continue;
      if (n++ > 200) break;
      const c = ulimitCommand(line);
      if (c) { cmd = true; single = singleOption(c); continue; }
      if (PROC_HEAD.test(line) || PRLIMIT_HEAD.test(line)) { proc += 5; continue; }
      if (line.length < 300 && PRLIMIT_ROW.test(line)) { proc++; continue; }
      if (line.length < 300 && PROC_ROW.test(line) && descKey(line.replace(/\s{2,}.*$/, ''))) { proc++; continue; }
      const r = readRow(line);
      if (r) { if (r.kind === 'bash') bash++; else if (r.kind === 'zsh') zsh++; else plain++; continue; }
      if (single && VALUE.test(line)) { lone = true; continue; }
      other++;
    }
    if (proc >= 5) return proc >= 8 ? 0.97 : 0.9;
    const strong = bash + zsh;
    const rows = strong + plain;
    if (lone && rows === 0 && other === 0) return 0.8;
    if (rows === 0) return 0;
    if (strong === 0 && plain < 3 && !cmd) return 0;
    const ratio = rows / (rows + other);
    if (ratio < 0.5) return 0;
    let c = strong >= 5 ? 0.95 : strong >= 2 ? 0.8 : plain >= 5 ? 0.8 : 0.55;
    if (ratio < 0.8) c -= 0.2;
    if (cmd) c = Math.min(0.98, c + 0.1);
    return c;
  },
  open(): LineSink {
    const out: ParseOutput = emptyOutput();
    let hardAll = false;
    let single: { key: string; hard: boolean } | undefined;
    let inProc = false;
    let unread = 0;
    const set = (key: string, value: string) => { out.settings[key] = value; };
    const takeCommand = (c: string) => {
      hardAll = isHardAll(c);
      single = singleOption(c);
    };
    return {
      /** the command line told from outside the text (a capture kit's manifest): `ulimit -n` names the lone value, `-H` the hard limits */
      setCommand(cmd) {
        out.command = cmd;
        takeCommand(cmd);
      },
      line(text, lineNo) {
        const line = text.trim();
        if (!line) return;
        const c = ulimitCommand(line);
        if (c) {
          out.command ??= c;
          takeCommand(c);
          return;
        }
        if (PROC_HEAD.test(line) || PRLIMIT_HEAD.test(line)) { inProc = true; single = undefined; return; }
        const pr = line.length < 300 ? PRLIMIT_ROW.exec(line) : null;
        if (pr) {
          const key = pr[1]!.toLowerCase();
          set(key, pr[2]!);
          set(`${key}.hard`, pr[3]!);
          if (pr[4]) out.facts[`limit_unit_${key}`] = pr[4];
          return;
        }
        if ((inProc || /^Max /.test(line)) && line.length < 300) {
          const m = PROC_ROW.exec(line);
          const key = m ? descKey(m[1]!) : undefined;
          if (m && key) {
            set(key, m[2]!);
            set(`${key}.hard`, m[3]!);
            if (m[4]) out.facts[`limit_unit_${key}`] = m[4];
            return;
          }
        }
        const r = readRow(line);
        if (r) { set(hardAll ? `${r.key}.hard` : r.key, r.value); single = undefined; return; }
        if (single && VALUE.test(line)) {
          set(single.hard ? `${single.key}.hard` : single.key, line);
          single = undefined;
          return;
        }
        if (/^(?:-?\w*sh|bash|zsh|dash|busybox|ulimit)?:?\s*(?:line \d+: )?ulimit:/.test(line)) {
          out.warnings.push(`line ${lineNo}: ${line.slice(0, 120)}`);
          return;
        }
        if (promptLine(out, line)) return;
        if (++unread <= 50) out.warnings.push(`line ${lineNo}: could not read "${line.slice(0, 80)}"`);
      },
      end() {
        if (unread > 50) out.warnings.push(`${unread - 50} more lines could not be read`);
        return warnIfEmpty(out, 'ulimit limits');
      },
    };
  },
};
