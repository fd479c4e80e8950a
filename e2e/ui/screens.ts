/** Visits every screen (the finding detail and its viewers too) of one demo, calling back on each. */
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
  await visitViewers(page, visit);
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
  // The cluster as recorded from a real one (global-setup points serve at the replayed kubectl).
  await goScreen(page, 'cluster');
  await expect(page.getByRole('region', { name: 'lab-node' })).toBeVisible();
  await visit('cluster');
}

/** On the Compare screen: the scan shown now (After) against the healthy demo (Before). */
export async function compareWithHealthy(page: Page): Promise<void> {
  await page.getByLabel('Before').selectOption('src:demo:healthy-node');
  await expect(page.getByLabel('After')).not.toHaveValue('');
  await page.getByRole('button', { name: 'Show the differences' }).click();
  await expect(page.getByTestId('comparison')).toBeVisible();
}

/**
 * From an open finding detail: the viewers its evidence opens (a file, a log line) and the raw
 * CRI answers, each visited and closed again (back to the detail).
 */
async function visitViewers(page: Page, visit: Visit): Promise<void> {
  const detail = page.getByTestId('finding-detail');
  const viewer = page.getByTestId('viewer');
  const opens: [string, RegExp, string][] = [
    ['file-viewer', /^Open the whole file$/, 'file-lines'],
    ['log-viewer', /^Open the log around this line$/, 'log-lines'],
  ];
  for (const [name, button, lines] of opens) {
    const open = detail.getByRole('button', { name: button }).first();
    if ((await open.count()) === 0) continue;
    await open.click();
    await expect(viewer.getByTestId(lines)).toBeVisible();
    await visit(name);
    await page.getByRole('button', { name: 'Back to the finding' }).click();
    await expect(detail).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Raw CRI answers (crictl info)' }).click();
  await expect(viewer.getByTestId('cri-entry').first()).toBeVisible();
  await visit('cri-viewer');
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page
    .getByTestId('top-finding')
    .getByRole('button', { name: /^Show evidence and (repair|guidance)$/ })
    .click();
  await expect(detail).toBeVisible();
}
