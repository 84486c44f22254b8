/**
 * The comparison view of a study (its data comes whole from the back end's comparison()): the chain
 * of kept steps on the primary metric with each step's change, the cumulative change and its share
 * of the gain, attempts set apart, repeated runs with their spread and significance; every
 * requirement judged on every experiment; the study's other metrics as small multiples on the same
 * axis. Two rows picked open them side by side. What the charts leave out is kept with the study.
 */
import { Fragment, useEffect, useMemo, useState } from 'react';
import type { Requirement, Study, StudyComparison, TimelineRow } from '../../../../shared/model';
import { formatQuantity } from '../../../../shared/units';
import { mainMetric } from '../../../../shared/timeline';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import type { Query } from '../../app/useQuery';
import { LineChart } from '../../components/Chart/LineChart';
import { StatusBadge } from '../../components/StatusBadge/StatusBadge';
import { formatPercent, requirementText } from '../../../../shared/format';
import { chainChart, metricChart, shortTitle, stepNo, type Charted } from '../../../../shared/chartData';
import { useWindowedRows } from '../../hooks/useWindowedRows';
import { allMetText } from '../requirements/verdict';
import './comparison.css';

/** Is a change in this direction an improvement for this metric? */
function tone(p: number | null, better: TimelineRow['better']): string {
  if (p === null || better === null || Math.abs(p) < 0.05) return '';
  return (p > 0) === (better === 'higher') ? 'good' : 'bad';
}

/** A name that may wrap after its _ . / - when a narrow window needs it ("requests_/per_second"); the text stays the same. */
function breakable(name: string) {
  return name.split(/(?<=[_./-])/).map((part, i) => (i ? <Fragment key={i}><wbr />{part}</Fragment> : part));
}


export function ComparisonView({ study, comparison: q, experiments, onSelect }: {
  study: Study;
  /** the study's comparison, loaded by the study view alongside its outline (useStudyComparison) */
  comparison: Query<StudyComparison>;
  experiments: readonly Charted[];
  onSelect: (experimentId: number) => void;
}) {
  const { navigate } = useApp();
  const run = useAction();
  const [picked, setPicked] = useState<number[]>([]);
  const c = q.data;
  // what the charts leave out: shown at once, kept with the study
  const savedHidden = JSON.stringify(study.view.hiddenMetrics ?? []);
  const [hiddenMetrics, setHiddenMetrics] = useState<string[]>(() => JSON.parse(savedHidden) as string[]);
  useEffect(() => { setHiddenMetrics(JSON.parse(savedHidden) as string[]); }, [savedHidden]);
  const savedHiddenExperiments = JSON.stringify(study.view.hiddenExperiments ?? []);
  const [hiddenExperiments, setHiddenExperiments] = useState<number[]>(() => JSON.parse(savedHiddenExperiments) as number[]);
  useEffect(() => { setHiddenExperiments(JSON.parse(savedHiddenExperiments) as number[]); }, [savedHiddenExperiments]);
  const setHidden = (name: string, hidden: boolean) => {
    const next = hidden ? [...hiddenMetrics.filter((m) => m !== name), name] : hiddenMetrics.filter((m) => m !== name);
    setHiddenMetrics(next);
    void run((api) => api.updateStudy(study.id, { view: { ...study.view, hiddenMetrics: next, hiddenExperiments } }));
  };
  const setShown = (id: number, shown: boolean) => {
    const next = shown ? hiddenExperiments.filter((x) => x !== id) : [...hiddenExperiments.filter((x) => x !== id), id];
    setHiddenExperiments(next);
    void run((api) => api.updateStudy(study.id, { view: { ...study.view, hiddenMetrics, hiddenExperiments: next } }));
  };
  // the charts draw the experiments not hidden from them (the tables keep every one)
  const shownRows = useMemo(() => (c ? c.rows.map((_, i) => i).filter((i) => !hiddenExperiments.includes(c.rows[i]!.experimentId)) : []), [c, hiddenExperiments]);
  const pick = (id: number, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-2) : p.filter((x) => x !== id)));

  return (
    <section className="panel timeline comparison" aria-labelledby="timeline-heading">
      <div className="title-row">
        <h2 id="timeline-heading">Timeline</h2>
        {picked.length === 2 && (
          <button type="button" className="btn btn-small btn-primary" onClick={() => navigate({ name: 'compare', a: picked[0]!, b: picked[1]! })}>Compare the two side by side</button>
        )}
        {picked.length === 1 && <span className="muted small">Pick one more experiment to compare side by side.</span>}
      </div>
      {q.error && <p role="alert" className="error-text">{q.error}</p>}
      {!c ? <p className="muted small">{q.loading ? 'Loading…' : ''}</p> : c.rows.length === 0 ? <p className="muted small">No experiments yet.</p> : (
        <div className="timeline-body">
          <ChainTable rows={c.rows} requirements={study.requirements} picked={picked} onPick={pick} onSelect={onSelect} hidden={hiddenExperiments} onShow={setShown} />
          <ChainChart comparison={c} shown={shownRows} experiments={experiments} requirements={study.requirements} studyTitle={study.title} />
          {study.requirements.length > 0 && <RequirementVerdicts comparison={c} requirements={study.requirements} onSelect={onSelect} />}
          <SmallMultiples comparison={c} shown={shownRows} experiments={experiments} requirements={study.requirements} hidden={hiddenMetrics} onHide={setHidden} studyTitle={study.title} />
        </div>
      )}
    </section>
  );
}

function ChainTable({ rows, requirements, picked, onPick, onSelect, hidden, onShow }: {
  rows: TimelineRow[]; requirements: readonly Requirement[]; picked: number[]; onPick: (id: number, on: boolean) => void; onSelect: (id: number) => void;
  hidden: number[]; onShow: (id: number, shown: boolean) => void;
}) {
  const w = useWindowedRows(rows.length, 34);
  // the study's primary metric names the Value column; a step measuring another one says so in its cell
  const main = useMemo(() => mainMetric(rows), [rows]);
  return (
    <div ref={w.scrollRef} className={`table-scroll ${w.windowed ? 'windowed' : ''}`}>
      <table className="grid-table timeline-table">
        <thead>
          <tr>
            <th className="small muted" title="Tick two experiments to compare them side by side">Compare</th>
            <th className="small muted" title="Draw the experiment in the charts">Chart</th>
            <th>#</th><th>Experiment</th><th>Status</th>
            <th className="num">{main ? <>Value <span className="mono small muted">{breakable(main)}</span></> : 'Value'}</th><th className="num">Step</th><th className="num">Cumulative</th><th className="num" title="Share of the gain from the baseline to the last kept step">Share</th><th>Goal</th>
          </tr>
        </thead>
        <tbody>
          {w.padTop > 0 && <tr aria-hidden="true" style={{ height: w.padTop }} />}
          {w.indices.map((i) => [rows[i]!, i] as const).map(([r, i]) => (
            <tr key={r.experimentId} data-testid="timeline-row" className={`status-row-${r.status} ${r.inChain || r.status === 'planned' ? '' : 'set-apart'}`}>
              <td>
                <input type="checkbox" aria-label={`Compare ${r.title}`} checked={picked.includes(r.experimentId)} onChange={(e) => onPick(r.experimentId, e.target.checked)} />
              </td>
              <td>
                <input type="checkbox" aria-label={`Show ${r.title} in the charts`} checked={!hidden.includes(r.experimentId)} onChange={(e) => onShow(r.experimentId, e.target.checked)} />
              </td>
              <td className="muted">{stepNo(i)}</td>
              <td className="timeline-title"><button type="button" className="link-button" title={r.title} onClick={() => onSelect(r.experimentId)}>{r.title}</button></td>
              <td><StatusBadge status={r.status} />{!r.inChain && (r.status === 'failed' || r.status === 'reverted') && <span className="muted small set-apart-note"> set apart</span>}</td>
              <td className="num" data-testid="timeline-value">
                {r.value === null ? <span className="muted" title="no primary metric">—</span> : formatQuantity(r.value, r.unit ?? '', r.metric ?? undefined)}
                {r.metric && r.metric !== main && <span className="value-metric mono small muted" data-testid="timeline-metric">{r.metric}</span>}
                {r.spread && (
                  // its own smaller lines, wrapping between the figures, so a narrow window keeps the table's columns in view
                  <div className="muted runs-spread" data-testid="timeline-runs" title="The median of repeated runs, and their lowest and highest">
                    median of {r.runs}: <span className="nowrap">{formatQuantity(r.spread.min, r.unit ?? '', r.metric ?? undefined)}–</span><span className="nowrap">{formatQuantity(r.spread.max, r.unit ?? '', r.metric ?? undefined)}</span>
                  </div>
                )}
              </td>
              <td className={`num ${tone(r.stepChangePercent, r.better)}`} data-testid="timeline-step">
                {r.stepNotComparable ? <NotComparable /> : formatPercent(r.stepChangePercent)}
                {r.significant === false && <div className="small muted noise-note" data-testid="not-significant" title="The change lies within the spread of the repeated runs">within noise</div>}
              </td>
              <td className={`num ${tone(r.cumulativeChangePercent, r.better)}`} data-testid="timeline-cumulative">{r.cumulativeNotComparable ? <NotComparable /> : formatPercent(r.cumulativeChangePercent)}</td>
              <td className="num" data-testid="timeline-share">{r.shareOfGainPercent === null ? '—' : `${formatPercent(r.shareOfGainPercent).replace(/^\+/, '')}`}</td>
              <td data-testid="timeline-goal"><Goal row={r} requirements={requirements} /></td>
            </tr>
          ))}
          {w.padBottom > 0 && <tr aria-hidden="true" style={{ height: w.padBottom }} />}
        </tbody>
      </table>
    </div>
  );
}

/** "server load ≤ 70 %": a requirement as people read it */

function Goal({ row: r, requirements }: { row: TimelineRow; requirements: readonly Requirement[] }) {
  if (r.status === 'planned') return <span className="muted small">not judged</span>;
  if (r.meetsGoal === null) return <span className="muted">—</span>;
  const failing = requirements.filter((_, j) => r.requirements[j]?.met === false);
  return r.meetsGoal
    ? <span className="badge goal-met" title={`Meets every requirement it measured (${r.requirements.filter((q) => q.met).length})`}>✓ meets<span className="goal-word"> goal</span></span>
    : <span className="badge goal-missed" title={`Misses: ${failing.map(requirementText).join('; ')}`}>✗ misses<span className="goal-word"> goal</span></span>;
}

/** A change between values in units that measure different things: never a percentage. */
function NotComparable() {
  return <span className="muted small" title="The values are in units that cannot be compared (e.g. IOPS and MiB/s)">not comparable</span>;
}

/** The primary metric: the chain of kept steps as a line, failed and reverted attempts as separate points. */
function ChainChart({ comparison: c, shown, experiments, requirements, studyTitle }: {
  comparison: StudyComparison; shown: number[]; experiments: readonly Charted[]; requirements: Requirement[]; studyTitle: string;
}) {
  const chart = useMemo(() => chainChart(c, experiments, requirements, { shown }), [c, shown, experiments, requirements]);
  if (!chart) return null;
  return (
    <LineChart series={chart.series} goals={chart.goals} title={chart.title} yTitle={chart.yTitle} height={280}
      ariaLabel={`Chart of ${chart.metric} across experiments`} exportName={`${studyTitle} - ${chart.metric}`} />
  );
}

/** Every requirement × every experiment: the measured value, met or not, and the first experiment meeting them all. */
/** Most experiments the verdict table shows as columns (a long study: those that measured a requirement, the baseline, the first to meet all, the latest). */
const MAX_VERDICT_COLUMNS = 40;

function verdictColumns(c: StudyComparison): number[] {
  const all = c.rows.map((_, i) => i);
  if (all.length <= MAX_VERDICT_COLUMNS) return all;
  const measured = all.filter((i) => c.rows[i]!.requirements.some((q) => q.value !== null));
  if (measured.length <= MAX_VERDICT_COLUMNS) return measured;
  const first = c.rows.findIndex((r) => r.experimentId === c.firstMeetingAll);
  const keep = new Set([measured[0]!, ...(first >= 0 ? [first] : []), ...measured.slice(-(MAX_VERDICT_COLUMNS - 2))]);
  return [...keep].sort((a, b) => a - b);
}

function RequirementVerdicts({ comparison: c, requirements, onSelect }: { comparison: StudyComparison; requirements: Requirement[]; onSelect: (id: number) => void }) {
  const first = c.rows.findIndex((r) => r.experimentId === c.firstMeetingAll);
  const columns = useMemo(() => verdictColumns(c), [c]);
  return (
    <section aria-labelledby="verdicts-heading" className="verdicts">
      <h3 id="verdicts-heading">Requirements, experiment by experiment</h3>
      <p className="small" data-testid="first-meeting-all">
        {first >= 0 ? <>{requirements.length === 1 ? 'The requirement is' : `All ${requirements.length} requirements are`} first met by <button type="button" className="link-button" onClick={() => onSelect(c.firstMeetingAll!)}>{stepNo(first)}. {c.rows[first]!.title}</button>.</>
          : <span className="muted">No experiment meets every requirement yet.</span>}
      </p>
      {columns.length < c.rows.length && (
        <p className="muted small">Showing {columns.length} of {c.rows.length.toLocaleString('en-US')} experiments; every experiment&apos;s verdict is in the Goal column above.</p>
      )}
      <div className="table-scroll">
        <table className="grid-table verdict-table" data-testid="verdict-table">
          <thead>
            <tr>
              <th scope="col">Requirement</th>
              {columns.map((i) => [c.rows[i]!, i] as const).map(([r, i]) => <th key={r.experimentId} scope="col" className={`num ${i === first ? 'first-met' : ''}`} title={r.title}>{stepNo(i)}. {breakable(shortTitle(r.title, 14))}</th>)}
            </tr>
          </thead>
          <tbody>
            {requirements.map((q, j) => (
              <tr key={q.id} data-testid="verdict-row">
                <th scope="row">{requirementText(q)}</th>
                {columns.map((i) => {
                  const r = c.rows[i]!;
                  // the study's requirements may have just changed and the verdicts not yet: a missing one is not measured
                  const check = r.requirements[j];
                  return (
                    <td key={r.experimentId} className={`num verdict ${check?.met === true ? 'pass' : check?.met === false ? 'fail' : ''} ${i === first ? 'first-met' : ''}`} data-testid="verdict-cell">
                      {!check || check.value === null ? <span className="muted">—</span> : <><span className="nowrap">{formatQuantity(check.value, check.unit, check.metric)}</span> {check.met === null ? '' : check.met ? '✓' : '✗'}</>}
                    </td>
                  );
                })}
              </tr>
            ))}
            <tr className="verdict-all">
              <th scope="row">All met</th>
              {columns.map((i) => [c.rows[i]!, i] as const).map(([r, i]) => (
                <td key={r.experimentId} className={`num ${i === first ? 'first-met' : ''}`} data-testid="verdict-all">
                  {r.status === 'planned' ? <span className="muted small">planned</span>
                    : allMetText(r.requirements)}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The study's other metrics, one small chart each on the same experiments, with their requirement lines. */
function SmallMultiples({ comparison: c, shown, experiments, requirements, hidden, onHide, studyTitle }: {
  comparison: StudyComparison; shown: number[]; experiments: readonly Charted[]; requirements: Requirement[]; hidden: string[]; onHide: (name: string, hidden: boolean) => void; studyTitle: string;
}) {
  const others = c.metrics.filter((m) => !m.primary);
  if (!others.length) return null;
  return (
    <section aria-labelledby="multiples-heading" className="multiples">
      <div className="title-row">
        <h3 id="multiples-heading">Other metrics</h3>
        <details className="menu">
          <summary className="btn btn-small">Metrics shown…</summary>
          <div className="menu-items" role="group" aria-label="Metrics shown">
            {others.map((m) => (
              <label key={m.name} className="small">
                <input type="checkbox" checked={!hidden.includes(m.name)} onChange={(e) => onHide(m.name, !e.target.checked)} /> {m.name}
              </label>
            ))}
          </div>
        </details>
      </div>
      <div className="multiples-grid">
        {others.filter((m) => !hidden.includes(m.name)).map((m) => (
          <SmallMultiple key={m.name} comparison={c} metric={m.name} shown={shown} experiments={experiments} requirements={requirements} studyTitle={studyTitle} />
        ))}
      </div>
    </section>
  );
}

function SmallMultiple({ comparison: c, metric, shown, experiments, requirements, studyTitle }: {
  comparison: StudyComparison; metric: string; shown: number[]; experiments: readonly Charted[]; requirements: Requirement[]; studyTitle: string;
}) {
  const chart = useMemo(() => metricChart(c, metric, experiments, requirements, { shown }), [c, metric, shown, experiments, requirements]);
  if (!chart) return null;
  return (
    <LineChart series={chart.series} goals={chart.goals} title={chart.title} yTitle={chart.yTitle} height={220}
      ariaLabel={`Chart of ${chart.metric} across experiments`} exportName={`${studyTitle} - ${chart.metric}`} />
  );
}
