/**
 * Flow 2: a screenshot of every screen, light and dark, in e2e/out/screenshots/; the light
 * Overview also becomes assets/screenshot-overview.png for the README.
 */
import { test } from '@playwright/test';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp } from './app';
import { visitEveryScreen } from './screens';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'e2e', 'out', 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test(`screenshots of every screen (${scheme})`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await openApp(page);
    await visitEveryScreen(page, 'minikube-conflict', async (name) => {
      await page.screenshot({
        path: path.join(OUT, `${name}-${scheme}.png`),
        fullPage: name !== 'finding-detail',
      });
    });
    // The Windows inventory: HNS objects and named pipes.
    await visitEveryScreen(page, 'windows-antrea-containerd', async (name) => {
      if (name === 'overview' || name === 'finding-detail')
        await page.screenshot({ path: path.join(OUT, `windows-${name}-${scheme}.png`) });
      if (name === 'inventory') {
        await page.getByRole('tab', { name: 'HNS endpoints' }).click();
        await page.screenshot({
          path: path.join(OUT, `windows-inventory-hns-${scheme}.png`),
          fullPage: true,
        });
      }
    });
    if (scheme === 'light')
      copyFileSync(
        path.join(OUT, 'overview-light.png'),
        path.join(ROOT, 'assets', 'screenshot-overview.png'),
      );
  });
}
