/**
 * A shared Compare address with both sides shows the comparison, not only the form: pasted into
 * a fresh page, and after a reload (newcomer review, README item 6).
 */
import { expect, test } from './test';
import { openApp } from './app';

test('a pasted Compare link with both sides runs the comparison', async ({ page }) => {
  await openApp(page);
  const url = new URL(page.url());
  url.hash =
    '#/compare?before=' +
    encodeURIComponent('src:demo:healthy-node') +
    '&after=' +
    encodeURIComponent('src:demo:minikube-conflict');
  await page.goto(url.toString());
  await page.reload(); // a fresh load of the link, as when pasted into a new tab
  const comparison = page.getByTestId('comparison');
  await expect(comparison).toBeVisible();
  await expect(comparison).toContainText('Added');
  await expect(page.getByLabel('Before')).toHaveValue('src:demo:healthy-node');
  await expect(page.getByLabel('After')).toHaveValue('src:demo:minikube-conflict');
  // Only one side: the form waits for the other, as before.
  url.hash = '#/compare?before=' + encodeURIComponent('src:demo:healthy-node');
  await page.goto(url.toString());
  await page.reload();
  await expect(page.getByLabel('Before')).toHaveValue('src:demo:healthy-node');
  await expect(page.getByTestId('comparison')).toHaveCount(0);
});
