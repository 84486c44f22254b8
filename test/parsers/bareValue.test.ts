/**
 * A bare value saved on its own (issue 11): `ulimit -n > ulimit-n.txt`, `sysctl -n … > somaxconn.txt`.
 * Its content cannot tell what it is; the file's name settles the kind, with a lower confidence and
 * a warning that says so. Fixtures made with the real tools (their .cmd.txt says how).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BARE_VALUE_CONFIDENCE, parseText } from '../../shared/capture/registry';

const DIR = path.join(__dirname, '..', 'fixtures', 'bare-values');
const read = (name: string) => readFileSync(path.join(DIR, name), 'utf8');

describe('a bare value', () => {
  it('ulimit -n saved as ulimit-n.txt is the nofile limit, said to be told by the name', () => {
    const c = parseText(read('ulimit-n.txt'), { file: 'ulimit-n.txt' });
    expect([c.kind, c.confidence]).toEqual(['ulimit', BARE_VALUE_CONFIDENCE]);
    expect(c.settings).toEqual({ nofile: read('ulimit-n.txt').trim() });
    expect(c.warnings.join('\n')).toMatch(/a bare value .* read as ulimit -n because of the file's name \(ulimit-n\.txt\)/);
  });

  it('sysctl -n saved under the key or a known short name is that sysctl setting', () => {
    const s = parseText(read('somaxconn.txt'), { file: 'somaxconn.txt' });
    expect([s.kind, s.settings]).toEqual(['sysctl', { 'net.core.somaxconn': read('somaxconn.txt').trim() }]);
    const range = parseText(read('net.ipv4.ip_local_port_range.txt'), { file: 'net.ipv4.ip_local_port_range.txt' });
    expect(range.kind).toBe('sysctl');
    expect(range.settings['net.ipv4.ip_local_port_range']?.split(/\s+/)).toEqual(read('net.ipv4.ip_local_port_range.txt').trim().split(/\s+/));
  });

  it('ss … state time-wait | wc -l saved as tw-count.txt is a count of TIME-WAIT sockets', () => {
    for (const file of ['tw-count.txt', 'time-wait-H.txt']) {
      const c = parseText(read(file), { file });
      expect([c.kind, c.confidence]).toEqual(['ss', BARE_VALUE_CONFIDENCE]);
      expect(c.metrics.find((m) => m.name === 'sockets_total' && m.labels?.state === 'time_wait')?.value).toBe(Number(read(file).trim()));
      expect(c.warnings.join('\n')).toMatch(/read as a count of TIME-WAIT sockets .*header line/);
    }
    const e = parseText(read('estab-count.txt'), { file: 'estab-count.txt' });
    expect(e.metrics.find((m) => m.name === 'sockets_total' && m.labels?.state === 'established')?.value).toBe(Number(read('estab-count.txt').trim()));
  });

  it('without a telling name, or with more than a value, it stays plain text', () => {
    for (const [text, file] of [['4096\n', 'value.txt'], ['4096\n', undefined], ['4096\n8192\n', 'somaxconn.txt'], ['32768 60999\n', 'ulimit-n.txt'], ['hello\n', 'somaxconn.txt']] as const) {
      expect(parseText(text, file ? { file } : {}).kind, `${JSON.stringify(text)} ${file}`).toBe('text');
    }
    // content that says what it is wins over the name
    expect(parseText('net.core.somaxconn = 128\n', { file: 'ulimit-n.txt' }).kind).toBe('sysctl');
    // a kind given by the user is used as is
    expect(parseText('4096\n', { kind: 'sysctl', file: 'somaxconn.txt' }).settings).toEqual({});
  });
});
