/** Config changes and results of one experiment: add, edit, delete; notes are never HTML. */
import { expect, test } from './support/fixtures';
import { addConfigChange, addExperiment, addMetric, createStudy, editExperiment } from './support/ui';

test('edit and delete config changes and metrics; primary is one per experiment', async ({ page }) => {
  await createStudy(page, 'ulimit and sysctl');
  const d = await addExperiment(page, 'raise the fd limit');
  await addConfigChange(d, { scope: 'ulimit', key: 'nofile', before: '65535', after: '100000', why: 'too many open files under load' });
  await addConfigChange(d, { scope: 'sysctl', key: 'net.ipv4.tcp_tw_recycle', before: '0', after: '1', why: 'reuse TIME_WAIT' });

  // edit: fix a typo in "after"
  await d.getByRole('button', { name: 'Edit config change nofile' }).click();
  const edit = d.getByRole('form', { name: 'Edit config change nofile' });
  await edit.getByLabel('After').fill('100001');
  await edit.getByRole('button', { name: 'Save change' }).click();
  await expect(d.getByTestId('config-change-row').filter({ hasText: 'nofile' })).toContainText('100001');

  // Escape cancels an edit
  await d.getByRole('button', { name: 'Edit config change nofile' }).click();
  await d.getByRole('form', { name: 'Edit config change nofile' }).getByLabel('Why').press('Escape');
  await expect(d.getByRole('form', { name: 'Edit config change nofile' })).toBeHidden();

  // delete
  await d.getByRole('button', { name: 'Delete config change net.ipv4.tcp_tw_recycle' }).click();
  await expect(d.getByTestId('config-change-row')).toHaveCount(1);

  // metrics: the first is primary by default; making another primary unmarks it
  await addMetric(d, { name: 'requests_per_second', value: '22000', unit: '1/s' });
  await addMetric(d, { name: 'latency_mean_seconds', value: '0.09', unit: 's', better: 'lower', primary: false });
  await expect(d.getByTestId('metric-row').filter({ hasText: 'requests_per_second' }).getByText('primary', { exact: true })).toBeVisible();
  await expect(page.getByTestId('timeline-row').first().getByTestId('timeline-value')).toHaveText('22.0k req/s');

  await d.getByRole('button', { name: 'Make latency_mean_seconds primary' }).click();
  await expect(d.getByTestId('metric-row').filter({ hasText: 'latency_mean_seconds' }).getByText('primary', { exact: true })).toBeVisible();
  await expect(d.getByTestId('metric-row').filter({ hasText: 'requests_per_second' }).getByText('primary', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('timeline-row').first().getByTestId('timeline-value')).toHaveText('90 ms');

  await d.getByRole('button', { name: 'Edit metric latency_mean_seconds' }).click();
  const me = d.getByRole('form', { name: 'Edit metric latency_mean_seconds' });
  await me.getByLabel('Value').fill('not a number');
  await me.getByRole('button', { name: 'Save metric' }).click();
  await expect(me.getByRole('alert')).toContainText('not a number');
  await me.getByLabel('Value').fill('0.075');
  await me.getByRole('button', { name: 'Save metric' }).click();
  await expect(page.getByTestId('timeline-row').first().getByTestId('timeline-value')).toHaveText('75 ms');

  await d.getByRole('button', { name: 'Delete metric requests_per_second' }).click();
  await expect(d.getByTestId('metric-row')).toHaveCount(1);
});

test('notes render Markdown as text, never as HTML', async ({ page }) => {
  let dialogs = 0;
  page.on('dialog', (dlg) => { dialogs++; void dlg.dismiss(); });
  await createStudy(page, 'markdown');
  const d = await addExperiment(page, 'notes');
  await editExperiment(page, 'notes', {
    date: '2018-11-20',
    notes: '# Evidence\n\n<img src=x onerror="alert(1)"> and <b>not bold</b>\n\n1. `perf record -g`\n2. *perf report*\n\n[link](javascript:alert(1))',
  });
  const notes = d.getByTestId('notes-preview');
  await expect(notes).toContainText('<img src=x onerror="alert(1)">');
  await expect(notes.locator('img')).toHaveCount(0);
  await expect(notes.locator('b')).toHaveCount(0);
  await expect(notes.locator('a')).toHaveCount(0);
  await expect(notes.locator('ol li')).toHaveCount(2);
  await expect(notes.locator('ol li code')).toHaveText('perf record -g');
  await expect(notes.locator('em')).toHaveText('perf report');
  await expect(d.getByLabel('Date')).toHaveValue('2018-11-20');
  expect(dialogs).toBe(0);

  await d.getByRole('button', { name: 'Edit notes' }).click();
  await expect(d.getByLabel(/^Notes/)).toHaveValue(/^# Evidence/);
});

test('unsaved edits survive looking at another experiment', async ({ page }) => {
  await createStudy(page, 'drafts');
  await addExperiment(page, 'first');
  const second = await addExperiment(page, 'second');
  await second.getByLabel(/^Notes/).fill('half-written thought');
  await expect(second.getByText('Unsaved changes')).toBeVisible();
  const list = page.getByRole('region', { name: 'Experiments', exact: true });
  await list.getByRole('button', { name: /^first/ }).click();
  await expect(page.getByRole('region', { name: 'Experiment first' })).toBeVisible();
  await list.getByRole('button', { name: /^second/ }).click();
  await expect(second.getByLabel(/^Notes/)).toHaveValue('half-written thought');
  await second.getByRole('button', { name: 'Discard changes' }).click();
  await expect(second.getByLabel(/^Notes/)).toHaveValue('');
});
