import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateFindings, parseText } from '../../shared/capture/registry';
import { diffSettings } from '../../shared/capture/parsers/settings/diff';

const dir = join(__dirname, '../fixtures/captures/sysctl');
const fx = (name: string) => readFileSync(join(dir, name), 'utf8');
const jc = (name: string) => JSON.parse(fx(name)) as Record<string, string | number>;

describe('sysctl parser', () => {
  it('reads a full sysctl -a (procps-ng 4.0.2) exactly like jc --sysctl', () => {
    const c = parseText(fx('sysctl-a.txt'));
    expect(c.kind).toBe('sysctl');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    const ref = jc('sysctl-a.jc.json');
    expect(Object.keys(c.settings).sort()).toEqual(Object.keys(ref).sort());
    for (const [k, v] of Object.entries(ref)) {
      // jc turns integers into JSON numbers (and loses precision above 2^53)
      if (typeof v === 'number') expect(Number(c.settings[k]), k).toBe(v);
      else expect(c.settings[k], k).toBe(v);
    }
    expect(c.settings['net.ipv4.ip_local_port_range']).toBe('32768\t60999');
    // multi-line values are printed as repeated "key = line" lines
    expect(c.settings['kernel.core_modes']).toBe('file\npipe\nsocket');
    expect(c.warnings).toEqual([]);
    const m = (n: string) => c.metrics.find((x) => x.name === n);
    expect(m('net_core_somaxconn')?.value).toBe(4096);
    expect(m('net_ipv4_tcp_max_tw_buckets')?.value).toBe(131072);
    expect(m('local_port_range_size')?.value).toBe(28232);
    expect(m('net_core_somaxconn')?.lines?.[0]).toBeGreaterThan(0);
  });

  it('counts permission-denied lines of a non-root sysctl -a into one warning', () => {
    const c = parseText(fx('sysctl-a-nonroot.txt'));
    expect(c.kind).toBe('sysctl');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/^16 keys could not be read \(permission denied\), first on line 70/);
    expect(c.facts.sysctl_unreadable_keys).toBe(16);
    expect(c.settings['kernel.cad_pid']).toBeUndefined();
    expect(c.settings['net.core.somaxconn']).toBe('4096');
  });

  it('reads named keys, -w echoes with errors, -p echoes, and sysctl.conf files', () => {
    const keys = parseText(fx('sysctl-keys.txt'));
    expect(keys.kind).toBe('sysctl');
    expect(keys.settings).toEqual(Object.fromEntries(Object.entries(jc('sysctl-keys.jc.json')).map(([k, v]) => [k, String(v)])));

    const w = parseText(fx('sysctl-w.txt'));
    expect(w.kind).toBe('sysctl');
    expect(w.settings).toEqual({ 'net.ipv4.tcp_tw_reuse': '2' });
    expect(w.warnings).toEqual(['2 keys could not be read (unknown key), first on line 2: sysctl: cannot stat /proc/sys/net/ipv4/tcp_tw_recycle: No such file or directory']);

    const p = parseText(fx('sysctl-p.txt'));
    expect(p.kind).toBe('sysctl');
    expect(Object.keys(p.settings)).toHaveLength(4);
    expect(p.warnings[0]).toMatch(/^line 5: keys could not be read: sysctl: cannot stat/);

    const conf = parseText(fx('sysctl-conf.txt'));
    expect(conf.kind).toBe('sysctl');
    expect(conf.settings).toEqual({
      'net.core.somaxconn': '4096',
      'net.ipv4.tcp_tw_reuse': '2',
      'net.ipv4.ip_local_port_range': '32768\t60999',
      'vm.swappiness': '60',
      'net.ipv4.tcp_nonexistent': '1',
    });
    expect(conf.warnings).toEqual([]);
    const catConf = parseText(`[root@web1 ~]# cat /etc/sysctl.d/99-tuning.conf\n${fx('sysctl-conf.txt')}`);
    expect(catConf.kind).toBe('sysctl');
    expect(catConf.command).toBe('cat /etc/sysctl.d/99-tuning.conf');
    expect(catConf.settings).toEqual(conf.settings);
    expect(catConf.warnings).toEqual([]);
  });

  it('maps sysctl -n values to the keys of the command line, with low confidence', () => {
    const c = parseText(fx('sysctl-n-prompt.txt'));
    expect(c.kind).toBe('sysctl');
    expect(c.confidence).toBeGreaterThanOrEqual(0.3);
    expect(c.confidence).toBeLessThanOrEqual(0.6);
    expect(c.command).toBe('sysctl -n net.ipv4.ip_local_port_range net.core.somaxconn');
    expect(c.settings).toEqual({ 'net.ipv4.ip_local_port_range': '32768\t60999', 'net.core.somaxconn': '4096' });
    // values without the command line cannot be mapped: not claimed
    expect(parseText(fx('sysctl-n.txt')).kind).toBe('text');
  });

  it('reads cat /proc/sys/… (keys from the command line) and grep -r . /proc/sys/… output', () => {
    const cat = parseText(fx('cat-proc-sys.txt'));
    expect(cat.kind).toBe('sysctl');
    expect(cat.confidence).toBe(0.5);
    expect(cat.settings).toEqual({ 'net.ipv4.ip_local_port_range': '32768\t60999', 'net.core.somaxconn': '4096' });
    const grep = parseText(fx('grep-proc-sys.txt'));
    expect(grep.kind).toBe('sysctl');
    expect(grep.command).toMatch(/^grep -r \. \/proc\/sys\//);
    expect(grep.settings).toEqual({ 'net.ipv4.tcp_tw_reuse': '2', 'net.ipv4.tcp_fin_timeout': '60', 'net.ipv4.tcp_max_tw_buckets': '131072' });
  });

  it('survives CRLF, ANSI colours, a prompt line and a truncated last line', () => {
    const text = '\x1b[01;32mroot@web1\x1b[00m:~# sysctl net.ipv4.ip_local_port_range net.ipv4.tcp_max_tw_buckets net.ipv4.tcp_tw_reuse net.core.somaxconn fs.file-max vm.swappiness\r\n'
      + fx('sysctl-keys.txt').replace(/\n/g, '\r\n');
    const c = parseText(text);
    expect(c.kind).toBe('sysctl');
    expect(c.command).toMatch(/^sysctl net\.ipv4\.ip_local_port_range /);
    expect(c.settings['vm.swappiness']).toBe('60');
    expect(c.settings['net.ipv4.ip_local_port_range']).toBe('32768\t60999');
    const all = fx('sysctl-a.txt');
    const cut = parseText(all.slice(0, all.indexOf('net.core.somaxconn') + 10));
    expect(cut.kind).toBe('sysctl');
    expect(cut.warnings.some((x) => /line \d+: could not read "net.core.s"/.test(x))).toBe(true);
  });

  it('reads BSD "key: value" lines and old "error:" lines', () => {
    const c = parseText('kern.ostype: FreeBSD\nkern.osrelease: 14.0-RELEASE\nkern.maxfiles: 65536\nkern.ipc.somaxconn: 4096\nnet.inet.tcp.msl: 30000\nerror: "net.foo" is an unknown key\n');
    expect(c.kind).toBe('sysctl');
    expect(c.settings['kern.maxfiles']).toBe('65536');
    expect(c.warnings).toEqual(['line 6: keys could not be read: error: "net.foo" is an unknown key']);
  });

  it('flags net.ipv4.tcp_tw_recycle = 1 as critical', () => {
    const c = parseText('net.ipv4.tcp_tw_reuse = 0\nnet.ipv4.tcp_tw_recycle = 1\nnet.core.somaxconn = 128\n');
    expect(c.kind).toBe('sysctl');
    const f = c.findings.find((x) => x.id === 'net.tcp-tw-recycle');
    expect(f?.severity).toBe('critical');
    expect(f?.message).toMatch(/NAT/);
    expect(f?.message).toMatch(/4\.12/);
    expect(f?.message).toMatch(/tcp_tw_reuse/);
    expect(f?.evidence).toBe('line 2');
    expect(parseText(fx('sysctl-a.txt')).findings.filter((x) => x.id === 'net.tcp-tw-recycle')).toEqual([]);
  });

  it('diffs two snapshots into config changes', () => {
    const a = parseText(fx('sysctl-a.txt'));
    const b = parseText(fx('sysctl-a-nonroot.txt'));
    const changes = diffSettings(a.settings, b.settings, 'sysctl');
    expect(changes.find((x) => x.key === 'kernel.cad_pid')).toEqual({ scope: 'sysctl', key: 'kernel.cad_pid', before: '1', after: null });
    const denied = [...fx('sysctl-a-nonroot.txt').matchAll(/permission denied on key '([^']+)'/g)].map((m) => m[1]);
    const removed = changes.filter((x) => x.after === null).map((x) => x.key);
    expect(removed.length).toBeGreaterThan(5);
    for (const k of removed) expect(denied).toContain(k);
    const keys = changes.map((x) => x.key);
    expect(keys).toEqual([...keys].sort());
    expect(changes.find((x) => x.key === 'net.core.somaxconn')).toBeUndefined();

    expect(diffSettings({ r: '1024 65000', x: '1' }, { r: '1024\t65000 ', x: '2', y: 'new' }, 'sysctl')).toEqual([
      { scope: 'sysctl', key: 'x', before: '1', after: '2' },
      { scope: 'sysctl', key: 'y', before: null, after: 'new' },
    ]);
  });

  it('gives the port range to the TIME_WAIT rule of a socket capture', () => {
    const sysctl = parseText('net.ipv4.ip_local_port_range = 60000\t60499\n', { file: 'sysctl.txt' });
    const ss = parseText(readFileSync(join(__dirname, '../fixtures/captures/ss/ss-tan.txt'), 'utf8'), { file: 'ss-tan.txt' });
    const [, ssFindings] = evaluateFindings([sysctl, ss]);
    const f = ssFindings!.find((x) => x.id === 'net.time-wait-near-port-range');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toMatch(/^301 sockets in TIME_WAIT = 60 % of the 500 local ports of net\.ipv4\.ip_local_port_range = 60000 60499 from the sysctl capture \(sysctl\.txt\)/);
  });
});
