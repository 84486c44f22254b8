/** Steps a user takes, written once for every spec (only roles, labels and visible text). */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

export async function createStudy(page: Page, title: string, goal = ''): Promise<void> {
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: 'New study' }).click();
  const dialog = page.getByRole('dialog', { name: 'New study' });
  await dialog.getByLabel('Title').fill(title);
  if (goal) await dialog.getByLabel('Goal').fill(goal);
  await dialog.getByRole('button', { name: 'Create study' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

export async function openStudy(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: new RegExp(`^${escape(title)}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

export interface RequirementSpec { metric: string; comparator: string; threshold: string; unit: string; label?: string }

export async function setRequirements(page: Page, reqs: RequirementSpec[]): Promise<void> {
  const form = page.getByRole('form', { name: 'Requirements' });
  for (const [i, r] of reqs.entries()) {
    await form.getByRole('button', { name: 'Add requirement' }).click();
    const n = i + 1;
    await form.getByLabel(`Requirement ${n} metric`).fill(r.metric);
    await form.getByLabel(`Requirement ${n} comparator`).selectOption(r.comparator);
    await form.getByLabel(`Requirement ${n} threshold`).fill(r.threshold);
    await form.getByLabel(`Requirement ${n} unit`).fill(r.unit);
    if (r.label) await form.getByLabel(`Requirement ${n} label`).fill(r.label);
  }
  await form.getByRole('button', { name: 'Save requirements' }).click();
  await expect(form.getByRole('button', { name: 'Save requirements' })).toBeHidden();
}

/** Adds an experiment at the end of the open study and leaves it selected. */
export async function addExperiment(page: Page, title: string): Promise<Locator> {
  const form = page.getByRole('form', { name: 'Add experiment' });
  await form.getByLabel('New experiment title').fill(title);
  await form.getByRole('button', { name: 'Add experiment' }).click();
  const detail = experimentDetail(page, title);
  await expect(detail).toBeVisible();
  return detail;
}

export function experimentDetail(page: Page, title: string): Locator {
  return page.getByRole('region', { name: `Experiment ${title}` });
}

export async function editExperiment(page: Page, title: string, fields: { status?: string; profile?: string; notes?: string; date?: string; title?: string }): Promise<void> {
  const form = experimentDetail(page, title).getByRole('form', { name: 'Experiment details' });
  if (fields.title !== undefined) await form.getByLabel('Title').fill(fields.title);
  if (fields.date !== undefined) await form.getByLabel('Date').fill(fields.date);
  if (fields.status !== undefined) await form.getByLabel('Status').selectOption(fields.status);
  if (fields.profile !== undefined) await form.getByLabel('Hardware profile').selectOption({ label: fields.profile });
  if (fields.notes !== undefined) await form.getByLabel(/^Notes/).fill(fields.notes);
  const save = form.getByRole('button', { name: 'Save experiment' });
  if (await save.isEnabled()) await save.click(); // disabled when nothing changed
  await expect(save).toBeDisabled();
}

export async function addConfigChange(detail: Locator, c: { scope: string; key: string; before: string; after: string; why: string }): Promise<void> {
  const form = detail.getByRole('form', { name: 'Add config change' });
  await form.getByLabel('Scope').fill(c.scope);
  await form.getByLabel('Key').fill(c.key);
  await form.getByLabel('Before').fill(c.before);
  await form.getByLabel('After').fill(c.after);
  await form.getByLabel('Why').fill(c.why);
  await form.getByRole('button', { name: 'Add change' }).click();
  await expect(detail.getByTestId('config-change-row').filter({ hasText: c.key })).toBeVisible();
}

export async function addMetric(detail: Locator, m: { name: string; value: string; unit: string; better?: 'higher' | 'lower'; primary?: boolean }): Promise<void> {
  const rows = detail.getByTestId('metric-row').filter({ hasText: m.name });
  const before = await rows.count(); // a repeated run adds a second row of the same name
  const form = detail.getByRole('form', { name: 'Add metric' });
  await form.getByLabel('Metric').fill(m.name);
  await form.getByLabel('Value').fill(m.value);
  await form.getByLabel('Unit').fill(m.unit);
  if (m.better) await form.getByLabel('Better').selectOption(m.better);
  if (m.primary !== undefined) await form.getByLabel('Primary').setChecked(m.primary);
  await form.getByRole('button', { name: 'Add metric' }).click();
  await expect(rows).toHaveCount(before + 1);
}

export interface ProfileSpec {
  name: string; cpuModel?: string; cores?: string; threads?: string; memory?: string; memoryUnit?: string;
  os?: string; kernel?: string; cloud?: string; software?: string; notes?: string;
  disks?: { name: string; size: string; sizeUnit: string; logical: string; physical: string; block: string; kind: string }[];
}

export async function createProfile(page: Page, p: ProfileSpec): Promise<void> {
  await page.getByRole('button', { name: 'Hardware profiles', exact: true }).click();
  await page.getByRole('button', { name: 'New profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name', { exact: true }).fill(p.name);
  if (p.cpuModel) await form.getByLabel('CPU model').fill(p.cpuModel);
  if (p.cores) await form.getByLabel('Cores').fill(p.cores);
  if (p.threads) await form.getByLabel('Threads').fill(p.threads);
  if (p.memory) await form.getByLabel('Memory', { exact: true }).fill(p.memory);
  if (p.memoryUnit) await form.getByLabel('Memory unit').selectOption(p.memoryUnit);
  if (p.os) await form.getByLabel('OS', { exact: true }).fill(p.os);
  if (p.kernel) await form.getByLabel('Kernel').fill(p.kernel);
  if (p.cloud) await form.getByLabel('Cloud / instance').fill(p.cloud);
  if (p.software) await form.getByLabel('Software stack').fill(p.software);
  if (p.notes) await form.getByLabel('Notes').fill(p.notes);
  for (const [i, d] of (p.disks ?? []).entries()) {
    const n = i + 1;
    await form.getByRole('button', { name: 'Add disk' }).click();
    await form.getByLabel(`Disk ${n} name`).fill(d.name);
    await form.getByLabel(`Disk ${n} size`, { exact: true }).fill(d.size);
    await form.getByLabel(`Disk ${n} size unit`).selectOption(d.sizeUnit);
    await form.getByLabel(`Disk ${n} logical sector bytes`).fill(d.logical);
    await form.getByLabel(`Disk ${n} physical sector bytes`).fill(d.physical);
    await form.getByLabel(`Disk ${n} block bytes`).fill(d.block);
    await form.getByLabel(`Disk ${n} kind`).selectOption(d.kind);
  }
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('form', { name: `Profile ${p.name}` })).toBeVisible();
}

export function timelineRows(page: Page): Locator {
  return page.getByTestId('timeline-row');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Drop real files on an element the way a browser does: a DataTransfer holding File objects made
 * from the files' exact bytes, dispatched as dragenter then drop.
 */
export async function dropFiles(target: Locator, files: string[]): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { basename } = await import('node:path');
  const list = files.map((f) => ({ name: basename(f), base64: readFileSync(f).toString('base64') }));
  const dataTransfer = await target.page().evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const f of items) {
      const bytes = Uint8Array.from(atob(f.base64), (ch) => ch.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: 'text/plain' }));
    }
    return dt;
  }, list);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** The stored captures listed on an experiment's panel. */
export function captureLinks(detail: Locator): Locator {
  return detail.getByTestId('capture-link');
}

/**
 * Put a long text (a whole capture) in a text field at once, as a paste does. Playwright's fill()
 * types it through Chromium's insertText, which takes seconds for tens of kilobytes of lines.
 */
/** Store `text` as a capture named `name` on the experiment `detail` shows, through its Paste… form. */
export async function pasteCapture(detail: Locator, name: string, text: string): Promise<void> {
  await detail.getByRole('button', { name: 'Paste…' }).click();
  const form = detail.getByRole('form', { name: 'Paste a capture' });
  await form.getByLabel('Name').fill(name);
  await pasteText(form.getByLabel('Tool output'), text);
  await form.getByRole('button', { name: 'Store capture' }).click();
  await expect(form).toBeHidden();
}

export async function pasteText(field: Locator, text: string): Promise<void> {
  await field.evaluate((el, value) => {
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el) as object, 'value')!.set!;
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/**
 * Calls the notebook's API from inside the page, the way the renderer does with either host
 * (Electron's bridge, or browser mode's HTTP API with the session token). For specs that need
 * more data than a user would type (a long study); what they assert still goes through the page.
 */
export async function callApi<T>(page: Page, method: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(async ({ method, args }) => {
    const bridge = (window as unknown as { tunebook?: Record<string, (...a: unknown[]) => Promise<{ ok: boolean; result?: T; error?: { message: string } }>> }).tunebook;
    if (bridge) {
      const env = await bridge[method]!(...args);
      if (!env.ok) throw new Error(`${method}: ${env.error?.message ?? 'failed'}`);
      return env.result as T;
    }
    const res = await fetch(`/api/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Tunebook-Token': sessionStorage.getItem('tunebook.token') ?? '' },
      body: JSON.stringify({ args }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (!res.ok) throw new Error(`${method}: ${body.error?.message ?? res.status}`);
    return body.result as T;
  }, { method, args });
}
