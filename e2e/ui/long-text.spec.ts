/**
 * Long text at a narrow window (issue 22 point 7, newcomer review journey 4 and 3.3): at 900 px a
 * 244-character config name, a 150-character network and a 60-character hostname wrap instead of
 * running out of their boxes, the header keeps its buttons on one line, the log viewer wraps a
 * 700-character line (and unwraps it on request), and a finding with 50 pieces of evidence shows
 * the first 10 and "… 41 more".
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './test';
import { serveMemoryNode, type MemoryServer } from './memory-node-server';
import { LONG_CONF, longNamesHost, staleEndpointsHost } from './long-text-node';
import type { BundleHost } from '../../main/host/bundle-host';

test.use({ viewport: { width: 900, height: 700 } });

/** Elements wider than their box (scrollWidth > clientWidth), by name. */
async function overflowing(page: Page, selectors: string[]): Promise<string[]> {
  return page.evaluate((sels) => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw)
      out.push(`the page: ${document.documentElement.scrollWidth} > ${vw}`);
    for (const s of sels)
      for (const el of document.querySelectorAll(s))
        if (el.scrollWidth > el.clientWidth + 1)
          out.push(`${s}: ${el.scrollWidth} > ${el.clientWidth}`);
    return out;
  }, selectors);
}

async function lineCount(l: Locator): Promise<number> {
  return l.evaluate((el) => {
    const cs = getComputedStyle(el);
    const lh = parseFloat(cs.lineHeight) || 20;
    const text = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
    return Math.round(text / lh);
  });
}

test.describe('long names', () => {
  let server: MemoryServer;
  test.beforeAll(async () => {
    server = await serveMemoryNode(longNamesHost);
  });
  test.afterAll(async () => {
    await server?.close();
  });

  test('wrap at 900 px: Overview, header, finding detail, log viewer', async ({ page }) => {
    await page.goto(server.url);
    const top = page.getByTestId('top-finding');
    await expect(top).toContainText(LONG_CONF);
    expect(
      await overflowing(page, ['main', 'header.top', 'main h1', '.cause-title', '.card', 'nav']),
    ).toEqual([]);
    for (const name of ['Export report', 'Rescan', /^Theme/]) {
      const b = page.locator('header.top').getByRole('button', { name });
      expect(await lineCount(b), `${String(name)} on one line`).toBe(1);
    }
    expect(await lineCount(page.locator('header .brand'))).toBe(1);

    await top.getByRole('button', { name: /Show evidence/ }).click();
    const detail = page.getByTestId('finding-detail');
    await expect(detail).toContainText(LONG_CONF);
    expect(
      await overflowing(page, ['aside.detail', '#detail-title', '.detail .summary', '.evidence']),
    ).toEqual([]);
    await page.keyboard.press('Escape');

    // The matched log line no finding explains, in the log viewer: wrapped by default.
    await page
      .getByTestId('unexplained-logs')
      .getByRole('button', { name: /^Open / })
      .click();
    const lines = page.getByTestId('log-lines');
    await expect(lines).toContainText('END-OF-LINE');
    const wrap = page.getByRole('button', { name: 'Wrap long lines' });
    await expect(wrap).toHaveAttribute('aria-pressed', 'true');
    expect(await overflowing(page, ['main', '[data-testid="log-lines"]'])).toEqual([]);
    await expect(lines.getByText(/END-OF-LINE/)).toBeInViewport();
    await wrap.click();
    await expect(wrap).toHaveAttribute('aria-pressed', 'false');
    expect(await overflowing(page, ['[data-testid="log-lines"]'])).not.toEqual([]);
    expect(await overflowing(page, ['main'])).toEqual([]); // the box scrolls, not the page
  });
});

test.describe('a long evidence list', () => {
  let server: MemoryServer;
  let host: BundleHost;
  test.beforeAll(async () => {
    host = await staleEndpointsHost(66);
    server = await serveMemoryNode(() => host);
  });
  test.afterAll(async () => {
    await server?.close();
  });

  test('says "… N more" and opens the rest', async ({ page }) => {
    await page.goto(server.url);
    await page.locator('nav [data-screen="findings"]').click();
    await page.locator('[data-finding-id="hns.endpoint.stale"]').click();
    const evidence = page.getByTestId('finding-detail').getByTestId('evidence');
    await expect(evidence.locator('.evidence.hns')).toHaveCount(10);
    const more = evidence.getByRole('button', { name: '… 41 more' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(evidence.locator('.evidence.hns')).toHaveCount(50);
    await expect(evidence).toContainText('… and 16 more stale endpoint(s): the Inventory');
    const fewer = evidence.getByRole('button', { name: 'Show the first 10 only' });
    await expect(fewer).toHaveAttribute('aria-expanded', 'true');
    await expect(fewer).toBeFocused();
    expect(await overflowing(page, ['aside.detail', '.evidence'])).toEqual([]);
  });
});
