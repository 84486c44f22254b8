/**
 * Locust: the --csv files (PREFIX_stats.csv, PREFIX_stats_history.csv with or without
 * --csv-full-history, PREFIX_failures.csv, PREFIX_exceptions.csv) and the console tables a
 * --headless run prints (request stats, "Response time percentiles", "Error report").
 * Columns are found by name, so the 0.x/1.x/2.x column sets all read. Locust times are in ms.
 * Format per locust/stats.py (StatsCSV, print_stats, print_percentile_stats, print_error_report).
 */
import type { CaptureParser, Labels, LineSink, ParseOutput, Table } from '../../types';
import { commandWord, fields } from '../../text';
import { SeriesSet } from '../../series';
import { Out, dec, ms, pName, round, splitCsv } from './common';

const TOOLS = ['locust'];
type Mode = 'stats' | 'history' | 'failures' | 'exceptions' | 'console';

function headerMode(line: string): Mode | undefined {
  if (/^"?Timestamp"?,"?User Count"?,/.test(line)) return 'history';
  if (/^"?Method"?,"?Name"?,"?Error"?,"?Occurrences"?\s*$/.test(line)) return 'failures';
  if (/^"?Count"?,"?Message"?,"?Traceback"?,"?Nodes"?\s*$/.test(line)) return 'exceptions';
  if (/^"?(Type|Method)"?,"?Name"?,/.test(line) && /(Request Count|# requests)/i.test(line)) return 'stats';
  return undefined;
}

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (i < 5) {
      const m = headerMode(l);
      if (m === 'exceptions') return 0.9;
      if (m) return 0.95;
    }
    if (/^Response time percentiles \(approximated\)/.test(l)) return 0.95;
    if (/\/(INFO|WARNING|ERROR)\/locust\.\w+: /.test(l)) score = Math.max(score, 0.9);
    if (/# reqs\s+# fails/.test(l)) score = Math.max(score, 0.9);
    if (/^Percentage of the requests completed within given times/.test(l)) score = Math.max(score, 0.8);
    if (i < 5) {
      const w = /^\s*(?:\S*[#$%>]\s+)?(\S.*)$/.exec(l);
      if (w && TOOLS.includes(commandWord(w[1]!))) score = Math.max(score, 0.4);
    }
  }
  return score;
}

/** Canonical name for a stats/history CSV column, with how to convert its value. */
function column(col: string, history: boolean): { name: string; unit: string; conv: (v: number) => number } | undefined {
  const c = col.trim().toLowerCase();
  const msv = (name: string) => ({ name, unit: 's', conv: ms });
  const id = (name: string, unit: string) => ({ name, unit, conv: (v: number) => v });
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(c);
  if (pct) {
    const p = Number(pct[1]);
    return msv(p >= 100 ? (history ? 'latency_max_current_seconds' : 'latency_p100_seconds') : `latency_${pName(p)}_seconds`);
  }
  const pre = history ? 'total ' : '';
  switch (c) {
    case 'user count': return id('users', 'count');
    case 'requests/s': return id('requests_per_second', '1/s');
    case 'failures/s': case 'requests failed/s': return id('failures_per_second', '1/s');
    case `${pre}request count`: case '# requests': return id('requests_total', 'count');
    case `${pre}failure count`: case '# failures': return id('requests_failed_total', 'count');
    case `${pre}median response time`: return msv(history ? 'latency_cumulative_median_seconds' : 'latency_median_seconds');
    case `${pre}average response time`: return msv('latency_mean_seconds');
    case `${pre}min response time`: return msv('latency_min_seconds');
    case `${pre}max response time`: return msv('latency_max_seconds');
    case `${pre}average content size`: return id('response_size_mean_bytes', 'B');
    default: return undefined;
  }
}

function rowLabels(method: string, name: string): Labels {
  const agg = name === 'Aggregated' || (name === 'Total' && (method === '' || method === 'None'));
  if (agg) return { endpoint: 'Aggregated' };
  return method && method !== 'None' ? { endpoint: name, method } : { endpoint: name };
}

const CONSOLE_COLS: Record<string, { name: string; unit: string; ms: boolean }> = {
  avg: { name: 'latency_mean_seconds', unit: 's', ms: true },
  min: { name: 'latency_min_seconds', unit: 's', ms: true },
  max: { name: 'latency_max_seconds', unit: 's', ms: true },
  med: { name: 'latency_p50_seconds', unit: 's', ms: true },
  median: { name: 'latency_p50_seconds', unit: 's', ms: true },
  'req/s': { name: 'requests_per_second', unit: '1/s', ms: false },
  'failures/s': { name: 'failures_per_second', unit: '1/s', ms: false },
};
const METHOD = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE|[A-Z][A-Z_]{1,15})$/;

function open(): LineSink {
  const out = new Out();
  const o = out.o;
  let mode: Mode | undefined;
  let header: string[] = [];
  let pending = '';
  let pendingLine = 0;
  const series = new SeriesSet();
  const failures: Table = { columns: ['Method', 'Name', 'Error', 'Occurrences'], rows: [] };
  const exceptions: Table = { columns: ['Count', 'Message', 'Traceback', 'Nodes'], rows: [] };
  // history: last row per label set, and rps samples of the aggregated row while users > 0
  const lastRow = new Map<string, { cells: string[]; lineNo: number; labels: Labels }>();
  let aggRps: number[] = [];
  let histFirst = 0, histLast = 0;
  // console
  let ctable: 'stats' | 'perc' | 'errors' | undefined;
  let statCols: string[] = [];
  let percCols: number[] = [];
  let reqsFirst = false;
  let consoleStats: { lineNo: number; line: string }[] = [];
  let consolePerc: { lineNo: number; line: string }[] = [];
  let consoleErrors: { lineNo: number; line: string }[] = [];
  let cur: { lineNo: number; line: string }[] = [];

  function idx(name: string): number {
    const n = name.toLowerCase();
    return header.findIndex((h) => h.trim().toLowerCase() === n);
  }

  function statsRow(c: string[], lineNo: number): void {
    const iType = Math.max(idx('Type'), idx('Method'));
    const iName = idx('Name');
    if (iName < 0 || c.length < header.length) { out.warn(lineNo, c.join(',')); return; }
    const labels = rowLabels(iType >= 0 ? c[iType]! : '', c[iName]!);
    const hasP50 = header.some((h) => h.trim() === '50%');
    header.forEach((h, i) => {
      if (i === iType || i === iName) return;
      const col = column(h, false);
      if (!col) return;
      let name = col.name;
      if (name === 'latency_median_seconds') { if (hasP50) return; name = 'latency_p50_seconds'; }
      if (name === 'latency_p100_seconds') return; // same as Max Response Time
      const v = dec(c[i]);
      if (Number.isFinite(v)) out.metric(name, round(col.conv(v)), col.unit, lineNo, h, labels);
    });
  }

  function historyRow(c: string[], lineNo: number): void {
    const iTs = idx('Timestamp');
    const iType = Math.max(idx('Type'), idx('Method'));
    const iName = idx('Name');
    const ts = dec(c[iTs]);
    if (iTs < 0 || iName < 0 || !Number.isFinite(ts) || c.length < header.length) { out.warn(lineNo, c.join(',')); return; }
    const labels = rowLabels(iType >= 0 ? c[iType]! : '', c[iName]!);
    if (!histFirst) histFirst = lineNo;
    histLast = lineNo;
    header.forEach((h, i) => {
      if (i === iTs || i === iType || i === iName) return;
      const col = column(h, true);
      if (!col) return;
      const v = dec(c[i]);
      series.push(col.name, h, col.unit, labels, Number.isFinite(v) ? round(col.conv(v)) : NaN, lineNo, ts * 1000);
    });
    const key = JSON.stringify(labels);
    lastRow.set(key, { cells: c, lineNo, labels });
    if (labels.endpoint === 'Aggregated') {
      const users = dec(c[idx('User Count')]);
      const rps = dec(c[idx('Requests/s')]);
      if (Number.isFinite(rps) && (!Number.isFinite(users) || users > 0)) aggRps.push(rps);
    }
  }

  function failureRow(c: string[], lineNo: number): void {
    if (c.length < 4) { out.warn(lineNo, c.join(',')); return; }
    const n = dec(c[3]);
    failures.rows.push([c[0]!, c[1]!, c[2]!, Number.isFinite(n) ? n : c[3]!]);
    const labels: Record<string, string> = { ...rowLabels(c[0]!, c[1]!), error: c[2]!.slice(0, 300) };
    out.metric('errors_total', n, 'count', lineNo, 'Occurrences', labels);
  }

  function exceptionRow(c: string[], lineNo: number): void {
    if (c.length < 3) { out.warn(lineNo, c.join(',')); return; }
    const n = dec(c[0]);
    exceptions.rows.push([Number.isFinite(n) ? n : c[0]!, c[1]!, c[2]!, c[3] ?? '']);
    out.metric('exceptions_total', n, 'count', lineNo, 'Count', { error: c[1]!.slice(0, 300) });
  }

  function csvRecord(rec: string, lineNo: number): void {
    const c = splitCsv(rec);
    if (mode === 'stats') statsRow(c, lineNo);
    else if (mode === 'history') historyRow(c, lineNo);
    else if (mode === 'failures') failureRow(c, lineNo);
    else if (mode === 'exceptions') exceptionRow(c, lineNo);
  }

  function quotesOpen(s: string): boolean {
    let n = 0;
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 34) n++;
    return n % 2 === 1;
  }

  // ---- console tables -------------------------------------------------------------------
  function closeTable(): void {
    if (ctable === 'stats' && cur.length) consoleStats = cur;
    else if (ctable === 'perc' && cur.length) consolePerc = cur;
    else if (ctable === 'errors' && cur.length) consoleErrors = cur;
    ctable = undefined;
    cur = [];
  }

  function consoleLine(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    const log = /^\[[\d-]+ [\d:,.]+\] [^/\s]+\/(\w+)\/([\w.]+): (.*)$/.exec(line);
    if (log) {
      const v = /^Starting Locust\s*(\S*)/.exec(log[3]!);
      if (v) o.toolVersion = v[1] ? `locust ${v[1]}` : 'locust';
      return;
    }
    // blank lines do not end a table: pasted consoles are often double-spaced; the next header does
    if (!line.trim()) return;
    if (out.command(line, TOOLS)) return;
    if (/# reqs\s+# fails/.test(line)) {
      closeTable();
      ctable = 'stats';
      const f = fields(line.replace(/\|/g, ' '));
      const i = f.lastIndexOf('fails');
      statCols = f.slice(i + 1).map((x) => x.toLowerCase());
      return;
    }
    if (/^\s*(Response time percentiles|Percentage of the requests completed within given times)/.test(line)) { closeTable(); ctable = 'perc'; percCols = []; return; }
    if (ctable === 'perc' && line.includes('# reqs') && /(?:^|\s)50%(?:\s|$)/.test(line)) {
      const f = fields(line);
      percCols = f.filter((x) => /^[\d.]+%$/.test(x)).map((x) => Number(x.slice(0, -1)));
      // locust 2.x prints "# reqs" last; 0.x/1.x printed it before the percentiles
      reqsFirst = f.indexOf('#') < f.findIndex((x) => /^[\d.]+%$/.test(x));
      return;
    }
    if (/^\s*Error report/.test(line)) { closeTable(); ctable = 'errors'; return; }
    if (ctable === 'errors' && /^\s*# occurr?ences\s+Error/.test(line)) return;
    if (/^[-|\s]+$/.test(line)) return;
    if (ctable) { cur.push({ lineNo, line }); return; }
    if (/^(Traceback|\s+File |KeyboardInterrupt|\w+Error:)/.test(line)) return;
    out.warn(lineNo, line);
  }

  function splitName(tokens: string[]): Labels {
    if (tokens.length >= 2 && METHOD.test(tokens[0]!)) return rowLabels(tokens[0]!, tokens.slice(1).join(' '));
    return rowLabels('', tokens.join(' ') || 'Aggregated');
  }

  function consoleEnd(): void {
    closeTable();
    for (const { line, lineNo } of consoleStats) {
      const f = fields(line.replace(/\|/g, ' '));
      const fi = f.findIndex((x) => /^\d+\([\d.]+%\)$/.test(x));
      if (fi < 1) { out.warn(lineNo, line); continue; }
      const labels = splitName(f.slice(0, fi - 1));
      out.metric('requests_total', dec(f[fi - 1]), 'count', lineNo, '# reqs', labels);
      out.metric('requests_failed_total', dec(f[fi]!.replace(/\(.*$/, '')), 'count', lineNo, '# fails', labels);
      // the 0.x "Total" row prints only req/s: values short of the header align to the right
      const vals = f.slice(fi + 1);
      const shift = Math.max(0, statCols.length - vals.length);
      statCols.forEach((col, k) => {
        const d = CONSOLE_COLS[col];
        const v = dec(vals[k - shift]);
        if (d && Number.isFinite(v)) out.metric(d.name, d.ms ? ms(v) : v, d.unit, lineNo, col, labels);
      });
    }
    for (const { line, lineNo } of consolePerc) {
      const f = fields(line);
      const n = percCols.length;
      if (!n || f.length < n + 2) { out.warn(lineNo, line); continue; }
      const vals = reqsFirst ? f.slice(f.length - n) : f.slice(f.length - 1 - n, f.length - 1);
      const labels = splitName(f.slice(0, f.length - 1 - n));
      percCols.forEach((p, k) => {
        const v = dec(vals[k]);
        if (!Number.isFinite(v) || p >= 100) return;
        if (p === 50 && out.has('latency_p50_seconds', labels)) out.setMetric('latency_p50_seconds', ms(v), 's', lineNo, '50%', labels);
        else out.metric(`latency_${pName(p)}_seconds`, ms(v), 's', lineNo, `${p}%`, labels);
      });
    }
    for (const { line, lineNo } of consoleErrors) {
      const m = /^\s*(\d+)\s+(\S.*)$/.exec(line);
      if (!m) { out.warn(lineNo, line); continue; }
      const em = /^([A-Z]+) (\S+): (.*)$/.exec(m[2]!);
      const labels: Record<string, string> = em ? { ...rowLabels(em[1]!, em[2]!), error: em[3]!.slice(0, 300) } : { error: m[2]!.slice(0, 300) };
      out.metric('errors_total', Number(m[1]), 'count', lineNo, '# occurrences', labels);
    }
  }

  return {
    line(text: string, lineNo: number): void {
      if (mode === undefined) {
        if (!text.trim()) return;
        const m = headerMode(text);
        if (m) { mode = m; header = splitCsv(text.trim()); o.facts.locust_file = m; return; }
        mode = 'console';
      }
      if (mode === 'console') { consoleLine(text, lineNo); return; }
      if (pending) {
        pending += '\n' + text;
        if (quotesOpen(pending) && pending.length < 1 << 20) return;
        csvRecord(pending, pendingLine);
        pending = '';
        return;
      }
      if (!text.trim()) return;
      if (quotesOpen(text)) { pending = text; pendingLine = lineNo; return; }
      csvRecord(text, lineNo);
    },
    end(): ParseOutput {
      if (pending) { csvRecord(pending, pendingLine); pending = ''; }
      if (mode === 'console') consoleEnd();
      if (mode === 'history') {
        o.series = series.list;
        for (const { cells, lineNo, labels } of lastRow.values()) {
          header.forEach((h, i) => {
            const col = column(h, true);
            if (!col || !/^(requests_total|requests_failed_total|latency_mean_seconds|latency_min_seconds|latency_max_seconds|latency_cumulative_median_seconds)$/.test(col.name)) return;
            const v = dec(cells[i]);
            const name = col.name === 'latency_cumulative_median_seconds' ? 'latency_p50_seconds' : col.name;
            if (Number.isFinite(v)) out.metric(name, round(col.conv(v)), col.unit, lineNo, h, labels);
          });
        }
        if (aggRps.length) {
          const m = out.metric('requests_per_second', round(aggRps.reduce((a, b) => a + b, 0) / aggRps.length, 6), '1/s', undefined, 'Requests/s (mean of samples with users > 0)', { endpoint: 'Aggregated' });
          if (m) m.lines = [histFirst, histLast];
        }
        aggRps = [];
      }
      if (failures.rows.length) (o.tables ??= {}).failures = failures;
      if (exceptions.rows.length) (o.tables ??= {}).exceptions = exceptions;
      if (mode === 'failures' || mode === 'exceptions') {
        const name = mode === 'failures' ? 'errors_total' : 'exceptions_total';
        const sum = o.metrics.filter((m) => m.name === name).reduce((a, m) => a + m.value, 0);
        out.metric(mode === 'failures' ? 'requests_failed_total' : 'exceptions_sum_total', sum, 'count', undefined, mode === 'failures' ? 'sum of Occurrences' : 'sum of Count');
      }
      if (mode === undefined) out.note('empty locust file');
      return out.finish('locust');
    },
  };
}

export const locust: CaptureParser = { id: 'locust', title: 'Locust (CSV files, console summary)', detect, open };
