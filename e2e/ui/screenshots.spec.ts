/**
 * Flow 2: every screen, light and dark, checked for what it must show and then photographed into
 * e2e/out/screenshots/. Nothing tracked is written: `npm run screenshots:readme` copies the light
 * Overview to assets/screenshot-overview.png when the README's picture should change.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp } from './app';
import { visitEveryScreen } from './screens';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'e2e', 'out', 'screenshots');

/** What each screen must show on any demo before its picture is worth keeping. */
async function expectScreen(page: Page, name: string, topFinding: RegExp): Promise<void> {
  const heading = (text: string | RegExp) =>
    expect(page.getByRole('heading', { level: 1, name: text })).toBeVisible();
  switch (name) {
    case 'overview':
      await expect(page.getByTestId('top-finding')).toContainText(topFinding);
      await expect(page.locator('.facts')).toBeVisible();
      break;
    case 'finding-detail': {
      const detail = page.getByTestId('finding-detail');
      await expect(detail.getByRole('heading', { level: 2 })).toContainText(topFinding);
      await expect(page.getByTestId('evidence')).toBeVisible();
      break;
    }
    case 'findings':
      await heading('Findings');
      await expect(page.locator('li.finding').first()).toBeVisible();
      break;
    case 'inventory':
      await heading('Inventory');
      await expect(page.getByRole('tab').first()).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('.vtable').first()).toBeVisible();
      break;
    case 'checks':
      await heading('Checks');
      await expect(page.locator('.checks-table tbody tr.st-row-fail').first()).toBeVisible();
      break;
    case 'history':
      await heading('History');
      break;
    case 'bundles':
      await heading('Bundles');
      break;
    case 'demo':
      await heading('Demo nodes');
      await expect(page.locator('.demo-list > li')).not.toHaveCount(0);
      break;
    default:
      throw new Error(`no expectation for screen ${name}`);
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`screenshots of every screen (${scheme})`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await openApp(page);
    await visitEveryScreen(page, 'minikube-conflict', async (name) => {
      await expectScreen(page, name, /10-containerd-net\.conflist/);
      await page.screenshot({
        path: path.join(OUT, `${name}-${scheme}.png`),
        fullPage: name !== 'finding-detail',
      });
    });
    // The Windows inventory: HNS objects and named pipes.
    await visitEveryScreen(page, 'windows-antrea-containerd', async (name) => {
      await expectScreen(page, name, /netNS|Antrea/);
      if (name === 'overview' || name === 'finding-detail')
        await page.screenshot({ path: path.join(OUT, `windows-${name}-${scheme}.png`) });
      if (name === 'inventory') {
        await page.getByRole('tab', { name: 'HNS endpoints' }).click();
        await expect(page.getByRole('tab', { name: 'HNS endpoints' })).toHaveAttribute(
          'aria-selected',
          'true',
        );
        await expect(page.locator('.vtable').first()).toContainText(/[0-9A-F]{8}-/i);
        await page.screenshot({
          path: path.join(OUT, `windows-inventory-hns-${scheme}.png`),
          fullPage: true,
        });
      }
    });
  });
}
