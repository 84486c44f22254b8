import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

// jc 1.22.5 on this machine has no os-release parser; values are checked against the fixture text.
describe('os-release', () => {
  it('/etc/os-release', () => {
    const c = parseText(fixture('os-release', 'os-release.txt'));
    expect(c.kind).toBe('os-release');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.facts).toMatchObject({ os_name: 'Debian GNU/Linux', os_version: '12', os_id: 'debian', os_pretty_name: 'Debian GNU/Linux 12 (bookworm)', os_codename: 'bookworm' });
    expect(c.settings.HOME_URL).toBe('https://www.debian.org/');
    expect(c.warnings).toEqual([]);
  });

  it('lsb_release -a', () => {
    const c = parseText('$ lsb_release -a\nNo LSB modules are available.\n' + fixture('os-release', 'lsb-release-a.txt'));
    expect(c.kind).toBe('os-release');
    expect(c.command).toBe('lsb_release -a');
    expect(c.facts).toMatchObject({ os_name: 'Debian', os_version: '12', os_id: 'debian', os_codename: 'bookworm', os_pretty_name: 'Debian GNU/Linux 12 (bookworm)' });
    expect(c.warnings).toEqual([]);
  });

  it('old /etc/redhat-release one-liner', () => {
    const c = parseText('[root@7DGroup ~]# cat /etc/redhat-release\nCentOS Linux release 7.5.1804 (Core)\n');
    expect(c.kind).toBe('os-release');
    expect(c.confidence).toBeGreaterThanOrEqual(0.8);
    expect(c.facts).toMatchObject({ os_name: 'CentOS Linux', os_version: '7.5.1804', os_id: 'centos', os_codename: 'Core' });
  });

  it('CRLF, comments and an unreadable line', () => {
    const c = parseText('# comment\r\n' + fixture('os-release', 'os-release.txt').replace(/\n/g, '\r\n') + '\r\n???\r\n');
    expect(c.facts.os_id).toBe('debian');
    expect(c.warnings).toHaveLength(1);
  });
});
