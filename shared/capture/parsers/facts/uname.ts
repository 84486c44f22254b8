/** uname -a / -r / -s -r -m … (GNU coreutils, busybox) → kernel facts. */
import type { CaptureParser } from '../../types';
import { fields, headCommand } from '../kit';
import { FactsSink } from './common';

/** "6.1.0-18-amd64": digits, a point, a digit, then release characters (one way to match: linear on a long word) */
const RELEASE = /^\d+\.(?=\d)[-+.~\w]*$/;
const MACHINE = /^(x86_64|i[3-6]86|aarch64|arm\w*|ppc64\w*|ppc|s390x?|riscv64|mips\w*|loongarch64|sparc64|ia64|amd64|arm64|unknown)$/;
const OS = /^(GNU\/Linux|Linux|Android|GNU|Darwin|FreeBSD|Cygwin|Msys)$/;

class UnameSink extends FactsSink {
  private done = false;

  constructor() { super(['uname']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') return;
    if (this.done) { this.warn(lineNo, text); return; }
    const f = fields(t);
    let r = f.findIndex((x) => RELEASE.test(x));
    // a hostname that looks like a version ("10.0.0.5") before the real release of `uname -a`
    if (r === 1 && f.length > 3 && RELEASE.test(f[2]!) && f[3]!.startsWith('#')) r = 2;
    if (r < 0 || r > 2) { this.warn(lineNo, text); return; }
    this.done = true;
    const facts = this.facts;
    facts.kernel = f[r]!;
    if (r >= 1) facts.kernel_name = f[0]!;
    if (r === 2) facts.hostname = f[1]!;
    // after the release: the version ("#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"), then machine,
    // processor, hardware platform (each omitted when "unknown" by GNU uname -a), then the OS
    let end = f.length;
    if (end > r + 1 && OS.test(f[end - 1]!)) { facts.os_kernel_family = f[end - 1]!; end--; }
    const arch: string[] = [];
    while (end > r + 1 && arch.length < 3 && MACHINE.test(f[end - 1]!)) { arch.unshift(f[end - 1]!); end--; }
    if (arch.length) facts.arch = arch[0]!;
    if (arch.length > 1 && arch[1] !== 'unknown') facts.processor = arch[1]!;
    if (arch.length > 2 && arch[2] !== 'unknown') facts.hardware_platform = arch[2]!;
    if (end > r + 1) facts.kernel_version = f.slice(r + 1, end).join(' ');
  }
}

export const unameParser: CaptureParser = {
  id: 'uname',
  title: 'uname',
  commands: [{ program: 'uname' }],
  detect(head) {
    const lines = head.filter((l) => l.trim() !== '');
    const cmd = headCommand(head, ['uname']) !== undefined;
    // ("\d+\.\d\S*", not "\d+\.\d+\S*": one way to match, linear on a long word)
    for (const l of lines.slice(0, 3)) {
      if (/^(Linux|Darwin|FreeBSD|SunOS|CYGWIN\S*|MINGW\S*)\s+\S+\s+\d+\.\d\S*\s+#?\d*/.test(l) && /\s#\d+\s/.test(l)) return 0.95;
      if (/^(Linux|Darwin|FreeBSD)\s+\d+\.\d\S*(\s+\S+)?\s*$/.test(l)) return cmd ? 0.9 : 0.6;
    }
    if (cmd) return 0.8;
    if (lines.length === 1 && /^\d+\.\d+\.(?=\d)[-+.\w]*$/.test(lines[0]!.trim()) && /[a-z]/.test(lines[0]!)) return 0.35;
    return 0;
  },
  open: () => new UnameSink(),
};
