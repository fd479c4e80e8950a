/**
 * Issue 22 point 5, the pictures: the conf dir's load order as a lane (finding detail, Inventory,
 * the repair preview's "now" and "after this repair", Compare first), the Windows chain with its
 * broken link, and both in the HTML report without JavaScript. Each picture is checked for what
 * it says in words (never colour only), axe-checked in both themes, and photographed at 900,
 * 1280 and 1920 px wide, light and dark, into e2e/out/pictures/; `npm run screenshots:docs` writes
 * them into docs/screenshots/ instead (a file rewritten only when its picture changed). A test run
 * leaves the work tree as it was: some pictures differ by a few pixels from run to run.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goScreen, openApp, openDemo } from './app';
import { compareWithHealthy } from './screens';
import { serveNodeDisk, type DiskServer } from './node-disk';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS_SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? path.join(ROOT, 'docs', 'screenshots')
    : path.join(ROOT, 'e2e', 'out', 'pictures');
const WIDTHS = [900, 1280, 1920] as const;
const SCHEMES = ['light', 'dark'] as const;

async function axeClean(page: Page, include: string): Promise<void> {
  const r = await new AxeBuilder({ page })
    .include(include)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

/** The picture at each width in both themes; the file is rewritten only when the picture changed. */
async function photograph(page: Page, picture: () => Locator, name: string): Promise<void> {
  mkdirSync(DOCS_SHOTS, { recursive: true });
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await axeClean(page, 'body');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 1400 });
      const shot = await picture().screenshot({ animations: 'disabled' });
      const file = path.join(DOCS_SHOTS, `${name}-${width}-${scheme}.png`);
      expect(shot.length, `${file} stays small`).toBeLessThan(400 * 1024);
      if (!existsSync(file) || !readFileSync(file).equals(shot)) writeFileSync(file, shot);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 860 });
}

/** The lane's files in order, as a person reads them: "name state". */
async function laneText(lane: Locator): Promise<string[]> {
  return (await lane.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

test('the finding detail draws the conf dir as a lane, in load order, with where containerd stops', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  await page
    .getByTestId('top-finding')
    .getByRole('button', { name: /^Show evidence/ })
    .click();
  const lane = page.getByTestId('finding-detail').getByTestId('load-order-lane').first();
  await expect(lane).toBeVisible();
  const files = await laneText(lane);
  expect(files[0]).toMatch(/^★ 10-containerd-net\.conflist in use/);
  expect(files.slice(1)).toEqual([
    'containerd stops here ○ 10-kindnet.conflist never read network "kindnet"',
    expect.stringMatching(/^○ 100-crio-bridge\.conflist never read/),
    expect.stringMatching(/^○ 87-podman-bridge\.conflist never read/),
  ]);
  await expect(lane.locator('figcaption')).toHaveText(
    /containerd uses 10-containerd-net\.conflist; 10-kindnet\.conflist never read, /,
  );
  await photograph(page, () => lane, 'lane-finding');
});

test("the Inventory shows each runtime's lane above the CNI configs table", async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  await goScreen(page, 'inventory');
  const card = page.getByTestId('inventory-lane').first();
  await expect(card.getByRole('heading')).toContainText('Load order of containerd');
  expect((await laneText(card.getByTestId('load-order-lane')))[0]).toMatch(/in use/);
  await photograph(page, () => page.getByTestId('inventory-lane').first(), 'lane-inventory');
});

test('the Windows chain marks the broken link in words and opens its finding', async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  const chain = page.getByTestId('windows-chain');
  await expect(chain).toBeVisible();
  const links = chain.locator('li');
  expect(await links.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-link')))).toEqual([
    'kubelet',
    'runtime',
    'cni-config',
    'cni-plugin',
    'cnisock',
    'agent',
    'hns-network',
    'endpoints',
  ]);
  const link = (id: string) => chain.locator(`li[data-link="${id}"]`);
  await expect(link('runtime')).toContainText('works');
  await expect(link('cni-config')).toContainText(/broken.*pods fail here/i);
  await expect(link('cni-config')).toContainText('0-containerd-nat.json');
  await expect(link('cnisock')).toContainText('broken');
  await expect(link('agent')).toContainText('antrea-agent is stopped');
  await expect(link('endpoints')).toContainText('could not look');
  await expect(chain.locator('figcaption')).toContainText('broken first at CNI config in use');
  await photograph(page, () => chain, 'chain-windows');
  await link('cnisock')
    .getByRole('button', { name: /Show the finding about the CNI pipe/ })
    .click();
  await expect(page.getByTestId('finding-detail')).toContainText('cnisock');
});

test('Compare shows the load order first, as two lanes with what changed', async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  await goScreen(page, 'compare');
  await compareWithHealthy(page);
  const result = page.getByTestId('comparison');
  const headings = await result.locator('h2').allInnerTexts();
  expect(headings[0]).toMatch(/load order/i);
  const pair = result.getByTestId('load-order-pair').first();
  await expect(pair.getByTestId('lane-before').locator('figcaption')).toContainText('Then:');
  await expect(pair.getByTestId('lane-after').locator('figcaption')).toContainText('Now:');
  expect((await laneText(pair.getByTestId('lane-after')))[0]).toMatch(/in use/);
  await photograph(page, () => pair, 'lane-compare');
});

test.describe('the repair preview', () => {
  let disk: DiskServer;
  test.beforeAll(async () => {
    disk = await serveNodeDisk();
  });
  test.afterAll(async () => {
    await disk?.close();
  });

  test('draws the lane now and after this repair', async ({ page }) => {
    await page.goto(disk.url);
    await page
      .getByTestId('top-finding')
      .getByRole('button', { name: 'Show evidence and repair' })
      .click();
    const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
    await repair.getByRole('button', { name: 'Preview repair' }).click();
    const lanes = repair.getByTestId('preview-load-order');
    await expect(lanes).toBeVisible();
    const now = await laneText(lanes.getByTestId('lane-before'));
    const after = await laneText(lanes.getByTestId('lane-after'));
    expect(now[0]).toMatch(/10-containerd-net\.conflist in use/);
    expect(now[1]).toMatch(/containerd stops here ○ 10-kindnet\.conflist never read/);
    expect(after[0]).toMatch(/10-containerd-net\.conflist\.disabled disabled new here/);
    expect(after[1]).toMatch(/10-kindnet\.conflist in use changes/);
    await expect(lanes.getByTestId('lane-after').locator('figcaption')).toContainText(
      'After this repair: containerd uses 10-kindnet.conflist',
    );
    await photograph(page, () => lanes, 'lane-repair-preview');
  });
});

test('the HTML report draws the lanes and the chain without JavaScript, and prints them', async ({
  page,
  browser,
}) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-pictures-'));
  try {
    await openApp(page);
    await openDemo(page, 'windows-antrea-containerd');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report' }).click();
    const file = path.join(dir, (await download).suggestedFilename());
    await (await download).saveAs(file);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const offline = await context.newPage();
    await offline.goto(pathToFileURL(file).href);
    const chain = offline.locator('figure.chain');
    await expect(chain.locator('li')).toHaveCount(8);
    await expect(chain.locator('li.first-broken')).toContainText(/CNI config in use.*broken/s);
    await expect(chain.locator('li.first-broken')).toContainText(/pods fail here/i);
    const lane = offline.locator('#load-order ~ figure.lane').first();
    await expect(lane.locator('li').first()).toContainText('0-containerd-nat.json in use');
    await expect(lane.locator('li').nth(1)).toContainText('containerd stops here');
    await offline.emulateMedia({ media: 'print' });
    await expect(chain).toBeVisible();
    await expect(lane).toBeVisible();
    await offline.emulateMedia({ media: 'screen' });
    await context.close();

    // The same page with scripts allowed, only so axe can run in it (the page has none).
    const other = await browser.newContext();
    const report = await other.newPage();
    await report.goto(pathToFileURL(file).href);
    await photograph(report, () => report.locator('section:has(> #chain)'), 'chain-html-report');
    await photograph(
      report,
      () => report.locator('section:has(> #load-order)'),
      'lane-html-report',
    );
    await other.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
