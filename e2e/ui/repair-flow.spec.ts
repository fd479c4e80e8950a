/**
 * A repair through the UI on a node disk: preview (steps, pod impact, risk), Apply with live
 * progress, the verification result, the finding gone after the rescan, then Undo from History.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveNodeDisk, type DiskServer } from './node-disk';

const SHOTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'out',
  'screenshots',
);
let disk: DiskServer;

async function noSeriousA11yIssues(page: Page): Promise<void> {
  const r = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test.beforeAll(async () => {
  disk = await serveNodeDisk();
});
test.afterAll(async () => {
  await disk?.close();
});

test('disable the shadowing default config, verify, undo', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.goto(disk.url);
  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('10-containerd-net.conflist');
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();

  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await repair.getByRole('button', { name: 'Preview repair' }).click();
  await expect(repair.getByRole('list', { name: 'Steps' })).toContainText(
    '10-containerd-net.conflist.disabled',
  );
  await expect(repair).toContainText('Risk');
  await expect(repair).toContainText('Running pods');
  await page.screenshot({ path: path.join(SHOTS, 'repair-preview-light.png') });
  await noSeriousA11yIssues(page);

  await repair.getByRole('button', { name: 'Apply…' }).click();
  await repair
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect(
    repair.getByText('Applied and verified: the rescan no longer shows the problem.'),
  ).toBeVisible({ timeout: 30_000 });
  await expect(repair.getByText('done: verified')).toBeVisible(); // the live progress line's last step
  expect(
    existsSync(path.join(disk.root, 'etc/cni/net.d/10-containerd-net.conflist.disabled')),
  ).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'repair-applied-light.png') });
  await noSeriousA11yIssues(page);

  // The rescan no longer shows the finding; the detail says so and keeps the result and Undo.
  await expect(page.getByTestId('finding-detail')).toContainText(
    'This finding is not in the latest scan any more',
    { timeout: 30_000 },
  );
  await expect(repair.getByRole('button', { name: 'Undo' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('top-finding')).not.toContainText(
    '10-containerd-net.conflist instead',
  );

  await page.locator('nav [data-screen="history"]').click();
  const row = page.getByRole('row', { name: /Disable 10-containerd-net\.conflist/ });
  await expect(row).toContainText('applied and verified');
  await expect(row).toContainText('cni.conf.shadowed-by-default');
  await page.screenshot({ path: path.join(SHOTS, 'history-after-repair-light.png') });
  await confirmUndo(row);
  await expect(page.getByRole('status').filter({ hasText: 'Undo: undone' })).toBeVisible({
    timeout: 30_000,
  });
  expect(existsSync(path.join(disk.root, 'etc/cni/net.d/10-containerd-net.conflist'))).toBe(true);
  await expect(row).toContainText('undone');
});
import { confirmUndo } from './undo';
