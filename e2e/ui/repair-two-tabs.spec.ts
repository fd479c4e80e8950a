/**
 * Two tabs on two nodes (issue 22 point 2): a repair previewed in tab A (a node disk served like
 * `serve --root`) still applies to A, and to A only, after tab B scanned another node (a demo)
 * and became the server's latest scan; Undo in A then puts A back.
 */
import { expect, test } from './test';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { serveNodeDisk, type DiskServer } from './node-disk';
import { previewUndo } from './undo';

let disk: DiskServer;
test.beforeEach(async () => {
  disk = await serveNodeDisk();
});
test.afterEach(async () => {
  await disk?.close();
});

const SHADOWING = 'etc/cni/net.d/10-containerd-net.conflist';

test("a repair previewed in tab A applies to A's node after tab B scanned another node", async ({
  page,
}) => {
  // Tab A: the node disk.
  await page.goto(disk.url);
  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('10-containerd-net.conflist');
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();
  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await repair.getByRole('button', { name: 'Preview repair' }).click();
  await expect(repair.getByRole('button', { name: 'Apply…' })).toBeVisible();

  // Tab B: another node (a demo recording), scanned after A's preview.
  const tabB = await page.context().newPage();
  await tabB.goto(disk.url);
  await tabB.evaluate(() => {
    location.hash = '#/overview?src=demo%3Aminikube-conflict';
  });
  await expect(tabB.getByTestId('node-focus')).toContainText('via demo: minikube');
  await expect(tabB.getByTestId('top-finding')).toBeVisible();

  // Tab A applies: on A's disk, not refused because B's recording was scanned last.
  await page.bringToFront();
  await repair.getByRole('button', { name: 'Apply…' }).click();
  await repair
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect(repair.locator('[data-outcome]')).toHaveAttribute('data-outcome', 'applied');
  expect(existsSync(path.join(disk.root, `${SHADOWING}.disabled`))).toBe(true);
  expect(existsSync(path.join(disk.root, SHADOWING))).toBe(false);

  // Tab B scans its node again (the latest scan once more); A's Undo acts on A.
  await tabB.getByRole('button', { name: 'Rescan' }).click();
  await expect(tabB.getByTestId('top-finding')).toBeVisible();
  await page.bringToFront();
  const outcome = page.getByTestId('finding-detail').locator('[data-outcome]');
  const confirm = await previewUndo(outcome);
  await expect(confirm).toContainText('10-containerd-net.conflist');
  await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(outcome).toHaveAttribute('data-outcome', 'undone');
  expect(existsSync(path.join(disk.root, SHADOWING))).toBe(true);
  await tabB.close();
});
