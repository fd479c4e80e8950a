/**
 * Evidence that matches the verdict (issue 22, point 4): on the Windows demo the absent
 * \\.\pipe\cnisock (antrea-agent stopped, a matched log line saying so) is a finding, not a pass;
 * and matched log lines that no finding explains are listed on the Overview.
 */
import { expect, test } from './test';
import { openApp, openDemo } from './app';
import {
  OLD_LOG_LINE,
  oldLogNodeHost,
  serveMemoryNode,
  type MemoryServer,
} from './memory-node-server';

let server: MemoryServer;
test.beforeAll(async () => {
  server = await serveMemoryNode(oldLogNodeHost);
});
test.afterAll(async () => {
  await server?.close();
});

test('the Windows demo warns that antrea-agent does not listen on its pipe, with the log line', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  await page.locator('nav [data-screen="findings"]').click();
  const row = page.getByText(
    /10-antrea\.conflist is not in use yet, and antrea-agent is not listening/,
  );
  await expect(row).toBeVisible();
  await row.click();
  const detail = page.locator('aside');
  await expect(detail).toContainText('service antrea-agent: stopped');
  await expect(detail).toContainText('The system cannot find the file specified');
});

test('matched log lines no finding explains are on the Overview, one click from the log', async ({
  page,
}) => {
  await page.goto(server.url);
  const card = page.getByTestId('unexplained-logs');
  await expect(card).toContainText('Log lines no finding explains (1)');
  await expect(card.locator('pre')).toHaveText(OLD_LOG_LINE);
  await card.getByRole('button', { name: 'Open /var/log/containerd.log:1' }).click();
  await expect(page.locator('main')).toContainText('failed to load cni during init');
});
