/**
 * Flow 2: every screen, light and dark, checked for what it must show and then photographed whole
 * (full page) into e2e/out/screenshots/. The pictures at the three window sizes, and the README's,
 * come from layout.spec.ts.
 */
import { expect, test } from './test';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp } from './app';
import { expectScreen } from './expect-screen';
import { visitEveryScreen } from './screens';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'e2e', 'out', 'screenshots');

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
