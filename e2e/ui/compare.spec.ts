/**
 * The Compare screen: the minikube demo against the healthy demo — what the conflicted node has
 * that the healthy one does not, and containerd's load order then and now — with axe clean.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './test';
import { goScreen, openApp, openDemo } from './app';

test('compare two demos: gone, added and the load order then and now', async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  await goScreen(page, 'compare');
  await expect(page).toHaveURL(/#\/compare/);
  await expect(page.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();

  // After defaults to the scan shown now; Before is the healthy demo, scanned for the comparison.
  await expect(page.getByLabel('After')).toHaveValue(/^scan:s-/);
  await page.getByLabel('Before').selectOption('src:demo:healthy-node');
  await page.getByRole('button', { name: 'Show the differences' }).click();
  const result = page.getByTestId('comparison');
  await expect(result).toBeVisible();
  await expect(result).toContainText(/Before: demo: .*healthy/i);
  await expect(result).toContainText(/After: demo: .*minikube/i);

  // The default config shadowing kindnet is what the minikube node added.
  const added = page.locator('section[aria-labelledby="cmp-added"]');
  await expect(added).toContainText('10-containerd-net.conflist');
  await expect(added).toContainText('cni.conf.shadowed-by-default');
  const load = page.getByRole('region', { name: 'Load order of containerd' });
  await expect(load.getByTestId('in-use')).toContainText('10-calico.conflist then');
  await expect(load.getByTestId('in-use')).toContainText('10-containerd-net.conflist now');
  const row = load.getByRole('row', { name: /10-containerd-net\.conflist/ });
  await expect(row.getByRole('cell')).toHaveText(['—', '1. in-use', 'new']);
  await expect(load.getByRole('row', { name: /10-calico\.conflist/ }).getByRole('cell')).toHaveText(
    ['1. in-use', '—', 'gone'],
  );

  // Comparing did not change what the other screens show.
  await expect(page.locator('header .source')).toContainText('minikube');

  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
    [],
  );

  // The sides are in the address: a reload comes back to the same comparison's picks.
  await expect(page).toHaveURL(/#\/compare\?.*before=src%3Ademo%3Ahealthy-node.*&after=scan%3As-/);
  const after = await page.getByLabel('After').inputValue();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();
  await expect(page.getByLabel('Before')).toHaveValue('src:demo:healthy-node');
  await expect(page.getByLabel('After')).toHaveValue(after);

  // The held scans are offered on both sides, the one shown now marked.
  const options = await page.getByLabel('Before').locator('option').allTextContents();
  expect(options.some((o) => /minikube.*\(shown now\)/i.test(o))).toBe(true);
});
