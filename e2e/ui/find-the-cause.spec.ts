/**
 * Flow 1: open a demo bundle, find the cause on the Overview, open its detail and read the evidence.
 */
import { expect, test } from './test';
import { goScreen, openApp, openDemo, serveUrl } from './app';

test('minikube: the default containerd config that shadows kindnet is the top finding, with the conf dir in load order', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');

  const top = page.getByTestId('top-finding');
  await expect(top.getByRole('heading', { name: 'Most likely cause' })).toBeVisible();
  await expect(top).toContainText('10-containerd-net.conflist');
  await expect(top).toContainText('kindnet');
  await expect(top).toContainText('cni.conf.shadowed-by-default');

  await top.getByRole('button', { name: 'Show evidence and repair' }).click();
  const detail = page.getByTestId('finding-detail');
  await expect(detail).toBeVisible();
  await expect(detail.getByRole('heading', { level: 2 })).toBeFocused();

  // The conf dir, drawn in load order, with the winner marked.
  const order = detail.locator('ol.load-order > li');
  await expect(order).toHaveCount(4);
  await expect(order.nth(0)).toContainText('10-containerd-net.conflist');
  await expect(order.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(order.nth(0)).toContainText('in use');
  await expect(order.nth(1)).toContainText('10-kindnet.conflist');
  await expect(order.nth(1)).toContainText('never read');
  await expect(order.nth(3)).toContainText('87-podman-bridge.conflist');

  // The repair it offers, with the CLI fallback while the repair engine is not in this build.
  await expect(
    detail.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ }),
  ).toBeVisible();

  // Escape closes the detail and gives focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(top.getByRole('button', { name: 'Show evidence and repair' })).toBeFocused();
});

test('Windows: Antrea v0.12 on containerd, the log line with "unexpected netNS" is the evidence', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('unexpected netNS');
  // No repair can upgrade Antrea: the cause is guidance-only, and the button says so.
  await top.getByRole('button', { name: 'Show evidence and guidance' }).click();
  const evidence = page.getByTestId('evidence');
  await expect(evidence.locator('.evidence.log')).toContainText(
    'C:\\var\\log\\containerd\\containerd.log:2',
  );
  await expect(evidence.locator('.evidence.log')).toContainText(
    'Cannot get infra container ID, unexpected netNS',
  );
  await expect(page.getByTestId('finding-detail')).toContainText('What to do');

  // The overview shows the node's facts.
  await page.keyboard.press('Escape');
  await expect(page.locator('.facts')).toContainText('v1.19.1');
  await expect(page.locator('.facts')).toContainText('0-containerd-nat.json');

  // Findings: grouped by area; muting hides a finding and persists across a reload.
  await goScreen(page, 'findings');
  await expect(page.getByRole('heading', { name: 'Windows networking (HNS)' })).toBeVisible();
  const stale = page.locator('li.finding', { hasText: 'stale HNS endpoint' });
  await stale.getByRole('button', { name: /^Mute/ }).click();
  await expect(stale).toBeHidden();
  await expect(page.getByText(/1 muted hidden/)).toBeVisible();
  const muted = await page.evaluate(() => localStorage.getItem('cni-doctor.prefs'));
  expect(muted).toContain('hns.endpoint.stale');
  await page.getByLabel(/Show muted/).check();
  await expect(stale).toBeVisible();
  await stale.getByRole('button', { name: /^Unmute/ }).click();
});

test('healthy node: no cause, and the Checks screen explains what could not be determined', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'healthy-node');
  await expect(page.getByTestId('top-finding')).toContainText(
    'Nothing on this node explains a stuck pod sandbox',
  );
  await goScreen(page, 'checks');
  await expect(page.getByRole('table')).toContainText('pass');
  await expect(page.getByRole('button', { name: /could not determine \(\d+\)/ })).toBeVisible();
});

test('the page without its token explains where to get it, and the token leaves the address bar', async ({
  page,
  browser,
}) => {
  const bare = serveUrl().replace(/#.*$/, '');
  const other = await browser.newPage();
  await other.goto(bare);
  await expect(other.getByRole('heading', { name: 'cni-doctor' })).toBeVisible();
  await expect(other.getByText('#token=')).toBeVisible();
  await other.close();

  await openApp(page);
  expect(page.url()).not.toContain('token');
});

test('keyboard: skip link first, visible focus, Tab reaches the screens', async ({ page }) => {
  await openApp(page);
  // The first scan is done: its report can be exported and it can be scanned again.
  await expect(page.getByRole('button', { name: 'Export report' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rescan' })).toBeEnabled();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  // Then the header's controls (Export report, Rescan, Theme), then the first screen. Tabbed one
  // press at a time with the stops recorded, so a failure says where focus went instead.
  const stops: string[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      if (!(el instanceof HTMLElement)) return '(none)';
      return `${el.tagName.toLowerCase()}${el.dataset.screen ? `[data-screen=${el.dataset.screen}]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    });
    stops.push(stop);
    if (stop.startsWith('button[data-screen=overview]')) break;
  }
  expect(stops).toEqual([
    'button "Export report"',
    'button "Rescan"',
    expect.stringMatching(/^button "/), // the theme toggle, named by the theme it is on
    'button[data-screen=overview] "Overview"',
  ]);
  const focused = page.locator('nav [data-screen="overview"]');
  await expect(focused).toBeFocused();
  const outline = await focused.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).toBe('solid');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.locator('nav [data-screen="findings"]')).toHaveAttribute(
    'aria-current',
    'page',
  );
});
