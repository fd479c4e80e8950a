/**
 * The finding drawer starts below the header: Rescan, Export report and Theme stay clickable
 * while a finding is open, at a wide and a narrow (two-line header) window (newcomer review 1.6).
 */
import { type Locator } from '@playwright/test';
import { expect, test } from './test';
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
    // Each is the topmost element at its own centre (the drawer would be, if it covered them),
    // asked of the page once rather than inferred from a click that times out; then a real click.
    const theme = page.getByRole('button', { name: /^Theme: system/ });
    const rescan = page.getByRole('button', { name: 'Rescan', exact: true });
    for (const button of [theme, rescan]) expect(await onTop(button)).toBe(true);
    await theme.click();
    await expect(page.getByRole('button', { name: /^Theme: light/ })).toBeVisible();
    await rescan.click();
    await expect(detail).toBeVisible();
  });
}

/** Is the element itself (or a child of it) what a click at its centre would land on? */
function onTop(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}
