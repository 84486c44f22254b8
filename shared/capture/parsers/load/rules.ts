/** Finding rules for the load-generator captures. */
import type { FindingRule, Metric, ParsedCapture, RuleFinding } from '../../types';

function pick(c: ParsedCapture, name: string, pred: (m: Metric) => boolean = (m) => !m.labels || Object.keys(m.labels).length === 0): Metric[] {
  return c.metrics.filter((m) => m.name === name && pred(m));
}

function sum(ms: readonly Metric[]): number {
  return ms.reduce((a, m) => a + m.value, 0);
}

function evidence(ms: readonly Metric[]): string | undefined {
  let a = Infinity, b = -Infinity;
  for (const m of ms) if (m.lines) { a = Math.min(a, m.lines[0]); b = Math.max(b, m.lines[1]); }
  if (!Number.isFinite(a)) return undefined;
  return a === b ? `line ${a}` : `lines ${a}-${b}`;
}

function share(n: number, total: number | undefined): string {
  if (!total) return '';
  const p = (n / total) * 100;
  return ` (${p >= 10 ? p.toFixed(1) : p.toPrecision(2)}% of ${total} requests)`;
}

function finding(severity: RuleFinding['severity'], message: string, ev: readonly Metric[]): RuleFinding {
  const f: RuleFinding = { severity, message };
  const e = evidence(ev);
  if (e) f.evidence = e;
  return f;
}

const isAgg = (m: Metric): boolean => m.labels?.endpoint === 'Aggregated';

/**
 * Several runs pasted into one capture carry a `run` label on every metric: evaluate each run on
 * its own, with the label taken off, and say which run a finding is about.
 */
function perRun(c: ParsedCapture, evaluate: (c: ParsedCapture) => RuleFinding[]): RuleFinding[] {
  const runs = [...new Set(c.metrics.map((m) => m.labels?.run).filter((r): r is string => r !== undefined))];
  if (!runs.length) return evaluate(c);
  return runs.flatMap((run) => {
    const metrics = c.metrics.filter((m) => m.labels?.run === run).map((m) => {
      const { run: _r, ...rest } = m.labels ?? {};
      void _r;
      const copy: Metric = { ...m };
      if (Object.keys(rest).length) copy.labels = rest; else delete copy.labels;
      return copy;
    });
    return evaluate({ ...c, metrics }).map((f) => ({ ...f, message: `run ${run}: ${f.message}`, labels: { ...(f.labels ?? {}), run } }));
  });
}

export const abFailedRequests: FindingRule = {
  id: 'load.ab-failed-requests',
  kinds: ['ab'],
  evaluate: ({ capture: c }) => perRun(c, abOne),
};

function abOne(capture: ParsedCapture): RuleFinding[] {
  const failed = pick(capture, 'requests_failed_total');
  const non2xx = pick(capture, 'responses_non2xx_total');
  const total = pick(capture, 'requests_total')[0]?.value;
  const nf = sum(failed), nn = sum(non2xx);
  if (nf <= 0 && nn <= 0) return [];
  const parts: string[] = [];
  if (nf > 0) {
    const reasons = pick(capture, 'requests_failed_reason_total', () => true).filter((m) => m.value > 0);
    const why = reasons.length ? ` — ${reasons.map((m) => `${m.column ?? m.labels?.reason}: ${m.value}`).join(', ')}` : '';
    parts.push(`${nf} failed requests${share(nf, total)}${why}`);
    if (reasons.length && reasons.every((m) => m.labels?.reason === 'length')) {
      parts.push('"Length" failures only mean the response size differed from the first response (dynamic pages, or error pages)');
    }
  }
  if (nn > 0) parts.push(`${nn} non-2xx responses${share(nn, total)}`);
  return [finding('warning', `ab: ${parts.join('; ')}. Throughput and latency include these responses.`, [...failed, ...non2xx])];
}

/** The limits of load.errors. */
const LOAD_ERRORS = {
  /** failed ÷ all requests from which hey's and locust's failures are critical (1: every request failed) */
  criticalFailedShare: 1,
} as const;

export const loadErrors: FindingRule = {
  id: 'load.errors',
  kinds: ['wrk', 'hey', 'locust', 'sysbench'],
  thresholds: LOAD_ERRORS,
  evaluate: ({ capture: c }) => perRun(c, errorsOne),
};

/** All requests of the run: the unlabelled figure, or locust's Aggregated row. */
function requestsTotal(capture: ParsedCapture): number | undefined {
  return capture.metrics.find((m) => m.name === 'requests_total' && (!m.labels || isAgg(m) || Object.keys(m.labels).length === 0))?.value;
}

function errorsOne(capture: ParsedCapture): RuleFinding[] {
  const out: RuleFinding[] = [];
  const total = requestsTotal(capture);
  if (capture.kind === 'wrk') {
    const errs = pick(capture, 'errors_total', () => true);
    const n = sum(errs);
    if (n > 0) {
      const list = errs.filter((m) => m.value > 0).map((m) => `${m.labels?.type ?? '?'} ${m.value}`).join(', ');
      out.push(finding('warning', `wrk: ${n} socket errors (${list})${share(n, total)}; requests/s counts only completed requests.`, errs));
    }
  } else if (capture.kind === 'hey') {
    const errs = pick(capture, 'errors_total', () => true);
    const n = sum(errs);
    if (n > 0) {
      const byType = new Map<string, number>();
      for (const m of errs) byType.set(m.labels?.type ?? 'other', (byType.get(m.labels?.type ?? 'other') ?? 0) + m.value);
      const list = [...byType].map(([t, v]) => `${t} ${v}`).join(', ');
      const sev = total !== undefined && n >= total * LOAD_ERRORS.criticalFailedShare ? 'critical' : 'warning';
      out.push(finding(sev, `hey: ${n} requests failed (${list})${share(n, total)}.`, errs));
    }
  } else if (capture.kind === 'locust') {
    let failed = pick(capture, 'requests_failed_total', isAgg);
    if (!failed.length) failed = pick(capture, 'requests_failed_total');
    if (!failed.length) failed = pick(capture, 'errors_total', () => true);
    const n = failed.length && failed[0]!.name === 'errors_total' ? sum(failed) : (failed[0]?.value ?? 0);
    if (n > 0) {
      const perEp = pick(capture, 'requests_failed_total', (m) => !!m.labels?.endpoint && !isAgg(m) && m.value > 0)
        .sort((a, b) => b.value - a.value).slice(0, 3)
        .map((m) => `${m.labels?.method ? m.labels.method + ' ' : ''}${m.labels?.endpoint}: ${m.value}`);
      const sev = total !== undefined && n >= total * LOAD_ERRORS.criticalFailedShare ? 'critical' : 'warning';
      out.push(finding(sev, `locust: ${n} failed requests${share(n, total)}${perEp.length ? ` — ${perEp.join(', ')}` : ''}.`, failed));
    }
  } else if (capture.kind === 'sysbench') {
    const ign = pick(capture, 'ignored_errors_total');
    const rec = pick(capture, 'reconnects_total');
    const ni = sum(ign), nr = sum(rec);
    if (ni > 0 || nr > 0) {
      out.push(finding('warning', `sysbench: ${ni} ignored errors and ${nr} reconnects during the run (deadlocks or lost connections skew tps/qps).`, [...ign, ...rec]));
    }
  }
  return out;
}

/** wrk's and hey's responses with a status other than 2xx (wrk: other than 2xx/3xx). */
export const loadNon2xx: FindingRule = {
  id: 'load.non2xx',
  kinds: ['wrk', 'hey'],
  evaluate: ({ capture: c }) => perRun(c, non2xxOne),
};

function non2xxOne(capture: ParsedCapture): RuleFinding[] {
  const non = pick(capture, 'responses_non2xx_total');
  const nn = sum(non);
  if (nn <= 0) return [];
  const what = capture.kind === 'wrk' ? 'non-2xx/3xx responses' : 'non-2xx responses';
  return [finding('warning', `${capture.kind}: ${nn} ${what}${share(nn, requestsTotal(capture))}.`, non)];
}

export const rules: FindingRule[] = [abFailedRequests, loadErrors, loadNon2xx];
