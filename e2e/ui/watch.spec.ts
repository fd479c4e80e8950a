/**
 * Watch on a node disk (`serve --root` on a temp copy of the minikube demo's files): a conf file
 * changed after the scan shows "The node changed after this scan — Rescan"; Rescan clears it;
 * with Watch on, the next change is rescanned by itself. A demo offers no Watch (it never changes).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './test';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDemo } from './app';
import { serveNodeDisk, type DiskServer } from './node-disk';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'out', 'screens');
let disk: DiskServer;
test.beforeAll(async () => {
  disk = await serveNodeDisk();
});
test.afterAll(async () => {
  await disk?.close();
});

test('the stale banner, Rescan, and Watch rescanning by itself', async ({ page }) => {
  await page.goto(disk.url);
  await expect(page.getByTestId('top-finding')).toContainText('10-containerd-net.conflist');
  const banner = page.getByTestId('stale-banner');
  const watch = page.getByRole('button', { name: 'Watch for changes' });
  await expect(watch).toHaveAttribute('aria-pressed', 'false');
  await expect(banner).toHaveCount(0);

  // Someone edits a conf file on the node.
  const conf = path.join(disk.root, 'etc/cni/net.d');
  writeFileSync(path.join(conf, '10-kindnet.conflist.bak'), '{}');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('The node changed after this scan');
  await expect(banner).toContainText('/etc/cni/net.d');
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, 'stale-banner.png') });
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
    [],
  );
  await banner.getByRole('button', { name: 'Rescan' }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('top-finding')).toContainText('10-containerd-net.conflist');

  // Watch on: the fix made by hand on the node is rescanned without a click.
  await watch.click();
  await expect(watch).toHaveAttribute('aria-pressed', 'true');
  renameSync(
    path.join(conf, '10-containerd-net.conflist'),
    path.join(conf, '10-containerd-net.conflist.mk_disabled'),
  );
  await expect(page.getByTestId('top-finding')).not.toContainText('10-containerd-net.conflist', {
    timeout: 30_000,
  });
  await expect(banner).toHaveCount(0);

  // A recording never changes: no Watch, no banner.
  await openDemo(page, 'healthy-node');
  await expect(watch).toHaveCount(0);
  await expect(banner).toHaveCount(0);
});
