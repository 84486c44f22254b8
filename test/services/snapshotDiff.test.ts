import { describe, expect, it } from 'vitest';
import type { CaptureJson } from '../../shared/capture/json';
import { compareSnapshots, snapshotScope } from '../../shared/snapshotDiff';
import type { SnapshotEntry } from '../../shared/snapshotDiff';

function capture(kind: string, settings: Record<string, string>, file?: string): CaptureJson {
  return { kind, confidence: 1, metrics: [], series: [], facts: {}, settings, findings: [], warnings: [], ...(file ? { file } : {}) };
}
const entry = (name: string, c: CaptureJson): SnapshotEntry => ({ name, capture: c });

describe('config changes from two settings snapshots', () => {
  it('diffs two sysctl snapshots (case study B step 4)', () => {
    const r = compareSnapshots(
      [entry('before (pasted)', capture('sysctl', { 'net.ipv4.tcp_tw_reuse': '0', 'net.ipv4.ip_local_port_range': '32768\t60999', 'vm.swappiness': '30' }))],
      [entry('after (pasted)', capture('sysctl', { 'net.ipv4.tcp_tw_reuse': '1', 'net.ipv4.ip_local_port_range': '1024\t65000', 'net.ipv4.tcp_tw_recycle': '1', 'vm.swappiness': '30' }))],
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scope).toBe('sysctl');
    expect(r.changes.map((c) => [c.key, c.before, c.after])).toEqual([
      ['net.ipv4.ip_local_port_range', '32768\t60999', '1024\t65000'],
      ['net.ipv4.tcp_tw_recycle', null, '1'],
      ['net.ipv4.tcp_tw_reuse', '0', '1'],
    ]);
  });

  it('scopes config files by file name, without a folder', () => {
    expect(snapshotScope(capture('ini', { a: '1' }, 'after/php.ini'), 'x')).toBe('php.ini');
    expect(snapshotScope(capture('ini', { a: '1' }), 'my.cnf')).toBe('my.cnf');
    expect(snapshotScope(capture('ulimit', { a: '1' }, 'u.txt'), 'u.txt')).toBe('ulimit');
  });

  it('refuses a side without settings, several captures, different kinds, and a missing side', () => {
    const sysctl = entry('s', capture('sysctl', { 'vm.swappiness': '30' }));
    const ab = entry('plain.txt', capture('ab', {}));
    const fio = entry('fio.txt', capture('fio', { iodepth: '64' }));
    const none = compareSnapshots([sysctl], [ab]);
    expect(none.ok || none.error).toMatch(/^The after snapshot \(plain\.txt\) holds no settings: it was read as ab/);
    const kinds = compareSnapshots([sysctl], [fio]);
    expect(kinds.ok || kinds.error).toMatch(/different kinds: before is sysctl \(s\), after is fio \(fio\.txt\)/);
    const two = compareSnapshots([sysctl, sysctl], [sysctl]);
    expect(two.ok || two.error).toMatch(/^The before snapshot holds 2 captures/);
    const empty = compareSnapshots([], [sysctl]);
    expect(empty.ok || empty.error).toMatch(/^The before snapshot is empty/);
    const failed = compareSnapshots([sysctl], [{ name: 'big.txt', error: 'too large' }]);
    expect(failed.ok || failed.error).toBe('The after snapshot could not be read: big.txt: too large');
  });

  it('says so when nothing differs (whitespace only)', () => {
    const r = compareSnapshots(
      [entry('a', capture('sysctl', { 'net.ipv4.ip_local_port_range': '1024\t65000' }))],
      [entry('b', capture('sysctl', { 'net.ipv4.ip_local_port_range': '1024 65000' }))],
    );
    expect(r.ok && r.changes).toEqual([]);
  });
});
