/**
 * The finding drawer starts below the header: Rescan, Export report and Theme stay clickable
 * while a finding is open, at a wide and a narrow (two-line header) window (newcomer review 1.6).
 */
import { expect, test } from '@playwright/test';
import { openApp, openDemo } from './app';

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
]) {
  test(`the header stays usable beside an open finding, ${size.width}×${size.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await openApp(page);
    await openDemo(page, 'minikube-conflict');
    await page
      .getByTestId('top-finding')
      .getByRole('button', { name: /^Show evidence and (repair|guidance)$/ })
      .click();
    const detail = page.getByTestId('finding-detail');
    await expect(detail).toBeVisible();
    const header = await page.locator('header.top').boundingBox();
    const drawer = await detail.boundingBox();
    expect(header && drawer && drawer.y >= header.y + header.height - 1).toBe(true);
    // A real click on each, not a forced one: the drawer would intercept it if it covered them.
    await page.getByRole('button', { name: /^Theme: system/ }).click({ timeout: 5000 });
    await expect(page.getByRole('button', { name: /^Theme: light/ })).toBeVisible();
    await page.getByRole('button', { name: 'Rescan', exact: true }).click({ timeout: 5000 });
    await expect(detail).toBeVisible();
  });
}
