/**
 * The HTML report's opt-in interactive charts (shared/report/interactive.ts): with the option, two
 * inline scripts — plotly.js and the bootstrap — allowed by the SHA-256 the policy names and
 * nothing else, and each chart's plotly figure in a JSON data block; without it, the report as it
 * always was, with no script at all. Hostile titles, notes, config keys and labels cannot leave
 * their JSON block, nor reach plotly as markup. (Chromium draws the charts in
 * test/e2e/reportInteractive.spec.ts.)
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiMethods } from '../../shared/api';
import type { ExportResult } from '../../shared/model';
import { interactiveCsp, REPORT_CSP } from '../../shared/report/html';
import { INTERACTIVE_EXTRA_BYTES, jsonBlockText, REPORT_BOOTSTRAP } from '../../shared/report/interactive';
import { plotlyLines, plotlyText, pointLabel } from '../../shared/plotlyText';
import { Backend } from '../../electron/services/backend';
import { interactiveScripts, plotlyPath, scriptHash } from '../../electron/services/report/interactiveScripts';
import { buildCaseA, buildCaseB, buildCaseC } from '../fixtures/caseStudies';
import type { AnyApi } from '../fixtures/caseStudies';
import { buildBundles, useTempDir } from '../helpers';

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

type AsyncApi = { [K in keyof ApiMethods]: (...a: Parameters<ApiMethods[K]>) => Promise<ReturnType<ApiMethods[K]>> };

interface Script { attrs: string; text: string }

/** Every <script> element of a report as the HTML parser splits them (script data ends at the first "</script"). */
function scriptsOf(html: string): Script[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script/gi)].map((m) => ({ attrs: m[1]!, text: m[2]! }));
}

function cspOf(html: string): string {
  return /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
}

/** The report with its clock taken out: two exports a second apart compare equal. */
const timeless = (html: string) => html.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'T').replace(/ · \d{4}-\d\d-\d\d</, ' · D<');

/** Every string in a parsed figure. */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out);
  return out;
}

/** plotly's pseudo-HTML a figure may hold: only Tunebook's own (line breaks, a point label's second line). */
const OWN_MARKUP = /<br>|<span style="font-size:10px;opacity:0\.7">|<\/span>/g;

const HOSTILE = '</script><script>alert(1)</script>';
const HOSTILE_IMG = '<img src=x onerror=alert(1)>';
const HOSTILE_LINK = '<a href="javascript:alert(1)">javascript:alert(1)</a>';

describe('interactive charts in the HTML report', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let api: AsyncApi;
  beforeEach(() => {
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    api = new Proxy({}, { get: (_t, m: string) => async (...a: unknown[]) => backend.call(m, a) }) as AsyncApi;
  });
  afterEach(() => backend.close());

  const exportHtml = async (studyId: number, file: string, interactive?: boolean) => {
    const r = await (api.exportStudy(studyId, { format: 'html', path: path.join(tmp(), file), ...(interactive === undefined ? {} : { interactive }) }) as Promise<ExportResult>);
    return { r, html: readFileSync(r.path!, 'utf8') };
  };

  it('adds plotly and the bootstrap, allowed by their hashes only, and each chart\'s figure as JSON', async () => {
    const a = await buildCaseA(api as unknown as AnyApi);
    const { html } = await exportHtml(a, 'a.html', true);
    const scripts = scriptsOf(html);
    const run = scripts.filter((s) => s.attrs === '');
    const data = scripts.filter((s) => s.attrs !== '');
    expect(run).toHaveLength(2);
    expect(run[1]!.text).toBe(REPORT_BOOTSTRAP);
    expect(run[0]!.text).toBe(readFileSync(plotlyPath()!, 'utf8'));
    expect(data.map((s) => s.attrs)).toEqual([' type="application/json" class="chart-data"']);

    // the policy: nothing loads, and only these two scripts run — by hash, no unsafe-inline, no eval
    const csp = cspOf(html);
    const hashes = run.map((s) => `'sha256-${createHash('sha256').update(s.text, 'utf8').digest('base64')}'`);
    expect(csp).toBe(`default-src 'none'; script-src ${hashes.join(' ')}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:|blob:|\*/);

    // the figure: the chain of case A as the SVG draws it, the SVG still there
    expect(html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '').match(/<svg /g)).toHaveLength(1);
    const fig = JSON.parse(data[0]!.text) as { data: { y: (number | null)[]; name: string; hovertext: string[] }[]; layout: { title: { text: string } }; config: Record<string, unknown> };
    expect(fig.data[0]!.y).toEqual([140, 205, 286]);
    expect(fig.layout.title.text).toBe('Requests per second · requests_per_second');
    expect(fig.data[0]!.hovertext[1]).toMatch(/^1\. opcache: stop revalidating timestamps \(kept\)<br>205 req\/s, step \+46\.4 %<br>opcache\.validate_timestamps: 1 → 0/);
    expect(fig.config).toMatchObject({ displaylogo: false, typesetMath: false, modeBarButtonsToRemove: ['toImage', 'select2d', 'lasso2d'] });
    // the same report otherwise: the static charts, the notes, the evidence
    expect(html).toContain('<code>ab -n 100000 -c 1000</code>');
    expect(html).toContain('its only scripts are plotly.js and the few lines that draw its interactive charts');
  });

  it('without the option, the report has no script and is the report it always was', async () => {
    const b = await buildCaseB(api as unknown as AnyApi);
    const plain = (await exportHtml(b, 'b.html')).html;
    expect(plain).not.toMatch(/<script|chart-switch|chart-data|sha256-/i);
    expect(cspOf(plain)).toBe(REPORT_CSP);
    expect(plain).toContain('This file is self-contained: it loads nothing and runs no script.');
    expect(timeless((await exportHtml(b, 'b2.html', false)).html)).toBe(timeless(plain));

    // with it: the same report, plus the scripts, the JSON blocks, their style and the policy's hashes
    const rich = (await exportHtml(b, 'b3.html', true)).html;
    const data = scriptsOf(rich).filter((s) => s.attrs !== '');
    expect(data).toHaveLength(5); // the chain and four other metrics
    const stripped = rich
      .replace(/<script type="application\/json" class="chart-data">[^<]*<\/script>/g, '')
      .replace(/(?<=\n)<script>[\s\S]*<\/script>\n(?=<\/body>)/, '')
      .replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`)
      .replace(/\n\.chart-switch[\s\S]*?(?=<\/style>)/, '')
      .replace(/This file is self-contained: it loads nothing, and its only scripts are [^<]*\./, 'This file is self-contained: it loads nothing and runs no script.');
    expect(timeless(stripped)).toBe(timeless(plain));
  });

  it('says what it weighs: plotly.js and the figures, about what the Export dialog says', async () => {
    const c = await buildCaseC(api as unknown as AnyApi);
    const plain = (await exportHtml(c, 'c.html')).r.bytes;
    const rich = await exportHtml(c, 'c-interactive.html', true);
    expect(rich.r.bytes).toBe(statSync(rich.r.path!).size);
    const extra = rich.r.bytes - plain;
    expect(extra).toBeGreaterThan(statSync(plotlyPath()!).size);
    expect(Math.abs(extra - INTERACTIVE_EXTRA_BYTES) / INTERACTIVE_EXTRA_BYTES).toBeLessThan(0.1);
    console.log(`case C: ${plain} bytes; with interactive charts ${rich.r.bytes} bytes (+${extra})`);
  });

  it('is an option of the HTML report only, and a yes or no', async () => {
    const a = await buildCaseA(api as unknown as AnyApi);
    await expect(api.exportStudy(a, { format: 'md', interactive: true, path: path.join(tmp(), 'a.md') })).rejects.toThrow(/interactive charts are an option of the HTML report only/);
    await expect(api.exportStudy(a, { format: 'html', interactive: 'yes' as unknown as boolean, path: path.join(tmp(), 'a.html') })).rejects.toThrow(/interactive must be true or false/);
    // a bundle or Markdown with interactive: false is what it always was
    const md = await (api.exportStudy(a, { format: 'md', interactive: false, path: path.join(tmp(), 'b.md') }) as Promise<ExportResult>);
    expect(md.files).toHaveLength(2);
  });

  it('hostile titles, notes, config keys and labels stay text: in the page, in the JSON blocks and in plotly', async () => {
    const study = await api.createStudy({ title: HOSTILE, goal: HOSTILE_IMG });
    await api.setRequirements(study.id, [{ metric: 'requests_per_second', comparator: '>=', threshold: 200, unit: 'req/s', label: HOSTILE_LINK }]);
    const names = [HOSTILE, HOSTILE_IMG, HOSTILE_LINK, 'javascript:alert(1)', '<!-- <script>', '$\\alpha$ & &lt;b&gt;'];
    for (const [i, title] of names.entries()) {
      const e = await api.createExperiment(study.id, { title, notes: `${HOSTILE}\n\n${HOSTILE_IMG}\n\n[x](javascript:alert(1))`, status: i === 3 ? 'reverted' : 'kept' });
      await api.addConfigChange(e.id, { scope: 'sysctl', key: `${HOSTILE}${i}`, before: HOSTILE_IMG, after: HOSTILE_LINK, why: HOSTILE });
      await api.addResultMetric(e.id, { name: 'requests_per_second', value: 100 + 10 * i, unit: 'req/s', primary: true });
      await api.addResultMetric(e.id, { name: 'latency_mean_seconds', value: 0.1 - 0.01 * i, unit: 's' });
    }
    const { html } = await exportHtml(study.id, 'hostile.html', true);

    // exactly the elements Tunebook wrote: two scripts that run, two data blocks, nothing else
    const scripts = scriptsOf(html);
    expect(scripts.map((s) => s.attrs)).toEqual([' type="application/json" class="chart-data"', ' type="application/json" class="chart-data"', '', '']);
    expect(html.match(/<script/gi)).toHaveLength(4);
    expect(html.match(/<\/script/gi)).toHaveLength(4);
    expect(scripts[3]!.text).toBe(REPORT_BOOTSTRAP);
    const hashes = [...cspOf(html).matchAll(/'(sha256-[^']+)'/g)].map((m) => m[1]);
    expect(hashes).toEqual([scriptHash(scripts[2]!.text), scriptHash(REPORT_BOOTSTRAP)]);
    // outside the scripts: no element or attribute from the data
    const page = html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
    expect(page).not.toMatch(/<img|<a href="javascript|<[a-z][^>]*\son\w+=|<!--/i);
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');

    for (const block of scripts.slice(0, 2)) {
      // "<" never appears raw in a data block: nothing can end it or open a comment
      expect(block.text).not.toContain('<');
      const fig = JSON.parse(block.text) as unknown;
      const strings = stringsOf(fig);
      // every text plotly is given has no markup but Tunebook's own, whatever the data said
      for (const s of strings) expect(s.replace(OWN_MARKUP, ''), s).not.toMatch(/</);
      const all = strings.join('\n');
      expect(all).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(all).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(all).toContain('&amp;lt;b&amp;gt;');
    }
    const chain = JSON.parse(scripts[0]!.text) as { data: { y: (number | null)[]; x: string[] }[]; layout: { annotations: { text: string }[] } };
    expect(chain.data[0]!.y).toEqual([100, 110, 120, null, 140, 150]);
    expect(chain.data[1]!.y).toEqual([null, null, null, 130, null, null]);
    expect(chain.layout.annotations).toHaveLength(1);
    expect(chain.layout.annotations[0]!.text).toContain('&lt;a href="javascript:alert(1)"&gt;');
  });

  it('the pieces: hashes, JSON blocks and plotly text', () => {
    const s = interactiveScripts();
    expect(s.plotlyHash).toBe(scriptHash(s.plotly));
    expect(s.bootstrapHash).toBe(`sha256-${createHash('sha256').update(REPORT_BOOTSTRAP).digest('base64')}`);
    expect(interactiveScripts()).toBe(s); // read once
    expect(interactiveCsp(s)).toContain(`script-src '${s.plotlyHash}' '${s.bootstrapHash}';`);
    expect(() => interactiveCsp({ plotlyHash: "sha256-x' 'unsafe-inline", bootstrapHash: s.bootstrapHash })).toThrow(/not a SHA-256/);

    const tricky = { t: '</script><!-- <script>\u2028\u2029\u0000\ud800 "quoted" \\ back' };
    const text = jsonBlockText(tricky);
    expect(text).not.toMatch(/</);
    expect(JSON.parse(text)).toEqual(tricky);

    expect(plotlyText('<b>&amp;</b>')).toBe('&lt;b&gt;&amp;amp;&lt;/b&gt;');
    expect(plotlyLines('a <i>\nb & c')).toBe('a &lt;i&gt;<br>b &amp; c');
    expect(pointLabel('1 <x>\nkey<y>')).toBe('1 &lt;x&gt;<br><span style="font-size:10px;opacity:0.7">key&lt;y&gt;</span>');
  });
});
