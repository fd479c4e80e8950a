/**
 * A screen whose code fails to load (its chunk is fetched on the first visit) says so and offers a
 * reload; the header and the screen list stay, and the other screens still work. Before, React
 * removed the whole window and left a blank page.
 */
import { expect, test } from '@playwright/test';
import { goScreen, openApp } from './app';

test('a screen whose code did not load says so, the rest of the app works, a reload mends it', async ({
  page,
}) => {
  await openApp(page);
  // The Demo screen's chunk, and only it: the connection drops as the browser fetches it.
  await page.route(/\/assets\/Demo-[^/]+\.js$/, (route) => route.abort('connectionreset'));
  await goScreen(page, 'demo');
  const failed = page.getByTestId('screen-failed');
  await expect(failed).toContainText('This screen could not be shown');
  await expect(failed).toContainText('did not load');
  await expect(page.locator('.brand')).toHaveText('cni-doctor');

  await goScreen(page, 'overview');
  await expect(page.getByTestId('top-finding')).toBeVisible();
  await expect(failed).toHaveCount(0);

  await page.unroute(/\/assets\/Demo-[^/]+\.js$/);
  await goScreen(page, 'demo');
  await failed.getByRole('button', { name: 'Reload the app' }).click();
  await expect(page.locator('[data-demo="healthy-node"]')).toBeVisible();
  await expect(failed).toHaveCount(0);
});
