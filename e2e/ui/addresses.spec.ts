/** Every screen and finding has an address: reload and Back/Forward stay in the app. */
import { expect, test } from './test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { goScreen, openApp } from './app';
import { packDemoBundle } from './bundle-file';

test('reload on a finding of an open bundle comes back to the same finding', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-address-'));
  try {
    const file = path.join(dir, 'escalation-4711.tar.gz');
    await packDemoBundle('windows-antrea-containerd', file);
    await openApp(page);
    // The token left the address bar; it is not part of any address the app writes.
    expect(page.url()).not.toContain('token=');

    await goScreen(page, 'bundles');
    await page.getByLabel('Bundle file (.tar.gz)').setInputFiles(file);
    await expect(page.locator('header .source')).toContainText('escalation-4711.tar.gz');
    await goScreen(page, 'findings');
    const first = page.locator('.finding-open').first();
    const title = (await first.locator('.finding-title').innerText()).trim();
    await first.click();
    const heading = page.locator('.detail h2').first();
    await expect(heading).toContainText(title);
    const address = new URL(page.url()).hash;
    expect(address).toMatch(/^#\/findings\/[^?]+\?src=bundle%3A/);

    await page.reload();
    await expect(page.locator('header .source')).toContainText('escalation-4711.tar.gz');
    await expect(page.locator('.detail h2').first()).toContainText(title);
    expect(new URL(page.url()).hash).toBe(address);

    // Back closes the detail (the step before), Forward opens it again; both inside the app.
    await page.goBack();
    await expect(page.locator('.detail')).toHaveCount(0);
    await expect(page.locator('nav [data-screen="findings"]')).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.goForward();
    await expect(page.locator('.detail h2').first()).toContainText(title);

    await goScreen(page, 'checks');
    expect(new URL(page.url()).hash).toMatch(/^#\/checks\?src=bundle%3A/);
    await page.goBack();
    await expect(page.locator('.detail h2').first()).toContainText(title);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
