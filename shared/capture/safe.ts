/**
 * What the registry guarantees about every parse, whatever the parser: the numbers it shows are
 * finite. A number too long for a double ("9" × 400 → Infinity), or one a parser could not read
 * (NaN) where a missing value has no meaning (a metric, a fact, a table cell), is left out and said
 * in a warning instead of being stored as Infinity or turned into null by JSON. Series keep NaN
 * (a missing sample); ±Infinity in them becomes NaN.
 */
import type { FactValue, ParseOutput } from './types';

const bad = (x: number): boolean => !Number.isFinite(x);

/** Drop or blank the non-finite numbers of `out` in place; returns what was changed, for a warning ('' when nothing). */
export function keepFiniteNumbers(out: ParseOutput): string {
  const where: string[] = [];
  let n = 0;
  const note = (what: string): void => { n++; if (where.length < 5 && !where.includes(what)) where.push(what); };

  if (out.metrics.some((m) => typeof m.value !== 'number' || bad(m.value))) {
    out.metrics = out.metrics.filter((m) => {
      if (typeof m.value === 'number' && !bad(m.value)) return true;
      note(`metric ${m.name}`);
      return false;
    });
  }
  for (const s of out.series) {
    const v = s.values;
    // looked for natively first (indexOf runs over an array of doubles in one builtin loop): a JS loop
    // over every series' points read each through a polymorphic load, ~60 ms for a 200 MB iostat -x log
    if (v.indexOf(Infinity) !== -1 || v.indexOf(-Infinity) !== -1) {
      for (let i = 0; i < v.length; i++) if (v[i] === Infinity || v[i] === -Infinity) { v[i] = NaN; note(`series ${s.name}`); }
    }
    const t = s.times;
    if (t) for (let i = 0; i < t.length; i++) if (t[i] !== null && bad(t[i]!)) { t[i] = null; note(`the times of series ${s.name}`); }
    const st = s.stats;
    if (st) {
      // only a sample of ±Infinity (now NaN) or an overflowing sum can make these non-finite
      if (st.first !== null && bad(st.first)) st.first = null;
      if (st.min !== null && bad(st.min)) st.min = null;
      if (st.max !== null && bad(st.max)) st.max = null;
      if (st.last !== null && bad(st.last)) st.last = null;
      if (bad(st.sum) || (st.sumC !== undefined && bad(st.sumC))) { st.sum = 0; st.sumC = 0; }
      if (bad(st.sumAll) || (st.sumAllC !== undefined && bad(st.sumAllC))) { st.sumAll = 0; st.sumAllC = 0; }
    }
  }
  const clean = (v: FactValue, name: string): FactValue | undefined => {
    if (typeof v === 'number') { if (!bad(v)) return v; note(`fact ${name}`); return undefined; }
    if (Array.isArray(v)) return v.map((x) => clean(x, name) ?? null);
    if (v !== null && typeof v === 'object') {
      const o: { [key: string]: FactValue } = {};
      for (const [k, x] of Object.entries(v)) { const c = clean(x, name); if (c !== undefined) o[k] = c; }
      return o;
    }
    return v;
  };
  for (const [k, v] of Object.entries(out.facts)) {
    if (typeof v === 'number' ? !bad(v) : v === null || typeof v !== 'object') continue;
    const c = clean(v, k);
    if (c === undefined) delete out.facts[k]; else out.facts[k] = c;
  }
  for (const [k, table] of Object.entries(out.tables ?? {})) {
    for (const row of table.rows) {
      for (let i = 0; i < row.length; i++) { const c = row[i]; if (typeof c === 'number' && bad(c)) { row[i] = null; note(`table ${k}`); } }
    }
  }
  if (!n) return '';
  return `${n} ${n === 1 ? 'number was' : 'numbers were'} not readable as finite numbers (too long for a double, or not a number) and left out: ${where.join(', ')}${where.length < n ? ' …' : ''}`;
}
