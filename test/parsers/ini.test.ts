import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { diffSettings } from '../../shared/capture/parsers/settings/diff';

const dir = join(__dirname, '../fixtures/captures/ini');
const fx = (name: string) => readFileSync(join(dir, name), 'utf8');

/** jc --ini output flattened with Tunebook's key rule; jc keeps inline comments, PHP and MySQL drop them. */
function fromJc(name: string, rootSections: string[] = []): Record<string, string> {
  const ref = JSON.parse(fx(name)) as Record<string, string | Record<string, string>>;
  const out: Record<string, string> = {};
  const val = (v: string) => v.replace(/\s+[;#].*$/, '');
  for (const [k, v] of Object.entries(ref)) {
    if (typeof v === 'string') { out[k] = val(v); continue; }
    for (const [kk, vv] of Object.entries(v)) {
      const dotted = kk.indexOf('.') > 0 && (kk.indexOf('[') < 0 || kk.indexOf('.') < kk.indexOf('['));
      out[rootSections.includes(k) || dotted ? kk : `${k}.${kk}`] = val(vv);
    }
  }
  return out;
}

describe('ini parser', () => {
  it('reads php.ini like jc --ini, with [PHP] keys unprefixed and dotted keys kept', () => {
    const c = parseText(fx('php-ini.txt'));
    expect(c.kind).toBe('ini');
    expect(c.confidence).toBeGreaterThanOrEqual(0.7);
    expect(c.settings).toEqual(fromJc('php-ini.jc.json', ['PHP']));
    expect(c.settings.memory_limit).toBe('128M');
    expect(c.settings.variables_order).toBe('GPCS');
    expect(c.settings['opcache.validate_timestamps']).toBe('1');
    expect(c.settings['date.timezone']).toBe('Europe/Berlin');
    expect(c.warnings).toEqual([]);
  });

  it('reads opcache.ini: inline comments dropped, duplicate key: last wins with a warning', () => {
    const c = parseText(fx('opcache-ini.txt'));
    expect(c.kind).toBe('ini');
    expect(c.settings).toEqual(fromJc('opcache-ini.jc.json'));
    expect(c.settings['opcache.validate_timestamps']).toBe('0');
    expect(c.settings['opcache.memory_consumption']).toBe('192');
    expect(c.warnings).toEqual(['line 11: opcache.memory_consumption set again (first on line 5); the last value wins']);
  });

  it('reads a php-fpm pool and my.cnf (section.key, bare keys)', () => {
    const fpm = parseText(fx('php-fpm-www.txt'));
    expect(fpm.kind).toBe('ini');
    expect(fpm.settings).toEqual(fromJc('php-fpm-www.jc.json'));
    expect(fpm.settings['pm.max_children']).toBe('50');
    expect(fpm.settings['www.php_admin_value[memory_limit]']).toBe('256M');
    const my = parseText(fx('my-cnf.txt'));
    expect(my.kind).toBe('ini');
    expect(my.settings).toEqual(fromJc('my-cnf.jc.json'));
    expect(my.settings['mysqld.max_connections']).toBe('500');
    expect(my.settings['mysqld.skip-name-resolve']).toBe('');
    expect(my.settings['mysqld.sql_mode']).toBe('STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION');
  });

  it('reads php -i text (layout of PHP main/info.c) with low confidence', () => {
    const c = parseText(fx('php-i-format.txt'));
    expect(c.kind).toBe('ini');
    expect(c.confidence).toBeLessThanOrEqual(0.6);
    expect(c.command).toBe('php -i');
    expect(c.toolVersion).toBe('PHP 8.2.7');
    expect(c.settings).toEqual({
      allow_url_fopen: 'On', auto_prepend_file: '', display_errors: 'Off', max_execution_time: '0', memory_limit: '-1',
      post_max_size: '8M', upload_max_filesize: '2M', 'date.timezone': 'Europe/Berlin',
      'opcache.enable': 'On', 'opcache.enable_cli': 'Off', 'opcache.revalidate_freq': '2', 'opcache.validate_timestamps': 'On',
    });
    // the same directive names as php.ini: the two snapshots diff
    const ini = parseText(fx('php-ini.txt'));
    const d = diffSettings(ini.settings, c.settings, 'php');
    expect(d.find((x) => x.key === 'memory_limit')).toEqual({ scope: 'php', key: 'memory_limit', before: '128M', after: '-1' });
  });

  it('reads php -i | grep rows without the phpinfo() banner', () => {
    const rows = fx('php-i-format.txt').split('\n').filter((l) => l.startsWith('opcache.'));
    const c = parseText(['$ php -i | grep opcache', ...rows].join('\n'));
    expect(c.kind).toBe('ini');
    expect(c.confidence).toBe(0.5);
    expect(c.command).toBe('php -i | grep opcache');
    expect(c.settings).toEqual({ 'opcache.enable': 'On', 'opcache.enable_cli': 'Off', 'opcache.revalidate_freq': '2', 'opcache.validate_timestamps': 'On' });
  });

  it('does not claim sysctl.conf, os-release or KEY=value files', () => {
    expect(parseText(readFileSync(join(__dirname, '../fixtures/captures/sysctl/sysctl-conf.txt'), 'utf8')).kind).toBe('sysctl');
    expect(parseText('NAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\nHOME_URL="https://www.debian.org/"\n').kind).not.toBe('ini');
  });

  it('survives CRLF and a truncated quoted value', () => {
    const c = parseText(fx('php-ini.txt').replace(/\n/g, '\r\n'));
    expect(c.settings).toEqual(fromJc('php-ini.jc.json', ['PHP']));
    const t = fx('php-ini.txt');
    const cut = parseText(t.slice(0, t.indexOf('"Europe') + 5));
    expect(cut.settings['date.timezone']).toBe('"Euro');
    expect(cut.warnings).toEqual([`line ${t.slice(0, t.indexOf('"Europe')).split('\n').length}: unterminated quoted value for date.timezone`]);
  });

  it('php.opcache-validate-timestamps: validate_timestamps=1 with a low revalidate_freq', () => {
    const f = parseText(fx('php-ini.txt')).findings;
    expect(f).toHaveLength(1);
    expect(f[0]!.id).toBe('php.opcache-validate-timestamps');
    expect(f[0]!.severity).toBe('info');
    expect(f[0]!.message).toMatch(/^opcache\.validate_timestamps = 1 with opcache\.revalidate_freq = 0: .*on every request/);
    expect(parseText(fx('opcache-ini.txt')).findings).toEqual([]);
  });
});
