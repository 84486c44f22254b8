/**
 * plotly reads a subset of HTML in the text it draws — titles, tick labels, legend names, point
 * text, hover text, annotations: <br>, <b>, <i>, <sup>, <span style>, <a href> (http:, https:,
 * mailto: and relative links). Experiment titles, metric names, config keys and requirement labels
 * are user text, so each goes through plotlyText before plotly sees it: it shows as typed and never
 * becomes markup, a style or a link. plotly turns the entities back into characters as text.
 *
 * One copy for the app's charts (renderer/src/components/Chart) and the interactive charts of the
 * HTML report (shared/report/interactive.ts).
 */
export function plotlyText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text of several lines ("\n", as ChartSeries.hover has it), escaped, its lines as plotly's <br> (plotly draws "\n" as a space). */
export function plotlyLines(s: string): string {
  return s.split('\n').map(plotlyText).join('<br>');
}

/** A point's label: escaped user text, its second line ("\n" in ChartSeries.text) smaller and muted. */
export function pointLabel(text: string): string {
  const [first, ...rest] = text.split('\n');
  return rest.length ? `${plotlyText(first!)}<br><span style="font-size:10px;opacity:0.7">${plotlyText(rest.join(' '))}</span>` : plotlyText(first!);
}
