/**
 * ApacheBench (ab) text output (plain, -k, -t, -S, -d, POST/PUT, TLS, interrupted runs, connect
 * failures) and its side files: the -e percentile CSV ("Percentage served,Time in ms") and the
 * -g gnuplot TSV ("starttime\tseconds\tctime\tdtime\tttime\twait").
 * Format per httpd support/ab.c output_results().
 */
import type { CaptureParser, FactValue, LineSink, ParseOutput, Table } from '../../types';
import { commandWord, fields, promptCommand } from '../../text';
import { SeriesSet } from '../../series';
import { Out, dec, ms, round } from './common';

const TOOLS = ['ab', 'ab2'];
const CSV_HEADER = /^Percentage served,Time in ms\s*$/;
const GNUPLOT_HEADER = /^starttime\tseconds\tctime\tdtime\tttime\twait\s*$/;
const PERC_TITLE = /^Percentage of the requests served within a certain time/;
const STD_PERCS = new Set([50, 66, 75, 80, 90, 95, 98, 99]);

/** A line of `ab -w` (its results as HTML tables): the tags become spaces, entities their characters. */
const HTML_LINE = /<\/?(?:p|br|table|tr|th|td|i)\b[^>]*>/i;
function htmlLineText(line: string): string {
  return line.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ').trim().replace(/^(\S[^:]*:) /, '$1    ');
}

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (l.startsWith('This is ApacheBench, Version')) return 0.99;
    if (/^\s*This is ApacheBench, Version \S+ <i>/.test(l)) return 0.99; // ab -w
    if (PERC_TITLE.test(l)) score = Math.max(score, 0.95);
    if (i < 5 && CSV_HEADER.test(l)) return 0.95;
    if (i < 5 && GNUPLOT_HEADER.test(l)) return 0.95;
    if (/^Complete requests:\s+\d+/.test(l)) score = Math.max(score, 0.6);
    if (/^Time per request:\s+[\d.]+ \[ms\] \(mean/.test(l)) score = Math.max(score, 0.9);
    if (/^Benchmarking \S+ \(be patient\)/.test(l)) score = Math.max(score, 0.9);
    if (i < 5 && score < 0.4) {
      const w = /^\s*(?:\S*[#$%>]\s+)?(\S.*)$/.exec(l);
      if (w && TOOLS.includes(commandWord(w[1]!)) && /\bhttps?:\/\//.test(l)) score = Math.max(score, 0.4);
    }
  }
  return score;
}

type Section = 'none' | 'results' | 'conn' | 'perc';

function open(): LineSink {
  const out = new Out();
  const o = out.o;
  const facts = o.facts;
  let mode: 'text' | 'csv' | 'gnuplot' | undefined;
  let section: Section = 'none';
  let sawTimePerRequest = false;
  let transferLine = 0;
  let connCols: string[] = [];
  const connTable: Table = { columns: ['phase', 'min_ms', 'mean_ms', 'sd_ms', 'median_ms', 'max_ms'], rows: [] };
  const percTable: Table = { columns: ['percent', 'time_ms'], rows: [] };
  const toolErrors: string[] = [];
  const reliability: string[] = [];
  let finished: number | undefined;
  let requested: number | undefined;
  let timeLimit: number | undefined;
  let complete: number | undefined;
  let totalRow: number[] | undefined;
  let totalRowLine = 0;
  let sawPerc = false;
  const series = new SeriesSet();
  const gp = { n: 0, sum: 0, max: -Infinity, first: 0, last: 0 };

  let runStarted = false;
  let verbose = false;

  function fact(k: string, v: FactValue): void { facts[k] = v; }

  /** End of one run: requested vs finished (ab -t, or an interrupted run). */
  function runChecks(): void {
    if (finished !== undefined) fact('requests_finished', finished);
    if (requested === undefined) return;
    fact('requests_requested', requested);
    const done = complete ?? finished;
    if (done !== undefined && done < requested) {
      fact('cut_short', true);
      out.note(`run${out.run > 1 ? ` ${out.run}` : ''} cut short: ${done} of ${requested} requested requests completed${timeLimit !== undefined ? ` (time limit -t ${timeLimit} s)` : ''}`);
    }
  }

  /** Another ab run pasted below the first: its metrics get run=N (see Out.finish). */
  function nextRun(): void {
    fallbackLatency();
    runChecks();
    requested = complete = finished = undefined;
    out.newRun();
    runStarted = false;
    sawTimePerRequest = false;
    sawPerc = false;
    totalRow = undefined;
    transferLine = 0;
    section = 'none';
    verbose = false;
  }

  // -d (no percentile table): fall back on the Total row's median and max
  function fallbackLatency(): void {
    if (mode === 'text' && !sawPerc && totalRow) {
      if (Number.isFinite(totalRow[3])) out.metric('latency_p50_seconds', ms(totalRow[3]!), 's', totalRowLine, 'Total median');
      if (Number.isFinite(totalRow[4])) out.metric('latency_max_seconds', ms(totalRow[4]!), 's', totalRowLine, 'Total max');
    }
  }

  function commandLine(line: string): boolean {
    const cmd = promptCommand(line, TOOLS);
    if (cmd === undefined) return false;
    out.command(line, TOOLS);
    timeLimit = undefined;
    const n = /(?:^|\s)-n\s*(\d+)/.exec(cmd);
    if (n) requested = Number(n[1]);
    const t = /(?:^|\s)-t\s*(\d+)/.exec(cmd);
    if (t) { timeLimit = Number(t[1]); fact('time_limit_seconds', timeLimit); }
    const c = /(?:^|\s)-c\s*(\d+)/.exec(cmd);
    if (c && !out.has('concurrency')) fact('concurrency_requested', Number(c[1]));
    return true;
  }

  function csvLine(line: string, lineNo: number): void {
    const m = /^(\d+),([\d.]+)\s*$/.exec(line);
    if (!m) { if (line.trim()) out.warn(lineNo, line); return; }
    const p = Number(m[1]);
    const v = Number(m[2]);
    percTable.rows.push([p, v]);
    if (p === 0) out.metric('latency_min_seconds', ms(v), 's', lineNo, '0');
    else if (p === 100) out.metric('latency_max_seconds', ms(v), 's', lineNo, '100');
    else if (STD_PERCS.has(p)) out.metric(`latency_p${p}_seconds`, ms(v), 's', lineNo, String(p));
  }

  function gnuplotLine(line: string, lineNo: number): void {
    const c = line.split('\t');
    const secs = dec(c[1]);
    const vals = [dec(c[2]), dec(c[3]), dec(c[4]), dec(c[5])];
    if (c.length < 6 || !Number.isFinite(secs) || vals.some((v) => !Number.isFinite(v))) {
      if (line.trim()) out.warn(lineNo, line);
      return;
    }
    const t = secs * 1000;
    series.push('connect_time_seconds', 'ctime', 's', undefined, ms(vals[0]!), lineNo, t);
    series.push('processing_time_seconds', 'dtime', 's', undefined, ms(vals[1]!), lineNo, t);
    series.push('latency_seconds', 'ttime', 's', undefined, ms(vals[2]!), lineNo, t);
    series.push('wait_time_seconds', 'wait', 's', undefined, ms(vals[3]!), lineNo, t);
    if (gp.n === 0) gp.first = lineNo;
    gp.last = lineNo;
    gp.n++;
    gp.sum += vals[2]!;
    if (vals[2]! > gp.max) gp.max = vals[2]!;
  }

  function keyValue(key: string, val: string, lineNo: number): boolean {
    const v = val.trim();
    const first = v.split(/\s+/)[0] ?? '';
    switch (key) {
      case 'Server Software':
        if (runStarted) nextRun();
        runStarted = true;
        fact('server_software', v);
        return true;
      case 'Server Hostname': fact('server_hostname', v); return true;
      case 'Server Port': fact('server_port', dec(first)); return true;
      case 'SSL/TLS Protocol': fact('tls_protocol', v); return true;
      case 'Server Temp Key': fact('tls_server_temp_key', v); return true;
      case 'TLS Server Name': fact('tls_server_name', v); return true;
      case 'Document Path': fact('document_path', v); return true;
      case 'Document Length':
        if (v === 'Variable') { fact('document_length', 'Variable'); return true; }
        fact('document_length_bytes', dec(first));
        out.metric('document_length_bytes', dec(first), 'B', lineNo, key);
        return true;
      case 'Number of workers': out.metric('workers', dec(first), 'count', lineNo, key); return true;
      case 'Concurrency Level': out.metric('concurrency', dec(first), 'count', lineNo, key); return true;
      case 'Concurrency achieved': out.metric('concurrency_achieved', dec(first), 'count', lineNo, key); return true;
      case 'Rampup delay': out.metric('rampup_delay_seconds', ms(dec(first)), 's', lineNo, key); return true;
      case 'Time taken for tests': out.metric('duration_seconds', dec(first), 's', lineNo, key); return true;
      case 'Number of requests': requested = dec(first); out.metric('requests_planned', dec(first), 'count', lineNo, key); return true;
      case 'Complete requests': complete = dec(first); out.metric('requests_total', complete, 'count', lineNo, key); return true;
      case 'Failed requests': out.metric('requests_failed_total', dec(first), 'count', lineNo, key); return true;
      case 'Write errors': out.metric('write_errors_total', dec(first), 'count', lineNo, key); return true;
      case 'Non-2xx responses': out.metric('responses_non2xx_total', dec(first), 'count', lineNo, key); return true;
      case 'Keep-Alive requests': out.metric('requests_keepalive_total', dec(first), 'count', lineNo, key); return true;
      case 'Keep-Alive aborts': out.metric('keepalive_aborts_total', dec(first), 'count', lineNo, key); return true;
      case 'Total transferred': out.metric('transferred_bytes', dec(first), 'B', lineNo, key); return true;
      case 'Total body sent': out.metric('body_sent_bytes', dec(first), 'B', lineNo, key); return true;
      case 'HTML transferred': out.metric('html_transferred_bytes', dec(first), 'B', lineNo, key); return true;
      case 'Requests per second': out.metric('requests_per_second', dec(first), '1/s', lineNo, key); return true;
      case 'Time per request':
        if (/across all concurrent/.test(v)) out.metric('latency_mean_across_seconds', ms(dec(first)), 's', lineNo, key + ' (mean, across all concurrent requests)');
        else if (!sawTimePerRequest) out.metric('latency_mean_seconds', ms(dec(first)), 's', lineNo, key);
        sawTimePerRequest = true;
        return true;
      case 'Transfer rate': {
        const kb = /^([\d.]+)\s*(?:\[Kbytes\/sec\]|kb\/s)/.exec(v);
        if (!kb) return false;
        out.metric('transfer_bytes_per_second', round(Number(kb[1]) * 1024), 'B/s', lineNo, key);
        transferLine = lineNo;
        return true;
      }
      default:
        return false;
    }
  }

  function connRow(line: string, lineNo: number): boolean {
    const m = /^(Connect|Processing|Waiting|Total):\s+(.*)$/.exec(line);
    if (!m) return false;
    const phase = m[1]!.toLowerCase();
    const nums = fields(m[2]!).map(dec);
    if (nums.some((x) => !Number.isFinite(x))) return false;
    let row: (number | null)[];
    if (nums.length === 5) row = nums;
    else if (nums.length === 3) row = [nums[0]!, nums[1]!, null, null, nums[2]!];
    else return false;
    connTable.rows.push([phase, ...row]);
    const names = ['min', 'mean', 'stdev', 'median', 'max'];
    const labels = { phase };
    row.forEach((x, i) => {
      if (x !== null) out.metric(`connection_time_${names[i]}_seconds`, ms(x), 's', lineNo, `${m[1]} ${connCols[i] || names[i]}`, labels);
    });
    if (phase === 'total') { totalRow = row.map((x) => (x === null ? NaN : x)); totalRowLine = lineNo; }
    return true;
  }

  function percRow(line: string, lineNo: number): boolean {
    const m = /^\s*(\d+)%\s+(\S+)(?:\s+\((longest request|never)\))?\s*$/.exec(line);
    if (!m) return false;
    const p = Number(m[1]);
    const v = dec(m[2]);
    if (!Number.isFinite(v)) return m[3] === 'never' || m[2] === '<0>';
    percTable.rows.push([p, v]);
    sawPerc = true;
    if (p >= 100) out.metric('latency_max_seconds', ms(v), 's', lineNo, '100%');
    else out.metric(`latency_p${p}_seconds`, ms(v), 's', lineNo, `${p}%`);
    return true;
  }

  function textLine(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    // blank lines end nothing: pasted captures are often double-spaced; rows are recognised by shape
    if (!line) return;
    const ver = /^This is ApacheBench, Version (\S+)(?:\s+<\$Revision:?\s*([^$]*?)\s*\$>)?/.exec(line);
    if (ver) {
      if (runStarted) nextRun();
      o.toolVersion = `ApacheBench ${ver[1]}${ver[2] ? ` (r${ver[2]})` : ''}`;
      return;
    }
    if (/^(Copyright \d{4} Adam Twiss|Licensed to The Apache Software Foundation)/.test(line)) return;
    const bench = /^Benchmarking (\S+) \(be patient\)(.*)$/.exec(line);
    if (bench) {
      fact('target_host', bench[1]!);
      const rest = bench[2]!.replace(/^\.+/, '').trim();
      if (/^(INFO|LOG):/.test(rest)) verbose = true;
      else if (rest && rest !== 'done') toolErrors.push(rest);
      return;
    }
    if (/^Completed \d+ requests$/.test(line)) return;
    // -v 2+ dumps request/response headers and bodies before the results
    if (/^(LOG|INFO): /.test(line) || /^WARNING: Response code not 2xx/.test(line)) { verbose = true; return; }
    let m = /^Finished (\d+) requests$/.exec(line);
    if (m) { finished = Number(m[1]); return; }
    m = /^Total of (\d+) requests completed$/.exec(line);
    if (m) { finished = Number(m[1]); fact('aborted', true); out.metric('requests_completed_before_abort', Number(m[1]), 'count', lineNo, 'Total of … requests completed'); return; }
    if (/^(apr_\w+|Test aborted|SSL |Send request|socket|bind|connect|Cannot|Invalid|ab: )/.test(line)) {
      toolErrors.push(line.trim());
      return;
    }
    if (runStarted && promptCommand(line, TOOLS) !== undefined) nextRun();
    if (commandLine(line)) return;
    if (line.startsWith('Connection Times (ms)')) { section = 'conn'; return; }
    if (PERC_TITLE.test(line)) { section = 'perc'; return; }
    if (section === 'conn' || section === 'perc') {
      if (/^\s+min\s+/.test(line)) { connCols = /mean\[/.test(line) ? ['min', 'mean', '[+/-sd]', 'median', 'max'] : ['min', 'avg', '', '', 'max']; return; }
      if (connRow(line, lineNo)) return;
      if (/^(WARNING|ERROR): The median and mean/.test(line)) { reliability.push(line.trim()); return; }
      if (/^\s+(These results|deviation apart)/.test(line)) return;
    }
    if ((section === 'perc' || section === 'conn') && percRow(line, lineNo)) return;
    const failed = /^\s+\((Connect: .*)\)\s*$/.exec(line);
    if (failed) {
      for (const part of failed[1]!.split(',')) {
        const kv = /^\s*(\w+):\s*(\d+)\s*$/.exec(part);
        if (kv) out.metric('requests_failed_reason_total', Number(kv[2]), 'count', lineNo, kv[1], { reason: kv[1]!.toLowerCase() });
      }
      return;
    }
    const extra = /^\s+([\d.]+) kb\/s (sent|total)\s*$/.exec(line);
    if (extra && transferLine) {
      out.metric(extra[2] === 'sent' ? 'transfer_sent_bytes_per_second' : 'transfer_total_bytes_per_second', round(Number(extra[1]) * 1024), 'B/s', lineNo, `kb/s ${extra[2]}`);
      return;
    }
    const kv = /^([A-Z][A-Za-z0-9/ +-]*?):\s+(.*)$/.exec(line);
    if (kv) {
      section = section === 'none' ? 'results' : section;
      if (keyValue(kv[1]!, kv[2]!, lineNo)) return;
    }
    // other "what: message (errno)" lines ab prints through apr_err()/graceful_strerror()
    if (/^\w[\w ()]*: .*\(\d+\)$/.test(line)) { toolErrors.push(line.trim()); return; }
    if (/^\*\*|^\.+$|^(Server timed out|\.\.done)/.test(line)) return;
    if (verbose && !runStarted) return;
    out.warn(lineNo, line);
  }

  return {
    line(text: string, lineNo: number): void {
      if (mode === undefined) {
        if (!text.trim()) return;
        if (CSV_HEADER.test(text)) { mode = 'csv'; o.toolVersion = undefined; fact('ab_file', 'percentiles-csv'); return; }
        if (GNUPLOT_HEADER.test(text)) { mode = 'gnuplot'; fact('ab_file', 'gnuplot-tsv'); return; }
        mode = 'text';
      }
      if (mode === 'csv') csvLine(text, lineNo);
      else if (mode === 'gnuplot') gnuplotLine(text, lineNo);
      else if (HTML_LINE.test(text)) {
        const t = htmlLineText(text);
        // the column heads of -w's connection table ("min avg max") say nothing the rows do not
        if (t && !/^min avg max$/.test(t)) textLine(t, lineNo);
      }
      else textLine(text, lineNo);
    },
    end(): ParseOutput {
      if (o.toolVersion === undefined) delete o.toolVersion;
      if (mode === 'gnuplot') {
        o.series = series.list;
        if (gp.n) {
          out.metric('requests_total', gp.n, 'count', undefined, 'rows');
          out.metric('latency_mean_seconds', ms(round(gp.sum / gp.n, 6)), 's', undefined, 'ttime (mean)');
          out.metric('latency_max_seconds', ms(gp.max), 's', undefined, 'ttime (max)');
          for (const m of o.metrics) m.lines = [gp.first, gp.last];
        }
      }
      if (percTable.rows.length) (o.tables ??= {}).percentiles = percTable;
      if (connTable.rows.length) (o.tables ??= {}).connection_times = connTable;
      fallbackLatency();
      runChecks();
      if (toolErrors.length) fact('errors', toolErrors.slice(0, 50));
      if (reliability.length) fact('reliability_warnings', reliability);
      if (mode === 'text' && complete === undefined) out.note(toolErrors.length ? `ab printed no results: ${toolErrors[0]}` : 'no ab results section found (truncated capture?)');
      return out.finish('ab');
    },
  };
}

export const ab: CaptureParser = { id: 'ab', title: 'ApacheBench (ab)', detect, open };
