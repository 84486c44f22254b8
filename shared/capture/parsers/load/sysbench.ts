/**
 * sysbench 1.0/1.1 (and the common parts of 0.4/0.5) text output: cpu, memory, fileio, threads,
 * mutex and the oltp_* Lua tests; --report-interval lines as series; General statistics, Latency
 * (ms), Threads fairness; --histogram. Format per sysbench src/sysbench.c (report_cumulative,
 * report_intermediate), src/tests/*, src/lua/oltp_common.lua / sysbench.rand and sb_report_*.
 */
import type { CaptureParser, LineSink, ParseOutput, Table } from '../../types';
import { commandWord, promptCommand } from '../../text';
import { SeriesSet } from '../../series';
import { Out, dec, ms, pName, round } from './common';

const TOOLS = ['sysbench'];
const MIB = 1024 * 1024;
const VERSION = /^sysbench (\d+\.\d+(?:\.\d+)?(?:[-+~][\w.]+)?):?(?:\s+\(using ([^)]*)\))?/;
const RESULT_HEADS = new Set(['CPU speed:', 'File operations:', 'Throughput:', 'SQL statistics:', 'OLTP test statistics:', 'General statistics:', 'Test execution summary:', 'Latency (ms):', 'Threads fairness:', 'Latency histogram (values are in milliseconds)']);
const INTERVAL = /^\[ *([\d.]+)s ?\] (.*)$/;

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (VERSION.test(l) && /\(using (system |bundled )?LuaJIT|multi-threaded system evaluation benchmark/.test(l)) return 0.99;
    if (/^Threads fairness:$/.test(l)) score = Math.max(score, 0.9);
    if (/^\s+total number of events:\s+\d+/.test(l)) score = Math.max(score, 0.9);
    if (/^\[ *\d+s \] thds: \d+ (eps|tps):/.test(l)) score = Math.max(score, 0.9);
    if (/^\[ *\d+s \] reads: [\d.]+ MiB\/s writes:/.test(l)) score = Math.max(score, 0.9);
    if (/^Running the test with following options:$/.test(l)) score = Math.max(score, 0.8);
    if (i < 5 && VERSION.test(l)) score = Math.max(score, 0.6);
    if (i < 5) {
      const w = /^\s*(?:\S*[#$%>]\s+)?(\S.*)$/.exec(l);
      if (w && TOOLS.includes(commandWord(w[1]!))) score = Math.max(score, 0.5);
    }
  }
  return score;
}

type Section = 'none' | 'options' | 'cpu' | 'fileops' | 'throughput' | 'sql' | 'queries' | 'general' | 'latency' | 'fairness' | 'histogram' | 'oldreq';

function open(): LineSink {
  const out = new Out();
  const o = out.o;
  let section: Section = 'none';
  let started = false;
  let mode: string | undefined;
  const series = new SeriesSet();
  const histogram: Table = { columns: ['value_ms', 'count'], rows: [] };
  const errors: string[] = [];
  let events: number | undefined, eventsLine = 0, duration: number | undefined;

  function setMode(m: string): void { if (mode === undefined) mode = m; }

  function commandLine(line: string): boolean {
    if (!out.command(line, TOOLS)) return false;
    const words = o.command!.split(/\s+/);
    const t = /--test=(\S+)/.exec(o.command!);
    if (t) setMode(t[1]!.replace(/\.lua$/, '').split('/').pop()!);
    else {
      const w = words.slice(1).find((x) => !x.startsWith('-') && !/^(run|prepare|cleanup|help)$/.test(x));
      if (w) setMode(w.replace(/\.lua$/, '').split('/').pop()!);
    }
    return true;
  }

  function interval(body: string, t: number, lineNo: number): boolean {
    let any = false;
    const push = (name: string, col: string, unit: string, v: number, labels?: Record<string, string>): void => {
      if (!Number.isFinite(v)) return;
      series.push(name, col, unit, labels, v, lineNo);
      any = true;
    };
    push('elapsed_seconds', '[ Ns ]', 's', t);
    let m = /\bthds: (\d+)/.exec(body); if (m) push('threads', 'thds', 'count', Number(m[1]));
    m = /\beps: ([\d.]+)/.exec(body); if (m) { push('events_per_second', 'eps', '1/s', Number(m[1])); setMode('cpu'); }
    m = /\btps: ([\d.]+)/.exec(body); if (m) { push('transactions_per_second', 'tps', '1/s', Number(m[1])); setMode('oltp'); }
    m = /\bqps: ([\d.]+)/.exec(body); if (m) push('queries_per_second', 'qps', '1/s', Number(m[1]));
    m = /\(r\/w\/o: ([\d.]+)\/([\d.]+)\/([\d.]+)\)/.exec(body);
    if (m) ['read', 'write', 'other'].forEach((type, i) => push('queries_per_second', `r/w/o ${type}`, '1/s', Number(m![i + 1]), { type }));
    m = /\b(?:lat|latency) \(ms,([\d.]+)%\): ([\d.]+)/.exec(body);
    if (m) push(`latency_${pName(Number(m[1]))}_seconds`, `lat (ms,${m[1]!}%)`, 's', ms(Number(m[2])));
    m = /\berr\/s: ([\d.]+)/.exec(body); if (m) push('errors_per_second', 'err/s', '1/s', Number(m[1]));
    m = /\breconn\/s: ([\d.]+)/.exec(body); if (m) push('reconnects_per_second', 'reconn/s', '1/s', Number(m[1]));
    // sysbench 0.5: "threads: 8, tps: …, reads: …, writes: …, response time: 12.3ms (95%), errors: …, reconnects: …"
    m = /^threads: (\d+),/.exec(body); if (m) push('threads', 'threads', 'count', Number(m[1]));
    m = /\breads(?:\/s)?: ([\d.]+), writes(?:\/s)?: ([\d.]+)/.exec(body);
    if (m) ['read', 'write'].forEach((type, i) => push('queries_per_second', `${type}s`, '1/s', Number(m![i + 1]), { type }));
    m = /\bresponse time: ([\d.]+)ms \(([\d.]+)%\)/.exec(body);
    if (m) push(`latency_${pName(Number(m[2]))}_seconds`, `response time (${m[2]!}%)`, 's', ms(Number(m[1])));
    m = /\berrors: ([\d.]+)/.exec(body); if (m) push('errors_per_second', 'errors', '1/s', Number(m[1]));
    m = /\breconnects: +([\d.]+)/.exec(body); if (m) push('reconnects_per_second', 'reconnects', '1/s', Number(m[1]));
    m = /\breads: ([\d.]+) MiB\/s writes: ([\d.]+) MiB\/s fsyncs: ([\d.]+)\/s/.exec(body);
    if (m) {
      setMode('fileio');
      push('bandwidth_bytes_per_second', 'reads MiB/s', 'B/s', round(Number(m[1]) * MIB), { direction: 'read' });
      push('bandwidth_bytes_per_second', 'writes MiB/s', 'B/s', round(Number(m[2]) * MIB), { direction: 'write' });
      push('fsyncs_per_second', 'fsyncs/s', '1/s', Number(m[3]));
    }
    m = /^([\d.]+) MiB\/sec$/.exec(body.trim());
    if (m) { setMode('memory'); push('bandwidth_bytes_per_second', 'MiB/sec', 'B/s', round(Number(m[1]) * MIB)); }
    m = /\bqueue length: (\d+), concurrency: (\d+)/.exec(body);
    if (m) { push('queue_length', 'queue length', 'count', Number(m[1])); push('concurrency', 'concurrency', 'count', Number(m[2])); }
    return any;
  }

  function kv(line: string): [string, string] | undefined {
    const i = line.indexOf(':');
    if (i <= 0) return undefined;
    const k = line.slice(0, i).trim();
    return k ? [k, line.slice(i + 1).trim()] : undefined;
  }

  function perSec(v: string): [number, number] {
    const m = /^(\d+)\s+\(([\d.]+) per sec\.?\)$/.exec(v);
    return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  }

  function msValue(v: string): number {
    const m = /^([\d.]+)\s*(ms)?$/.exec(v);
    return m ? ms(Number(m[1])) : NaN;
  }

  function sqlLine(k: string, v: string, lineNo: number): boolean {
    const names: Record<string, [string, string]> = {
      transactions: ['transactions_total', 'transactions_per_second'],
      deadlocks: ['deadlocks_total', 'deadlocks_per_second'],
      'read/write requests': ['read_write_requests_total', 'read_write_requests_per_second'],
      'other operations': ['other_operations_total', 'other_operations_per_second'],
      queries: ['queries_total', 'queries_per_second'],
      'ignored errors': ['ignored_errors_total', 'ignored_errors_per_second'],
      reconnects: ['reconnects_total', 'reconnects_per_second'],
    };
    const pair = names[k];
    if (!pair) return false;
    const [tot, ps] = perSec(v);
    section = 'sql';
    // "queries performed: total" already gave queries_total
    if (k !== 'queries' || !out.has('queries_total')) out.metric(pair[0], tot, 'count', lineNo, k);
    out.metric(pair[1], ps, '1/s', lineNo, `${k} per sec.`);
    return true;
  }

  function derivedEps(): void {
    if (!out.has('events_per_second') && events !== undefined && duration) {
      out.metric('events_per_second', round(events / duration, 8), '1/s', eventsLine, 'total number of events / total time');
    }
  }

  /** Another sysbench run pasted below: its metrics get run=N (see Out.finish). */
  function nextRun(): void {
    derivedEps();
    out.newRun();
    started = false;
    events = duration = undefined;
    section = 'none';
  }

  function line(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line.trim()) return;
    if (events !== undefined && (VERSION.test(line) || /^Running the test with following options:$/.test(line) || promptCommand(line, TOOLS) !== undefined)) nextRun();
    if (commandLine(line)) return;
    let m = VERSION.exec(line);
    if (m && !started) { o.toolVersion = `sysbench ${m[1]!}`; if (m[2]) o.facts.lua = m[2]; return; }
    m = INTERVAL.exec(line);
    if (m) { started = true; if (!interval(m[2]!, Number(m[1]), lineNo)) out.warn(lineNo, line); return; }
    if (/^Running the test with following options:$/.test(line)) { section = 'options'; return; }
    if (/^Threads started!$/.test(line)) { started = true; section = 'none'; return; }
    if (/^(FATAL|ERROR|WARNING|Error|error):?/.test(line)) { errors.push(line.trim()); return; }
    const head = line.trim();
    if (RESULT_HEADS.has(head)) started = true;
    switch (head) {
      case 'CPU speed:': section = 'cpu'; setMode('cpu'); return;
      case 'File operations:': section = 'fileops'; setMode('fileio'); return;
      case 'Throughput:': section = 'throughput'; return;
      case 'SQL statistics:': case 'OLTP test statistics:': section = 'sql'; setMode('oltp'); return;
      case 'queries performed:': section = 'queries'; return;
      case 'General statistics:': case 'Test execution summary:': section = 'general'; return;
      case 'Latency (ms):': section = 'latency'; return;
      case 'Threads fairness:': section = 'fairness'; return;
      case 'per-request statistics:': case 'response time:': section = 'oldreq'; return;
      case 'Latency histogram (values are in milliseconds)': section = 'histogram'; return;
      default: break;
    }
    if (!started) {
      // option / preparation preamble: keep key: value pairs as settings
      const p = kv(line);
      m = /^Number of threads: (\d+)$/.exec(line);
      if (m) { out.metric('threads', Number(m[1]), 'count', lineNo, 'Number of threads'); return; }
      m = /^Doing (.+) test$/.exec(line);
      if (m) { o.settings['test mode'] = m[1]!; return; }
      if (/^Running memory speed test/.test(line)) { setMode('memory'); return; }
      if (p && p[1] !== '') { o.settings[p[0]] = p[1]; return; }
      if (/files?, |total file size|^Block size|^Using |^Calling fsync|^Periodic FSYNC|^Initializing|^Creating|^Inserting|^Dropping|^Removing|^Extra file|^Prime numbers|^Report intermediate|^\d+ bytes written/.test(line)) { o.settings[line.trim()] = ''; return; }
      return;
    }
    if (section === 'histogram') {
      if (/^\s+value\s+-+ distribution -+ count$/.test(line)) return;
      m = /^\s*([\d.]+) \|\**\s+(\d+)$/.exec(line);
      if (m) { histogram.rows.push([Number(m[1]), Number(m[2])]); return; }
    }
    m = /^Total operations: (\d+) \(([\d.]+) per second\)$/.exec(line);
    if (m) {
      setMode('memory');
      out.metric('operations_total', Number(m[1]), 'count', lineNo, 'Total operations');
      out.metric('operations_per_second', Number(m[2]), '1/s', lineNo, 'per second');
      return;
    }
    m = /^([\d.]+) MiB transferred \(([\d.]+) MiB\/sec\)$/.exec(line);
    if (m) {
      out.metric('transferred_bytes', round(Number(m[1]) * MIB), 'B', lineNo, 'MiB transferred');
      out.metric('bandwidth_bytes_per_second', round(Number(m[2]) * MIB), 'B/s', lineNo, 'MiB/sec');
      return;
    }
    m = /^Operations performed:\s+(\d+) Read, (\d+) Write, (\d+) Other = (\d+) Total$/.exec(line);
    if (m) {
      setMode('fileio');
      ['read', 'write', 'other'].forEach((type, i) => out.metric('operations_total', Number(m![i + 1]), 'count', lineNo, `Operations performed: ${type}`, { type }));
      return;
    }
    m = /^Operations performed: (\d+) \(([\d.]+) ops\/sec\)$/.exec(line);
    if (m) {
      setMode('memory');
      out.metric('operations_total', Number(m[1]), 'count', lineNo, 'Operations performed');
      out.metric('operations_per_second', Number(m[2]), '1/s', lineNo, 'ops/sec');
      return;
    }
    m = /^([\d.]+) MB transferred \(([\d.]+) MB\/sec\)$/.exec(line);
    if (m) {
      out.metric('transferred_bytes', round(Number(m[1]) * MIB), 'B', lineNo, 'MB transferred');
      out.metric('bandwidth_bytes_per_second', round(Number(m[2]) * MIB), 'B/s', lineNo, 'MB/sec');
      return;
    }
    m = /^Read ([\d.]+)([KMGT]?b)\s+Written ([\d.]+)([KMGT]?b)\s+Total transferred ([\d.]+)([KMGT]?b)\s+\(([\d.]+)([KMGT]?b)\/sec\)$/.exec(line);
    if (m) {
      // sysbench 0.4 prints binary units as "Mb"
      const b = (v: string, u: string): number => round(Number(v) * ({ b: 1, Kb: 1024, Mb: MIB, Gb: MIB * 1024, Tb: MIB * MIB } as Record<string, number>)[u]!);
      out.metric('read_bytes', b(m[1]!, m[2]!), 'B', lineNo, 'Read');
      out.metric('written_bytes', b(m[3]!, m[4]!), 'B', lineNo, 'Written');
      out.metric('transferred_bytes', b(m[5]!, m[6]!), 'B', lineNo, 'Total transferred');
      out.metric('bandwidth_bytes_per_second', b(m[7]!, m[8]!), 'B/s', lineNo, `${m[8]!}/sec`);
      return;
    }
    if (/^(Time limit exceeded, exiting\.\.\.|\(last message repeated \d+ times\)|Done\.)$/.test(line)) return;
    m = /^\s*([\d.]+) Requests\/sec executed$/.exec(line);
    if (m) { out.metric('requests_per_second', Number(m[1]), '1/s', lineNo, 'Requests/sec executed'); return; }
    const p = kv(line);
    if (p) {
      const [k, v] = p;
      const num = dec(v.split(/\s+/)[0]);
      switch (section) {
        case 'cpu':
          if (k === 'events per second') { out.metric('events_per_second', num, '1/s', lineNo, k); return; }
          break;
        case 'fileops': {
          const names: Record<string, string> = { 'reads/s': 'reads_per_second', 'writes/s': 'writes_per_second', 'fsyncs/s': 'fsyncs_per_second' };
          if (names[k]) { out.metric(names[k]!, num, '1/s', lineNo, k); return; }
          break;
        }
        case 'throughput': {
          const dir = k === 'read, MiB/s' ? 'read' : k === 'written, MiB/s' ? 'write' : undefined;
          if (dir) { out.metric('bandwidth_bytes_per_second', round(num * MIB), 'B/s', lineNo, k, { direction: dir }); return; }
          break;
        }
        case 'queries':
          if (/^(read|write|other|total)$/.test(k)) {
            if (k === 'total') out.metric('queries_total', num, 'count', lineNo, 'queries performed: total');
            else out.metric('queries_total', num, 'count', lineNo, `queries performed: ${k}`, { type: k });
            return;
          }
          if (sqlLine(k, v, lineNo)) return;
          break;
        case 'sql':
          if (sqlLine(k, v, lineNo)) return;
          break;
        case 'general':
          if (k === 'total time') { duration = dec(v.replace(/s$/, '')); out.metric('duration_seconds', duration, 's', lineNo, k); return; }
          if (k === 'total number of events') { events = num; eventsLine = lineNo; out.metric('events_total', num, 'count', lineNo, k); return; }
          if (k === 'total time taken by event execution') { out.metric('event_execution_time_seconds', dec(v.replace(/s$/, '')), 's', lineNo, k); return; }
          break;
        case 'latency':
        case 'oldreq': {
          const val = msValue(v);
          if (k === 'min') { out.metric('latency_min_seconds', val, 's', lineNo, k); return; }
          if (k === 'avg') { out.metric('latency_mean_seconds', val, 's', lineNo, k); return; }
          if (k === 'max') { out.metric('latency_max_seconds', val, 's', lineNo, k); return; }
          if (k === 'sum') { out.metric('latency_sum_seconds', val, 's', lineNo, k); return; }
          const pm = /^(?:approx\.\s+)?([\d.]+)(?:th|st|nd|rd)? percentile$/.exec(k);
          if (pm) { out.metric(`latency_${pName(Number(pm[1]))}_seconds`, val, 's', lineNo, k); return; }
          break;
        }
        case 'fairness': {
          const f = /^([\d.]+)\/([\d.]+)$/.exec(v);
          if (f && k === 'events (avg/stddev)') {
            out.metric('thread_events_mean', Number(f[1]), 'count', lineNo, k);
            out.metric('thread_events_stdev', Number(f[2]), 'count', lineNo, k);
            return;
          }
          if (f && k === 'execution time (avg/stddev)') {
            out.metric('thread_execution_time_mean_seconds', Number(f[1]), 's', lineNo, k);
            out.metric('thread_execution_time_stdev_seconds', Number(f[2]), 's', lineNo, k);
            return;
          }
          break;
        }
        default:
          break;
      }
    }
    out.warn(lineNo, line);
  }

  return {
    line,
    end(): ParseOutput {
      o.series = series.list;
      if (mode) o.facts.test = mode;
      if (histogram.rows.length) (o.tables ??= {}).latency_histogram = histogram;
      if (errors.length) o.facts.errors = errors.slice(0, 50);
      derivedEps();
      if (events === undefined && !o.metrics.length) out.note(errors.length ? `sysbench printed no results: ${errors[0]!}` : 'no sysbench results found (truncated capture?)');
      return out.finish('sysbench');
    },
  };
}

export const sysbench: CaptureParser = { id: 'sysbench', title: 'sysbench', detect, open };
