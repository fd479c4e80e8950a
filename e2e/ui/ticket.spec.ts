/** For the ticket: a finding copied as Markdown, and its fix command, from the detail panel. */
import { expect, test } from './test';
import { openApp, openDemo } from './app';

test('copy a finding as Markdown and its fix command', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  await page
    .getByTestId('top-finding')
    .getByRole('button', { name: 'Show evidence and repair' })
    .click();
  const detail = page.getByTestId('finding-detail');
  const title = (await detail.locator('h2').innerText()).replace(/^error\s+/i, '').trim();

  await detail.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(detail.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  const md = await page.evaluate(() => navigator.clipboard.readText());
  expect(md).toContain(`### ERROR: ${title}`);
  expect(md).toContain('**Evidence**');
  expect(md).toMatch(/`cni-doctor fix cni\.conf\.shadowed-by-default:disable-files:containerd`/);

  await detail.getByRole('button', { name: 'Copy fix command' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'cni-doctor fix cni.conf.shadowed-by-default:disable-files:containerd',
  );
});
