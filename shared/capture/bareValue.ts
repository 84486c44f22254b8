/**
 * A capture that is one bare value saved on its own — `ulimit -n > ulimit-n.txt` (20000),
 * `sysctl -n net.core.somaxconn > somaxconn.txt` (4096), `ss -tan state time-wait | wc -l >
 * tw-count.txt` — says nothing about what it is: only the file's name can. When the content alone
 * is no known capture, a name this table knows settles the kind, with a lower confidence and a
 * warning that says so. Each entry rewrites the value as the line its parser reads.
 */

export interface BareValue {
  kind: string;
  /** the line the kind's parser reads, standing for the bare value */
  line: string;
  /** what the file name was taken to mean, for the warning */
  meaning: string;
}

const VALUE = /^\s*(\d+(?:[ \t]+\d+)*|unlimited)\s*$/i;

/** sysctl keys a bare value's file may be named after (also any name that is itself a key: net.core.somaxconn.txt) */
const SYSCTL_BY_NAME: [RegExp, string][] = [
  [/somaxconn/i, 'net.core.somaxconn'],
  [/tcp[-_.]?max[-_.]?syn[-_.]?backlog/i, 'net.ipv4.tcp_max_syn_backlog'],
  [/tcp[-_.]?max[-_.]?tw[-_.]?buckets/i, 'net.ipv4.tcp_max_tw_buckets'],
  [/tcp[-_.]?tw[-_.]?reuse/i, 'net.ipv4.tcp_tw_reuse'],
  [/file[-_.]?max/i, 'fs.file-max'],
  [/swappiness/i, 'vm.swappiness'],
];

/**
 * Socket counts by state (`ss -tan state time-wait | wc -l > tw-count.txt`), read as the state-count
 * line ss's parser reads ("301 TIME-WAIT"). wc -l counts ss's header line too unless ss ran with -H:
 * the warning says so, the count is kept as saved.
 */
const STATE_BY_NAME: [RegExp, string][] = [
  [/time[-_.]?wait|timewait|(?:^|[-_.])tw(?:[-_.]|$)/i, 'TIME-WAIT'],
  [/close[-_.]?wait/i, 'CLOSE-WAIT'],
  [/estab/i, 'ESTAB'],
  [/syn[-_.]?recv/i, 'SYN-RECV'],
];

const ULIMIT_BY_NAME: [RegExp, string, string][] = [
  [/ulimit[-_ ]?n(?![a-z])|nofile|open[-_]?files/i, 'open files', 'n'],
  [/ulimit[-_ ]?u(?![a-z])|nproc/i, 'max user processes', 'u'],
];

/** The bare value `lines` hold, read through the file's name; null when either does not tell. */
export function bareValue(lines: readonly string[], file: string | undefined): BareValue | null {
  if (!file) return null;
  const filled = lines.filter((l) => l.trim() !== '');
  if (filled.length !== 1) return null;
  const m = VALUE.exec(filled[0]!);
  if (!m) return null;
  const v = m[1]!;
  const name = file.split(/[\\/]/).pop()!.replace(/\.(txt|out|log)$/i, '');
  const key = /^(?:net|vm|fs|kernel|dev|user)\.[\w.-]+$/.exec(name)?.[0];
  if (key) return { kind: 'sysctl', line: `${key} = ${v}`, meaning: `sysctl ${key}` };
  for (const [re, k] of SYSCTL_BY_NAME) if (re.test(name)) return { kind: 'sysctl', line: `${k} = ${v}`, meaning: `sysctl ${k}` };
  if (/\s/.test(v)) return null; // several numbers: only a sysctl key can hold them
  for (const [re, label, flag] of ULIMIT_BY_NAME) if (re.test(name)) return { kind: 'ulimit', line: `${label} (-${flag}) ${v}`, meaning: `ulimit -${flag}` };
  for (const [re, state] of STATE_BY_NAME) {
    if (re.test(name)) return { kind: 'ss', line: `${v} ${state}`, meaning: `a count of ${state} sockets (ss … | wc -l counts ss's header line too, unless ss ran with -H)` };
  }
  return null;
}
