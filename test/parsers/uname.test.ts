import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { expectLinear } from './scaling';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

describe('uname', () => {
  it('takes linear time on a release holding a long run of digits (it took seconds; found by fuzzing)', () => {
    const texts = (n: number) => { const digits = '9'.repeat(n); return [`6.18.${digits}.${digits}\uFFFD-fc-v657\n`, `Linux vm 6.${digits}\uFFFD #1 SMP x86_64 GNU/Linux\n`]; };
    expectLinear((n) => { for (const text of texts(n)) { parseText(text); parseText(text, { kind: 'uname' }); } }, 2_000, 'uname');
    expect(parseText('6.1.0-18-amd64\n', { kind: 'uname' }).facts.kernel).toBe('6.1.0-18-amd64');
  });

  it('uname -a agrees with jc --uname', () => {
    const jc = JSON.parse(fixture('uname', 'uname-a.jc.json')) as Record<string, string>;
    const c = parseText(fixture('uname', 'uname-a.txt'));
    expect(c.kind).toBe('uname');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.facts.kernel).toBe(jc.kernel_release);
    expect(c.facts.hostname).toBe(jc.node_name);
    expect(c.facts.kernel_name).toBe(jc.kernel_name);
    expect(c.facts.arch).toBe(jc.machine);
    expect(c.facts.kernel_version).toBe(jc.kernel_version);
    expect(c.facts.os_kernel_family).toBe(jc.operating_system);
    expect(c.warnings).toEqual([]);
  });

  it('uname -a with processor and hardware platform printed (as RHEL does), behind a prompt', () => {
    const real = fixture('uname', 'uname-a.txt').trim().replace(' x86_64 GNU/Linux', ' x86_64 x86_64 x86_64 GNU/Linux');
    const c = parseText('[root@7DGroup ~]# uname -a\n' + real + '\n');
    expect(c.kind).toBe('uname');
    expect(c.command).toBe('uname -a');
    expect(c.facts).toMatchObject({ kernel: '6.18.44-fc-v657', hostname: 'vm', arch: 'x86_64', processor: 'x86_64', hardware_platform: 'x86_64', kernel_version: '#1 SMP PREEMPT_DYNAMIC @0' });
  });

  it('uname -r and uname -srm', () => {
    const r = parseText(fixture('uname', 'uname-r.txt'));
    expect(r.kind).toBe('uname');
    expect(r.facts).toEqual({ kernel: '6.18.44-fc-v657' });
    const srm = parseText(fixture('uname', 'uname-srm.txt'));
    expect(srm.kind).toBe('uname');
    expect(srm.facts).toEqual({ kernel: '6.18.44-fc-v657', kernel_name: 'Linux', arch: 'x86_64' });
    const withPrompt = parseText('$ uname -r\n' + fixture('uname', 'uname-r.txt'));
    expect(withPrompt.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('a hostname that looks like a version number', () => {
    const real = fixture('uname', 'uname-a.txt').replace(' vm ', ' 10.0.0.5 ');
    const c = parseText(real);
    expect(c.facts).toMatchObject({ hostname: '10.0.0.5', kernel: '6.18.44-fc-v657' });
  });

  it('a second unexpected line is warned about', () => {
    const c = parseText(fixture('uname', 'uname-a.txt') + 'extra stuff\n', { kind: 'uname' });
    expect(c.warnings).toEqual(['line 2: could not read line: extra stuff']);
  });
});
