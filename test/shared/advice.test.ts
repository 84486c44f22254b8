/** Every finding rule has advice (shared/advice.ts), so no finding is shown without what to try next. */
import { describe, expect, it } from 'vitest';
import { FINDING_ADVICE } from '../../shared/advice';
import { RULES, parseText } from '../../shared/capture/registry';
import { readFileSync } from 'node:fs';
import path from 'node:path';

describe('finding advice', () => {
  it('covers every rule, and says what it means, what to try, the effect and the risk', () => {
    const ids = new Set(RULES.map((r) => r.id));
    for (const id of ids) expect(FINDING_ADVICE[id], id).toBeDefined();
    for (const [id, a] of Object.entries(FINDING_ADVICE)) {
      for (const text of [a.meaning, a.tryNext, a.effect, a.risk]) expect(text.length, id).toBeGreaterThan(0);
      for (const c of a.plan?.changes ?? []) expect(c.after, `${id} ${c.key}`).toBeTruthy();
    }
  });

  it('the findings of real captures have advice, with a plan where one change is the first step', () => {
    const fixture = (p: string) => readFileSync(path.join(__dirname, '..', 'fixtures', 'captures', p), 'utf8');
    const storm = parseText(fixture('strace-summary/strace-c-f-python-stat-storm.txt'));
    const ids = storm.findings.map((f) => f.id);
    expect(ids).toContain('syscall.stat-storm');
    const plan = FINDING_ADVICE['syscall.stat-storm']!.plan!;
    expect(plan.changes[0]).toMatchObject({ key: 'opcache.validate_timestamps', after: '0' });
    expect(FINDING_ADVICE['net.time-wait-near-port-range']!.tryNext).toMatch(/Never tcp_tw_recycle/);
  });
});
