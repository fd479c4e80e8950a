/**
 * The Inventory's tab, and each table's sort and filter, are part of the address: a reload and a
 * shared link keep them, Back returns to the tab before (newcomer review 3.6, README item 5).
 */
import { expect, test } from './test';
import { goScreen, openApp, openDemo } from './app';

test('the Inventory tab, sort and filter survive a reload and come from a link', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  await goScreen(page, 'inventory');
  await page.getByRole('tab', { name: 'HNS endpoints' }).click();
  const table = page.locator('.vtable-wrap').first();
  const header = page.getByRole('columnheader').filter({ hasText: /^IP address/ });
  await header.getByRole('button').click();
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  expect(new URL(page.url()).hash).toMatch(/^#\/inventory\?src=demo.*&tab=hns-endpoints&s0=\d+d$/);

  await page.reload();
  await expect(page.getByRole('tab', { name: 'HNS endpoints' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(header).toHaveAttribute('aria-sort', 'descending');

  // A link with a filter: the table shows only the rows that match.
  const firstIp = (
    await table
      .locator('.vbody [role="row"]:not([aria-busy])')
      .first()
      .getByRole('cell')
      .nth(3)
      .innerText()
  ).trim();
  expect(firstIp).not.toBe('');
  const url = new URL(page.url());
  url.hash = `${url.hash}&q0=${encodeURIComponent(firstIp)}`;
  await page.goto(url.toString());
  await page.reload();
  await expect(page.getByText(/^1 of \d+ rows?$/)).toBeVisible();

  // Back: the tab before (CNI configs), in the app.
  await goScreen(page, 'inventory');
  await page.getByRole('tab', { name: 'HNS networks' }).click();
  await expect(page.getByRole('tab', { name: 'HNS networks' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'HNS endpoints' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});

test("an HNS object's dialog has an address: a reload keeps it, Back closes it", async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  await goScreen(page, 'inventory');
  await page.getByRole('tab', { name: 'HNS endpoints' }).click();
  const row = page.locator('.vtable-wrap .vbody [role="row"]:not([aria-busy])').first();
  const id = ((await row.getByRole('cell').nth(1).textContent()) ?? '').trim();
  await row.getByRole('button', { name: `Show the JSON of HNS endpoint ${id}` }).click();
  const dialog = page.getByRole('dialog', { name: `HNS endpoint ${id}` });
  await expect(dialog).toBeVisible();
  expect(new URL(page.url()).hash).toContain(`obj=${encodeURIComponent(`endpoint:${id}`)}`);

  await page.reload();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(`JSON of HNS endpoint ${id}`)).toContainText(id.toUpperCase());

  // Back: the Inventory without the dialog, not a dialog floating over another page.
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'HNS endpoints' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});
