/**
 * Downsampling a series for the screen: a chart a few thousand pixels wide gains nothing from
 * 50,000 points, but must not lose a spike. The x range is cut into buckets and each bucket keeps
 * its lowest and highest point (in x order), so peaks and dips survive at any zoom; a missing
 * sample (NaN) keeps a gap. Pure.
 */

export interface Downsampled {
  x: number[];
  /** null where samples were missing (a gap in the line) */
  y: (number | null)[];
  /** where each point kept comes from in the input (its hover text, say) */
  index: number[];
  /** points within [from, to] before downsampling */
  total: number;
  downsampled: boolean;
}

/**
 * Points of (x[i], y[i]) with from ≤ x ≤ to, at most `maxPoints` of them (≥ 4). x must be in
 * ascending order (sample numbers, or times of one capture).
 */
export function minMaxDownsample(x: ArrayLike<number>, y: ArrayLike<number>, from: number, to: number, maxPoints: number): Downsampled {
  const n = Math.min(x.length, y.length);
  let lo = lowerBound(x, n, from);
  const hi = upperBound(x, n, to); // exclusive
  if (lo > hi) lo = hi;
  const total = hi - lo;
  const out: Downsampled = { x: [], y: [], index: [], total, downsampled: false };
  const budget = Math.max(4, Math.floor(maxPoints));
  if (total <= budget) {
    for (let i = lo; i < hi; i++) push(out, x, y, i);
    return out;
  }
  out.downsampled = true;
  const buckets = Math.floor(budget / 2);
  const span = total / buckets;
  for (let b = 0; b < buckets; b++) {
    const start = lo + Math.floor(b * span);
    const end = b === buckets - 1 ? hi : lo + Math.floor((b + 1) * span);
    let iMin = -1, iMax = -1, gap = -1;
    for (let i = start; i < end; i++) {
      const v = y[i]!;
      if (!Number.isFinite(v)) { if (gap < 0) gap = i; continue; }
      if (iMin < 0 || v < y[iMin]!) iMin = i;
      if (iMax < 0 || v > y[iMax]!) iMax = i;
    }
    if (iMin < 0) { push(out, x, null, gap); continue; }
    if (iMin === iMax) push(out, x, y, iMin);
    else if (iMin < iMax) { push(out, x, y, iMin); push(out, x, y, iMax); } else { push(out, x, y, iMax); push(out, x, y, iMin); }
    // keep a gap visible: a bucket with missing samples ends in a break
    if (gap >= 0) push(out, x, null, end - 1);
  }
  return out;
}

/** Keep point i (y null: as a gap). */
function push(out: Downsampled, x: ArrayLike<number>, y: ArrayLike<number> | null, i: number): void {
  const v = y === null ? NaN : y[i]!;
  out.x.push(x[i]!);
  out.y.push(Number.isFinite(v) ? v : null);
  out.index.push(i);
}

function lowerBound(x: ArrayLike<number>, n: number, v: number): number {
  let a = 0, b = n;
  while (a < b) { const m = (a + b) >> 1; if (x[m]! < v) a = m + 1; else b = m; }
  return a;
}

function upperBound(x: ArrayLike<number>, n: number, v: number): number {
  let a = 0, b = n;
  while (a < b) { const m = (a + b) >> 1; if (x[m]! <= v) a = m + 1; else b = m; }
  return a;
}
