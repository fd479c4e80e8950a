/**
 * The main flow by keyboard only (issue 22 point 7, newcomer review journey 4): open the node,
 * open a finding, preview its repair, apply it, undo it. After every step focus is on something
 * that says where the user is (a heading, the question, the result), never on the page body, and
 * Apply is a few Tab presses from the finding (the review counted 48).
 */
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { serveNodeDisk, type DiskServer } from './node-disk';

let disk: DiskServer;
test.beforeAll(async () => {
  disk = await serveNodeDisk();
});
test.afterAll(async () => {
  await disk?.close();
});

interface Focused {
  tag: string;
  text: string;
}

async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const a = document.activeElement;
    return {
      tag: a ? a.tagName.toLowerCase() : 'null',
      text: (a?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 120),
    };
  });
}

/** Focus is on something of the page, not lost to <body> (or nothing). */
async function expectFocusKept(page: Page, step: string): Promise<Focused> {
  const f = await focused(page);
  expect(['body', 'html', 'null'], `after "${step}" focus fell to <${f.tag}>`).not.toContain(f.tag);
  return f;
}

/** Presses Tab until the focused element's text matches, at most `max` times; returns the count. */
async function tabTo(page: Page, text: RegExp, max: number): Promise<number> {
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press('Tab');
    await expectFocusKept(page, `Tab ${n}`);
    if (text.test((await focused(page)).text)) return n;
  }
  throw new Error(
    `${text} was not reached in ${max} Tab presses: on ${JSON.stringify(await focused(page))}`,
  );
}

test('open node → finding → preview → apply → undo, by keyboard, focus never on the body', async ({
  page,
}) => {
  await page.goto(disk.url);
  await expect(page.getByTestId('top-finding')).toContainText('10-containerd-net.conflist');

  // Open the node from another screen: the control that was pressed goes away with its screen.
  await page.locator('nav [data-screen="bundles"]').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Scan this machine instead' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('top-finding')).toContainText('10-containerd-net.conflist');
  await expect
    .poll(async () => (await focused(page)).tag, { message: 'focus on the node’s heading' })
    .toBe('h1');

  // The finding, from its row in the Findings list.
  await page.locator('nav [data-screen="findings"]').focus();
  await page.keyboard.press('Enter');
  await page.locator('.finding-open', { hasText: 'containerd uses the default' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('finding-detail')).toBeVisible();
  expect((await expectFocusKept(page, 'open the finding')).tag).toBe('h2');

  // Apply… in a few keys: to the repair, Preview, then Apply….
  let tabs = await tabTo(page, /^Go to the repair$/, 5);
  await page.keyboard.press('Enter');
  expect((await expectFocusKept(page, 'Go to the repair')).text).toBe('Repair');
  tabs += await tabTo(page, /^Preview repair$/, 5);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Apply…' })).toBeVisible();
  await expect
    .poll(async () => (await focused(page)).text, { message: 'focus on the preview’s heading' })
    .toBe('Preview: what this repair changes');
  tabs += await tabTo(page, /^Apply…$/, 5);
  expect(tabs, 'Tab presses from the finding to Apply…').toBeLessThanOrEqual(5);

  await page.keyboard.press('Enter');
  expect((await expectFocusKept(page, 'Apply…')).text).toMatch(/^Apply this repair on .+ now\?/);
  await tabTo(page, /^Apply$/, 1);
  await page.keyboard.press('Enter');
  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await expect(repair.getByText('Applied and verified')).toBeVisible();
  await expect
    .poll(async () => (await focused(page)).text, { message: 'focus on the result' })
    .toMatch(/^Applied and verified/);

  // Undo… previews what it puts back and asks, like Apply….
  await tabTo(page, /^Undo…$/, 6);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await focused(page)).text, { message: 'focus on the undo question' })
    .toMatch(/^Undo “/);
  await tabTo(page, /^Undo$/, 1);
  await page.keyboard.press('Enter');
  await expectFocusKept(page, 'Undo (pending)');
  await expect(repair.locator('[data-outcome="undone"]')).toBeVisible();
  await expect
    .poll(async () => (await focused(page)).text, { message: 'focus on the undo’s result' })
    .toMatch(/^Undone/);

  // Escape closes the detail; focus goes back to the list, not to the body.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('finding-detail')).toBeHidden();
  await expectFocusKept(page, 'Escape');
});

test('the Checks badge reads as words, not "24 question mark"', async ({ page }) => {
  await page.goto(disk.url);
  await expect(page.getByTestId('top-finding')).toBeVisible();
  const checks = page.locator('nav [data-screen="checks"]');
  await expect(checks).toHaveAccessibleName(/^Checks\s*,\s*\d+ could not determine$/);
});
