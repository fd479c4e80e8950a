/**
 * The Inventory of a big Windows node (50,000 HNS endpoints, bench/windows-node.ts) served by its
 * own `serve` in this process: rows appear, scrolling to the end fetches the last window, sort and
 * filter are the engine's, an endpoint's JSON opens as text, and no response on the way is larger
 * than 2 MB (neither on the wire nor decoded).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWindowsBundle } from '../../bench/windows-node';
import { createDispatcher } from '../../app/shared-server/dispatch';
import { createEngineBackend, type EngineBackend } from '../../app/shared-server/engine-backend';
import { engineRepairs } from '../../app/shared-server/engine-repairs';
import { ProgressBus } from '../../app/shared-server/progress';
import { startWebServer, type WebServer } from '../../app/web/server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENDPOINTS = 50_000;
const MAX_RESPONSE = 2_000_000;

let dir: string;
let backend: EngineBackend;
let server: WebServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-inventory-'));
  const bundle = path.join(dir, 'big-windows-node');
  await makeWindowsBundle(bundle, { endpoints: ENDPOINTS, policyLists: 200 });
  const progress = new ProgressBus();
  backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir: path.join(dir, 'state') }),
    demosDir: undefined,
    initialBundle: bundle,
    tmpRoot: dir,
  });
  server = await startWebServer({
    dispatcher: createDispatcher({ backend }),
    progress,
    staticDir: path.join(ROOT, 'dist', 'renderer'),
  });
});

test.afterAll(async () => {
  await server?.close();
  await backend?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Every response's size, on the wire and decoded, as the page receives them. */
function watchSizes(page: Page): () => Promise<{ url: string; wire: number; decoded: number }[]> {
  const all: Promise<{ url: string; wire: number; decoded: number }>[] = [];
  page.on('requestfinished', (req) =>
    all.push(
      (async () => {
        const sizes = await req.sizes();
        const body = await (await req.response())?.body();
        return {
          url: new URL(req.url()).pathname,
          wire: sizes.responseBodySize,
          decoded: body?.length ?? 0,
        };
      })(),
    ),
  );
  return () => Promise.all(all);
}

const table = (page: Page) => page.getByRole('table', { name: 'HNS endpoints' });
const filled = '[role="row"]:not([aria-busy])';

test('50,000 HNS endpoints: rows in windows, sorted and filtered by the engine, no big response', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sizes = watchSizes(page);
  const inventoryCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/inventory')) inventoryCalls.push(r.postData() ?? '');
  });
  await page.goto(server.url);
  await expect(page.getByTestId('top-finding')).toBeVisible({ timeout: 60_000 });
  await page.locator('nav [data-screen="inventory"]').click();
  await page.getByRole('tab', { name: 'HNS endpoints' }).click();

  const t = table(page);
  await expect(page.getByText('50,000 rows')).toBeVisible();
  await expect(t.locator(`.vbody ${filled}`).first()).toBeVisible();
  await expect(t).toHaveAttribute('aria-rowcount', String(ENDPOINTS + 1));
  // Only a window is in the DOM.
  expect(await t.locator('.vbody [role="row"]').count()).toBeLessThan(100);

  // A jump to the end fetches the last window only.
  const before = inventoryCalls.length;
  await t.locator('.vbody').evaluate((el) => (el.scrollTop = el.scrollHeight));
  const last = t.locator(`.vbody ${filled}[aria-rowindex="${ENDPOINTS + 1}"]`);
  await expect(last).toBeVisible();
  await expect(last.getByRole('cell').nth(3)).toHaveText('10.0.195.79');
  expect(inventoryCalls.length - before).toBeLessThanOrEqual(2);
  expect(inventoryCalls.slice(before).join()).toContain(`"offset":${ENDPOINTS - 200}`);

  // Sorting is the engine's, over all 50,000 rows: IP descending puts the last one first.
  await t.locator('.vbody').evaluate((el) => (el.scrollTop = 0));
  const ipHeader = t.getByRole('columnheader', { name: 'IP address' });
  await ipHeader.getByRole('button').click();
  await expect(ipHeader).toHaveAttribute('aria-sort', 'ascending');
  await ipHeader.getByRole('button').click();
  await expect(ipHeader).toHaveAttribute('aria-sort', 'descending');
  const firstRow = t.locator(`.vbody ${filled}[aria-rowindex="2"]`);
  await expect(firstRow.getByRole('cell').nth(3)).toHaveText('10.0.195.79');

  // The filter too: one endpoint by its IP.
  await page.getByRole('searchbox', { name: 'Filter HNS endpoints' }).fill('10.0.100.7');
  await expect(page.getByText(/^\d+ of 50,000 rows$/)).toBeVisible();
  await expect(t).toHaveAttribute('aria-rowcount', String(await matchedPlusOne(page)));
  await expect(firstRow.getByRole('cell').nth(3)).toHaveText(/^10\.0\.100\.7/);

  // Keyboard: the sort buttons and the scroll area are reachable with Tab.
  await ipHeader.getByRole('button').focus();
  await expect(ipHeader.getByRole('button')).toBeFocused();

  const all = await sizes();
  const api = all.filter((s) => s.url.startsWith('/api/'));
  expect(api.length).toBeGreaterThan(3);
  const over = all.filter((s) => s.wire > MAX_RESPONSE || s.decoded > MAX_RESPONSE);
  expect(over).toEqual([]);
});

async function matchedPlusOne(page: Page): Promise<number> {
  const text = (await page.getByText(/^\d+ of 50,000 rows$/).textContent()) ?? '';
  return Number(text.split(' ')[0]) + 1;
}

test("an endpoint's JSON as the node returned it: text only, searchable, closes with Escape", async ({
  page,
}) => {
  await page.goto(server.url);
  await expect(page.getByTestId('top-finding')).toBeVisible({ timeout: 60_000 });
  await page.locator('nav [data-screen="inventory"]').click();
  await page.getByRole('tab', { name: 'HNS endpoints' }).click();
  const row = table(page).locator(`.vbody ${filled}[aria-rowindex="3"]`);
  const id = (await row.getByRole('cell').nth(1).textContent()) ?? '';
  // The JSON button leads the row, beside the ID, on the same line.
  const [jsonBox, idBox] = await Promise.all([
    row.getByRole('cell').nth(0).boundingBox(),
    row.getByRole('cell').nth(1).boundingBox(),
  ]);
  expect(idBox?.x).toBeGreaterThanOrEqual((jsonBox?.x ?? 0) + (jsonBox?.width ?? 0) - 1);
  expect(Math.abs((idBox?.y ?? 0) - (jsonBox?.y ?? -9))).toBeLessThan(2);
  const open = row.getByRole('button', { name: `Show the JSON of HNS endpoint ${id}` });
  await open.click();

  const dialog = page.getByRole('dialog', { name: `HNS endpoint ${id}` });
  await expect(dialog).toBeVisible();
  const json = dialog.getByLabel(`JSON of HNS endpoint ${id}`);
  await expect(json).toContainText('"IPAddress": "10.0.0.1"');
  expect(JSON.parse((await json.textContent()) ?? '')).toMatchObject({
    IPAddress: '10.0.0.1',
    VirtualNetworkName: 'antrea-hnsnetwork',
  });
  await page.screenshot({ path: path.join(ROOT, 'e2e', 'out', 'screenshots', 'hns-object.png') });
  await dialog.getByRole('searchbox', { name: 'Find in the JSON' }).fill('macaddress');
  await expect(dialog.getByText('1 line contains it.')).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Matching lines' })).toContainText(
    '"MacAddress": "00-15-5D-00-00-01"',
  );

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
    [],
  );

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});

test('a stale-endpoint finding opens the JSON of the endpoint it names', async ({ page }) => {
  await page.goto(server.url);
  await expect(page.getByTestId('top-finding')).toBeVisible({ timeout: 60_000 });
  await page.locator('nav [data-screen="findings"]').click();
  await page
    .locator('li.finding', { hasText: 'stale HNS endpoint' })
    .locator('.finding-open')
    .click();
  const detail = page.getByTestId('finding-detail');
  const button = detail.getByRole('button', { name: /^Show the JSON of HNS endpoint / }).first();
  await button.click();
  const dialog = page.getByRole('dialog', { name: /^HNS endpoint / });
  await expect(dialog.getByText('"State": 1')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
