/**
 * The repair loop closes (issue 22 point 3), on a node disk served like `serve --root`: the
 * outcome of a repair and of its Undo are read from the node's journal, so a reload shows them
 * again; the verification rescan is shown as before / after (findings gone / stayed / appeared,
 * the load order before and after); Undo previews what it puts back and asks first; the scan from
 * before the repair outlives the scans of other tabs, and Compare before / after is one click.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
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

/** axe in both colour schemes, on what the page shows now (serious and critical only). */
async function axeClean(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const r = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${colorScheme}: ${v.id} ${v.nodes[0]?.target.join(' ')}`),
    ).toEqual([]);
  }
}

async function applyShadowRepair(page: Page): Promise<string> {
  await page.goto(disk.url);
  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('10-containerd-net.conflist');
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();
  const title = (await page.locator('#detail-title').innerText()).trim();
  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await repair.getByRole('button', { name: 'Preview repair' }).click();
  await repair.getByRole('button', { name: 'Apply…' }).click();
  await repair
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect(repair.locator('[data-outcome]')).toHaveAttribute('data-outcome', 'applied');
  return title;
}

function expectBeforeAfter(page: Page, shadowTitle: string) {
  const ba = page.getByTestId('before-after');
  return Promise.all([
    expect(ba.getByRole('group', { name: /^Went away/ })).toContainText(
      shadowTitle.replace(/^\w+\s+/, ''),
    ),
    expect(ba.getByRole('group', { name: /^Appeared/ })).toContainText('Nothing new appeared.'),
    expect(ba.getByTestId('ba-in-use')).toHaveText(
      'in use: 10-containerd-net.conflist before, 10-kindnet.conflist after',
    ),
    expect(
      ba
        .getByRole('figure', { name: /Load order of containerd/ })
        .getByRole('row', { name: /10-containerd-net\.conflist\.disabled/ })
        .getByRole('cell'),
    ).toHaveText(['—', /disabled/]),
  ]);
}

test('the outcome, its before / after and its Undo survive a reload; Undo previews and asks first', async ({
  page,
}) => {
  const title = await applyShadowRepair(page);
  await expectBeforeAfter(page, title);

  // A reload: nothing of the page is left; the node's journal has the outcome.
  await page.reload();
  const detail = page.getByTestId('finding-detail');
  const outcome = detail.locator('[data-outcome]');
  await expect(outcome).toHaveAttribute('data-outcome', 'applied');
  await expect(outcome).toContainText('Applied and verified');
  await expectBeforeAfter(page, title);

  // Undo… previews the rename back and asks; Cancel changes nothing.
  let confirm = await previewUndo(outcome);
  await expect(confirm.getByRole('list', { name: 'What undo does' })).toContainText(
    `Rename /${SHADOWING}.disabled back to /${SHADOWING}`,
  );
  await expect(confirm).toContainText('brings back the problem it fixed');
  await axeClean(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect(existsSync(path.join(disk.root, SHADOWING))).toBe(false);
  expect(existsSync(path.join(disk.root, `${SHADOWING}.disabled`))).toBe(true);

  confirm = await previewUndo(outcome);
  await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(outcome).toHaveAttribute('data-outcome', 'undone');
  expect(existsSync(path.join(disk.root, SHADOWING))).toBe(true);

  // Reloaded again: the finding is back, and its repair panel says the last repair was undone.
  await page.reload();
  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await expect(repair.locator('[data-outcome]')).toHaveAttribute('data-outcome', 'undone');
  await expect(repair).toContainText('Undone: the files are back');
  await expect(repair).toContainText('Last time on this node');
});

test('Undo from History previews the files it puts back before it acts', async ({ page }) => {
  await applyShadowRepair(page);
  await page.keyboard.press('Escape');
  await page.locator('nav [data-screen="history"]').click();
  const row = page.getByRole('row', { name: /Disable 10-containerd-net\.conflist/ });
  await expect(row).toContainText('applied and verified');
  const confirm = await previewUndo(row);
  await expect(confirm).toContainText(`Rename /${SHADOWING}.disabled back to /${SHADOWING}`);
  // Nothing happened yet.
  expect(existsSync(path.join(disk.root, `${SHADOWING}.disabled`))).toBe(true);
  await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Undo: undone' })).toBeVisible();
  expect(existsSync(path.join(disk.root, SHADOWING))).toBe(true);
});

test('the scan before a repair outlives 8 other tabs, and Compare before / after is one click', async ({
  page,
  context,
}) => {
  await applyShadowRepair(page);
  // Other tabs each scan the node again (the review saw the pre-repair scan drop out after 6).
  const other = await context.newPage();
  for (let i = 0; i < 8; i++) {
    await other.goto(`${disk.url.split('#')[0]}?tab=${i}#${disk.url.split('#')[1] ?? ''}`);
    await expect(other.getByTestId('top-finding')).toBeVisible();
    await expect(other.locator('header')).not.toContainText('scanning…');
  }
  await other.close();

  const outcome = page.getByTestId('finding-detail').locator('[data-outcome]');
  await outcome.getByRole('button', { name: 'Compare before / after' }).click();
  await expect(page.locator('nav [data-screen="compare"]')).toHaveAttribute('aria-current', 'page');
  const gone = page.locator('section[aria-labelledby="cmp-gone"]');
  await expect(gone).toContainText('cni.conf.shadowed-by-default');
  const load = page.getByRole('region', { name: 'Load order of containerd' });
  await expect(load.getByTestId('in-use')).toContainText('10-containerd-net.conflist then');
  await expect(load.getByTestId('in-use')).toContainText('10-kindnet.conflist now');
});
