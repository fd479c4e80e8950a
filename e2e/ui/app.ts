/** Page helpers shared by the UI specs and the Electron spec. */
import { expect, type Page } from '@playwright/test';

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
  await page.locator(`[data-demo="${demoId}"]`).click();
  await expect(page.locator('nav [data-screen="overview"]')).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.locator('header .source')).toContainText('demo:');
  await expect(page.getByTestId('top-finding')).toBeVisible();
}
