/** Requirements (case study B): stated per study, checked per experiment in the timeline. */
import { expect, test } from './support/fixtures';
import { addExperiment, addMetric, createStudy, setRequirements } from './support/ui';

test('requirements are saved, validated, and drive the goal column', async ({ page }) => {
  await createStudy(page, 'Python service to 50k QPS', 'Requirements of the session (case study B).');
  await setRequirements(page, [
    { metric: 'requests_per_second', comparator: '>=', threshold: '30000', unit: '1/s', label: 'QPS' },
    { metric: 'latency_mean_seconds', comparator: '<=', threshold: '70 ms', unit: '', label: 'each request' },
    { metric: 'error_ratio', comparator: '<=', threshold: '0.05', unit: 'ratio', label: 'error rate' },
    { metric: 'cpu_util_percent', comparator: '<=', threshold: '70', unit: '%', label: 'server load' },
  ]);
  await page.reload();
  await page.getByRole('navigation', { name: 'Studies' }).getByRole('button', { name: /Python service/ }).click();
  const form = page.getByRole('form', { name: 'Requirements' });
  // read as statements; Edit opens the editor on them
  await expect(form.getByTestId('requirement-statement')).toHaveText([
    /^QPS ≥ 30\.0k req\/s — not measured yet/, /^each request ≤ 70 ms — not measured yet/, /^error rate ≤ 5 % — not measured yet/, /^server load ≤ 70 % — not measured yet/,
  ]);
  await form.getByRole('button', { name: /^Edit requirement 2/ }).click();
  await expect(form.getByLabel('Requirement 2 metric')).toHaveValue('latency_mean_seconds');
  await expect(form.getByLabel('Requirement 2 comparator')).toHaveValue('<=');
  // thresholds are stored in base units and shown the way people write them
  await expect(form.getByLabel('Requirement 2 threshold')).toHaveValue('70 ms');
  await expect(form.getByLabel('Requirement 4 threshold')).toHaveValue('70 %');
  await expect(form.getByLabel('Requirement 4 unit')).toHaveValue('');

  // a bad threshold is refused with a clear message, nothing is saved
  await form.getByLabel('Requirement 4 threshold').fill('seventy');
  await form.getByRole('button', { name: 'Save requirements' }).click();
  await expect(form.getByRole('alert')).toContainText('Requirement 4');
  await form.getByRole('button', { name: 'Discard' }).click();
  await expect(form.getByLabel('Requirement 4 threshold')).toHaveValue('70 %');

  const step1 = await addExperiment(page, 'Writes through a Redis FIFO queue');
  await addMetric(step1, { name: 'requests_per_second', value: '6000', unit: '1/s', primary: true });
  const step4 = await addExperiment(page, 'sysctl TIME_WAIT tuning');
  await addMetric(step4, { name: 'requests_per_second', value: '50000', unit: '1/s', primary: true });
  await addMetric(step4, { name: 'latency_mean_seconds', value: '0.060', unit: 's', better: 'lower', primary: false });

  const rows = page.getByTestId('timeline-row');
  await expect(rows.nth(0).getByTestId('timeline-goal')).toContainText('misses goal');
  await expect(rows.nth(1).getByTestId('timeline-goal')).toContainText('meets goal');
  await expect(rows.nth(1).getByTestId('timeline-step')).toHaveText('+733.3 %');

  // the editor stays open after Discard, until Done
  await form.getByRole('button', { name: 'Done' }).click();
  await expect(form.getByTestId('requirement-statement').first()).toContainText('QPS ≥ 30.0k req/s — met by step 1');

  // removing a requirement
  await form.getByRole('button', { name: /^Edit requirement 1/ }).click();
  await form.getByRole('button', { name: 'Remove requirement 1' }).click();
  await form.getByRole('button', { name: 'Save requirements' }).click();
  await expect(form.getByLabel('Requirement 1 metric')).toHaveCount(0);
  await expect(form.getByTestId('requirement-statement')).toHaveCount(3);
  await expect(form.getByTestId('requirement-statement').first()).toContainText('each request ≤ 70 ms — met by step 1');
  // the goal is every requirement an experiment measured: the first step measured none of those left
  await expect(rows.nth(0).getByTestId('timeline-goal')).toHaveText('—');
  await expect(rows.nth(1).getByTestId('timeline-goal')).toContainText('meets goal');
});
