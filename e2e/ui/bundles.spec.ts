/**
 * Bundles: upload a customer's .tar.gz and read its cause; export the node in focus (never this
 * machine while a recording is in focus) as a download.
 */
import { expect, test } from './test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { goScreen, openApp } from './app';
import { packDemoBundle } from './bundle-file';

test('upload a bundle, then export this node', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-bundle-'));
  try {
    const file = path.join(dir, 'customer-win-node.tar.gz');
    await packDemoBundle('windows-antrea-containerd', file);

    await openApp(page);
    await goScreen(page, 'bundles');
    await page.getByLabel('Bundle file (.tar.gz)').setInputFiles(file);
    await expect(page.locator('header .source')).toContainText('customer-win-node.tar.gz');
    await expect(page.getByTestId('top-finding')).toContainText('unexpected netNS');
    await goScreen(page, 'bundles');
    await expect(page.getByRole('button', { name: 'customer-win-node.tar.gz' })).toBeVisible();

    // Not a bundle: refused with a reason, nothing opened.
    await page.getByLabel('Bundle file (.tar.gz)').setInputFiles({
      name: 'notes.tar.gz',
      mimeType: 'application/gzip',
      buffer: Buffer.from('hello'),
    });
    await expect(page.getByRole('alert')).toContainText('not a readable bundle');

    // The bundle in focus is a recording: Export does not record this machine in its name.
    await expect(page.getByTestId('export-node')).toContainText('customer-win-node.tar.gz');
    await expect(page.getByRole('button', { name: /^Export bundle/ })).toHaveCount(0);
    // With this machine in focus, Export records it and names it.
    await page.getByRole('button', { name: 'Scan this machine instead' }).click();
    await expect(page.getByTestId('node-focus')).toContainText('via this machine', {
      timeout: 60_000,
    });
    await goScreen(page, 'bundles');
    await expect(page.getByTestId('export-node')).toContainText('via this machine');
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: /^Export bundle of / }).click();
    const d = await download;
    expect(d.suggestedFilename()).toMatch(/^cni-doctor-.+\.tar\.gz$/);
    const saved = path.join(dir, d.suggestedFilename());
    await d.saveAs(saved);
    expect(readFileSync(saved).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    await expect(page.getByRole('status').filter({ hasText: /^Saved cni-doctor-/ })).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
