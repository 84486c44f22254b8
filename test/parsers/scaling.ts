/**
 * Linear-time checks without a clock limit (timed unit tests fail on a busy machine): `run(n)` is
 * timed at n and at 8n, the best of three runs each. Linear work grows about 8×; a regex that
 * backtracks over a long run of digits grows 64× or more. A large run under 100 ms is linear
 * enough whatever the ratio (the quadratic cases found by fuzzing took seconds at these sizes).
 */
import { expect } from 'vitest';

function best(fn: () => void): number {
  let ms = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

export function expectLinear(run: (n: number) => void, n: number, what: string): void {
  const small = best(() => run(n));
  const large = best(() => run(8 * n));
  if (large < 100) return;
  expect(large / Math.max(small, 0.5), `${what}: ${small.toFixed(1)} ms at ${n}, ${large.toFixed(1)} ms at ${8 * n}`).toBeLessThan(24);
}
