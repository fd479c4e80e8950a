/** Page helpers shared by the UI specs and the Electron spec. */
import { expect, type Locator, type Page } from '@playwright/test';

export const SCREENS = [
  'overview',
  'findings',
  'inventory',
  'checks',
  'history',
  'bundles',
  'demo',
  'compare',
  'cluster',
] as const;
export type ScreenId = (typeof SCREENS)[number];

export function serveUrl(): string {
  const url = process.env.CNI_DOCTOR_URL;
  if (!url)
    throw new Error(
      'CNI_DOCTOR_URL is not set: run through e2e/playwright.config.ts (its globalSetup starts serve)',
    );
  return url;
}

export async function openApp(page: Page): Promise<void> {
  await page.goto(serveUrl());
  await expect(page.locator('.brand')).toHaveText('cni-doctor');
}

export async function goScreen(page: Page, screen: ScreenId): Promise<void> {
  await page.locator(`nav [data-screen="${screen}"]`).click();
  await expect(page.locator(`nav [data-screen="${screen}"]`)).toHaveAttribute(
    'aria-current',
    'page',
  );
}

/** Opens a demo from the Demo screen and waits for its Overview. */
export async function openDemo(page: Page, demoId: string): Promise<void> {
  await goScreen(page, 'demo');
  const button = page.locator(`[data-demo="${demoId}"]`);
  await expectOrAlert(page, button);
  await button.click();
  await expect(page.locator('nav [data-screen="overview"]')).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.locator('header .source')).toContainText('demo:');
  await expect(page.getByTestId('top-finding')).toBeVisible();
}

/**
 * Waits for `target`; a screen that shows an error instead fails at once with the error's words
 * (a click would wait out the whole test and say only what it waited for).
 */
export async function expectOrAlert(page: Page, target: Locator): Promise<void> {
  const alert = page.getByRole('alert');
  await expect(target.or(alert).first()).toBeVisible();
  if (await target.first().isVisible()) return;
  const said = await alert
    .first()
    .innerText({ timeout: 5_000 })
    .catch(() => '(the alert did not answer)');
  throw new Error(`waited for ${target.toString()}; the screen shows an alert instead: ${said}`);
}
