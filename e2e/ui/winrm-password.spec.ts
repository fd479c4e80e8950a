/**
 * winrm:USER@HOST from the UI (issue 21): the password is asked in a masked dialog when the
 * session opens, reaches PowerShell as a SecureString, and appears nowhere else — not in any
 * response, not in the address, not in the serve process's arguments or environment, not in the
 * errors the door logs, not in what the local shell was given. A cancelled dialog fails the scan
 * with "no password given". From Linux the real product refuses winrm: with the reason.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serveUrl } from './app';
import { serveWinrmStandIn, type WinrmServer } from './winrm-server';

const PASSWORD = 'Wörd-€ 9"q\'x!';
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

let server: WinrmServer;
test.describe.configure({ timeout: 120_000 });
test.beforeAll(async () => {
  server = await serveWinrmStandIn();
});
test.afterAll(async () => {
  await server?.close();
});

async function openTyped(page: Page, url: string, target: string): Promise<void> {
  await page.goto(url);
  await page.locator('nav [data-screen="targets"]').click();
  await page.getByLabel('Target', { exact: true }).fill(target);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
}

/** The text of every API answer the page got (bodies of /api/ responses). */
function recordAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/') || r.url().endsWith('/api/events')) return;
    void r.text().then(
      (t) => bodies.push(t),
      () => undefined,
    );
  });
  return bodies;
}

test('the password dialog asks, the password reaches PowerShell as a SecureString and nowhere else', async ({
  page,
}) => {
  const answers = recordAnswers(page);
  const sent: string[] = [];
  page.on('request', (r) => sent.push(r.url()));
  await openTyped(page, server.url, 'winrm:Administrator@win-node-1');

  const dialog = page.getByRole('dialog', { name: 'Password for Administrator' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog).toContainText('winrm:Administrator@win-node-1');
  const field = dialog.getByLabel('Password');
  await expect(field).toHaveAttribute('type', 'password');
  await expect(field).toBeFocused();
  const axe = await new AxeBuilder({ page }).include('dialog.credential').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await field.fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toHaveCount(0);

  // The stand-in New-PSSession's report is the scan's error.
  const error = page.locator('.notice.error').first();
  await expect(error).toContainText('stand-in New-PSSession: ComputerName=win-node-1', {
    timeout: 60_000,
  });
  await expect(error).toContainText('user=Administrator');
  await expect(error).toContainText('type=System.Security.SecureString readonly=True');
  await expect(error).toContainText(`sha256=${sha256(PASSWORD)}`);

  const b64 = Buffer.from(PASSWORD, 'utf8').toString('base64');
  const everywhere = [
    ...answers,
    ...sent,
    page.url(),
    await page.content(),
    readFileSync('/proc/self/cmdline', 'utf8'),
    readFileSync('/proc/self/environ', 'utf8'),
    ...server.logged,
    server.shellSaw(),
  ];
  expect(answers.length).toBeGreaterThan(0);
  for (const text of everywhere) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(b64);
    expect(text).not.toContain(JSON.stringify(PASSWORD).slice(1, -1));
  }
});

test('Cancel answers with no password: the scan fails with "no password given"', async ({
  page,
}) => {
  await openTyped(page, server.url, 'winrm:ops@win-node-2');
  const dialog = page.getByRole('dialog', { name: 'Password for ops' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('.notice.error').first()).toContainText('no password given', {
    timeout: 60_000,
  });
});

test('from Linux the real serve refuses winrm: with the reason and asks nothing', async ({
  page,
}) => {
  await openTyped(page, serveUrl(), 'winrm:Administrator@win-node-1');
  await expect(page.locator('.notice.error').first()).toContainText('no working WSMan client', {
    timeout: 60_000,
  });
  await expect(page.locator('.notice.error').first()).toContainText('pssession:');
  await expect(page.getByTestId('credential-dialog')).toHaveCount(0);
});
