/** Visits every screen (and the finding detail) of one demo, calling back on each. */
import { expect, type Page } from '@playwright/test';
import { goScreen, openDemo } from './app';

export type Visit = (name: string) => Promise<void>;

export async function visitEveryScreen(page: Page, demoId: string, visit: Visit): Promise<void> {
  await openDemo(page, demoId);
  await visit('overview');
  await page
    .getByTestId('top-finding')
    .getByRole('button', { name: /^Show evidence and (repair|guidance)$/ })
    .click();
  await expect(page.getByTestId('finding-detail')).toBeVisible();
  await visit('finding-detail');
  await page.keyboard.press('Escape');
  await goScreen(page, 'findings');
  await visit('findings');
  await goScreen(page, 'inventory');
  await expect(page.locator('.vtable').first()).toBeVisible();
  await visit('inventory');
  await goScreen(page, 'checks');
  await visit('checks');
  await goScreen(page, 'history');
  await visit('history');
  await goScreen(page, 'bundles');
  await visit('bundles');
  await goScreen(page, 'demo');
  await visit('demo');
  await goScreen(page, 'compare');
  await compareWithHealthy(page);
  await visit('compare');
}

/** On the Compare screen: the scan shown now (After) against the healthy demo (Before). */
export async function compareWithHealthy(page: Page): Promise<void> {
  await page.getByLabel('Before').selectOption('src:demo:healthy-node');
  await expect(page.getByLabel('After')).not.toHaveValue('');
  await page.getByRole('button', { name: 'Show the differences' }).click();
  await expect(page.getByTestId('comparison')).toBeVisible();
}
