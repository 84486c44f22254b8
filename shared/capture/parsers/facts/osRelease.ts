/**
 * /etc/os-release (and /usr/lib/os-release), the old one-line /etc/redhat-release / centos-release /
 * system-release, and lsb_release -a → os_name, os_version, os_id facts.
 */
import type { CaptureParser } from '../../types';
import { headCommand, textRecord } from '../kit';
import { FactsSink, keyValue } from './common';

const RELEASE_LINE = /^(.+?) release (\d[\w.-]*)(?:\s*\((.*)\))?\s*$/;
const ID_MAP: Array<[RegExp, string]> = [
  [/^Red Hat/i, 'rhel'], [/^CentOS Stream/i, 'centos'], [/^CentOS/i, 'centos'], [/^Rocky/i, 'rocky'], [/^AlmaLinux/i, 'almalinux'],
  [/^Fedora/i, 'fedora'], [/^Oracle/i, 'ol'], [/^Scientific/i, 'scientific'], [/^Amazon/i, 'amzn'], [/^openEuler/i, 'openEuler'],
  [/^Kylin/i, 'kylin'], [/^Anolis/i, 'anolis'], [/^EulerOS/i, 'euleros'],
];

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1).replace(/\\(["$`\\])/g, '$1');
  return t;
}

class OsReleaseSink extends FactsSink {
  private readonly lsb = textRecord<string>();

  constructor() { super(['cat', 'lsb_release', 'head', 'hostnamectl']); }

  protected read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '' || t.startsWith('#')) return;
    let m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(t);
    if (m) {
      const v = unquote(m[2]!);
      this.settings[m[1]!] = v;
      switch (m[1]) {
        case 'NAME': this.facts.os_name = v; break;
        case 'VERSION_ID': this.facts.os_version = v; break;
        case 'ID': this.facts.os_id = v; break;
        case 'PRETTY_NAME': this.facts.os_pretty_name = v; break;
        case 'VERSION': this.facts.os_version_full = v; break;
        case 'VERSION_CODENAME': this.facts.os_codename = v; break;
        case 'ID_LIKE': this.facts.os_id_like = v; break;
        default: break;
      }
      return;
    }
    if (/^No LSB modules are available\.?$/.test(t) || /^LSB Version\s*:/.test(t)) return;
    const kv = keyValue(t);
    if (kv && /^(Distributor ID|Description|Release|Codename)$/.test(kv[0])) {
      this.lsb[kv[0]] = kv[1];
      this.settings[kv[0]] = kv[1];
      return;
    }
    m = RELEASE_LINE.exec(t);
    if (m) {
      this.facts.os_name ??= m[1]!;
      this.facts.os_version ??= m[2]!;
      this.facts.os_pretty_name ??= t;
      if (m[3]) this.facts.os_codename ??= m[3];
      const id = ID_MAP.find(([re]) => re.test(m![1]!));
      this.facts.os_id ??= id ? id[1] : m[1]!.split(/\s+/)[0]!.toLowerCase();
      return;
    }
    this.warn(lineNo, text);
  }

  protected override finish(): void {
    const l = this.lsb;
    if (l['Distributor ID'] !== undefined) {
      const dist = l['Distributor ID'];
      this.facts.os_name ??= dist;
      const id = ID_MAP.find(([re]) => re.test(dist)) ?? (/^RedHatEnterprise/.test(dist) ? [/x/, 'rhel'] as const : undefined);
      this.facts.os_id ??= id ? id[1] : dist.toLowerCase();
    }
    if (l.Release !== undefined && l.Release !== 'n/a') this.facts.os_version ??= l.Release;
    if (l.Description !== undefined) this.facts.os_pretty_name ??= l.Description;
    if (l.Codename !== undefined && l.Codename !== 'n/a') this.facts.os_codename ??= l.Codename;
  }
}

export const osReleaseParser: CaptureParser = {
  id: 'os-release',
  title: 'os-release / redhat-release / lsb_release',
  commands: [{ program: 'cat', args: /os-release\b/ }],
  detect(head) {
    let keys = 0;
    let lsb = false;
    let rel = false;
    const lines = head.filter((l) => l.trim() !== '');
    for (const l of lines.slice(0, 60)) {
      if (/^(NAME|ID|VERSION_ID|PRETTY_NAME|ID_LIKE|VERSION|HOME_URL|VERSION_CODENAME)=/.test(l)) keys++;
      else if (/^Distributor ID:\s/.test(l)) lsb = true;
      else if (RELEASE_LINE.test(l.trim()) && /^(Red Hat|CentOS|Rocky|AlmaLinux|Fedora|Oracle|Scientific|Amazon|openEuler|Kylin|Anolis|EulerOS)/.test(l)) rel = true;
    }
    if (keys >= 2 || lsb) return 0.95;
    if (rel && lines.length <= 3) return 0.9;
    if (keys === 1) return 0.5;
    if (rel) return 0.6;
    if (headCommand(head, ['lsb_release']) !== undefined) return 0.6;
    return 0;
  },
  open: () => new OsReleaseSink(),
};
