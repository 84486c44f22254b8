/** Finding rules for the load-generator captures. */
import type { Finding, FindingRule, Metric, ParsedCapture } from '../../types';

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

function finding(id: string, severity: Finding['severity'], message: string, ev: readonly Metric[]): Finding {
  const f: Finding = { id, severity, message };
  const e = evidence(ev);
  if (e) f.evidence = e;
  return f;
}

const isAgg = (m: Metric): boolean => m.labels?.endpoint === 'Aggregated';

/**
 * Several runs pasted into one capture carry a `run` label on every metric: evaluate each run on
 * its own, with the label taken off, and say which run a finding is about.
 */
function perRun(c: ParsedCapture, evaluate: (c: ParsedCapture) => Finding[]): Finding[] {
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

function abOne(capture: ParsedCapture): Finding[] {
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
  return [finding('load.ab-failed-requests', 'warning', `ab: ${parts.join('; ')}. Throughput and latency include these responses.`, [...failed, ...non2xx])];
}

export const loadErrors: FindingRule = {
  id: 'load.errors',
  kinds: ['wrk', 'hey', 'locust', 'sysbench'],
  evaluate: ({ capture: c }) => perRun(c, errorsOne),
};

function errorsOne(capture: ParsedCapture): Finding[] {
  const out: Finding[] = [];
  const total = capture.metrics.find((m) => m.name === 'requests_total' && (!m.labels || isAgg(m) || Object.keys(m.labels).length === 0))?.value;
  if (capture.kind === 'wrk') {
    const errs = pick(capture, 'errors_total', () => true);
    const n = sum(errs);
    if (n > 0) {
      const list = errs.filter((m) => m.value > 0).map((m) => `${m.labels?.type ?? '?'} ${m.value}`).join(', ');
      out.push(finding('load.errors', 'warning', `wrk: ${n} socket errors (${list})${share(n, total)}; requests/s counts only completed requests.`, errs));
    }
    const non = pick(capture, 'responses_non2xx_total');
    const nn = sum(non);
    if (nn > 0) out.push(finding('load.non2xx', 'warning', `wrk: ${nn} non-2xx/3xx responses${share(nn, total)}.`, non));
  } else if (capture.kind === 'hey') {
    const errs = pick(capture, 'errors_total', () => true);
    const n = sum(errs);
    if (n > 0) {
      const byType = new Map<string, number>();
      for (const m of errs) byType.set(m.labels?.type ?? 'other', (byType.get(m.labels?.type ?? 'other') ?? 0) + m.value);
      const list = [...byType].map(([t, v]) => `${t} ${v}`).join(', ');
      const sev = total !== undefined && n >= total ? 'critical' : 'warning';
      out.push(finding('load.errors', sev, `hey: ${n} requests failed (${list})${share(n, total)}.`, errs));
    }
    const non = pick(capture, 'responses_non2xx_total');
    const nn = sum(non);
    if (nn > 0) out.push(finding('load.non2xx', 'warning', `hey: ${nn} non-2xx responses${share(nn, total)}.`, non));
  } else if (capture.kind === 'locust') {
    let failed = pick(capture, 'requests_failed_total', isAgg);
    if (!failed.length) failed = pick(capture, 'requests_failed_total');
    if (!failed.length) failed = pick(capture, 'errors_total', () => true);
    const n = failed.length && failed[0]!.name === 'errors_total' ? sum(failed) : (failed[0]?.value ?? 0);
    if (n > 0) {
      const perEp = pick(capture, 'requests_failed_total', (m) => !!m.labels?.endpoint && !isAgg(m) && m.value > 0)
        .sort((a, b) => b.value - a.value).slice(0, 3)
        .map((m) => `${m.labels?.method ? m.labels.method + ' ' : ''}${m.labels?.endpoint}: ${m.value}`);
      const sev = total !== undefined && n >= total ? 'critical' : 'warning';
      out.push(finding('load.errors', sev, `locust: ${n} failed requests${share(n, total)}${perEp.length ? ` — ${perEp.join(', ')}` : ''}.`, failed));
    }
  } else if (capture.kind === 'sysbench') {
    const ign = pick(capture, 'ignored_errors_total');
    const rec = pick(capture, 'reconnects_total');
    const ni = sum(ign), nr = sum(rec);
    if (ni > 0 || nr > 0) {
      out.push(finding('load.errors', 'warning', `sysbench: ${ni} ignored errors and ${nr} reconnects during the run (deadlocks or lost connections skew tps/qps).`, [...ign, ...rec]));
    }
  }
  return out;
}

export const rules: FindingRule[] = [abFailedRequests, loadErrors];
