import { METRIC_SUGGESTIONS, SCOPE_SUGGESTIONS } from './metricNames';

/** Suggestion lists for metric names and config scopes, rendered once for the whole window. */
export function Datalists() {
  return (
    <>
      <datalist id="metric-names">{METRIC_SUGGESTIONS.map((m) => <option key={m.name} value={m.name}>{m.unit}</option>)}</datalist>
      <datalist id="config-scopes">{SCOPE_SUGGESTIONS.map((s) => <option key={s} value={s} />)}</datalist>
    </>
  );
}
