/**
 * Could not look is never a cause (issue 22, point 1): a non-root scan that gets EACCES on a
 * healthy containerd's socket shows a "not running as root" banner with the exact command to run
 * elevated, names no cause for it and offers no restart.
 */
import { expect, test } from './test';
import { RERUN, deniedNodeHost, serveMemoryNode, type MemoryServer } from './memory-node-server';

let server: MemoryServer;
test.beforeAll(async () => {
  server = await serveMemoryNode(deniedNodeHost, { rerunElevated: RERUN });
});
test.afterAll(async () => {
  await server?.close();
});

test('EACCES on the runtime socket is a banner with the sudo command, not a stale socket', async ({
  page,
}) => {
  await page.goto(server.url);
  const banner = page.getByTestId('access-banner');
  await expect(banner).toContainText('Not running as root');
  await expect(banner).toContainText('could not look (permission denied)');
  await expect(banner.locator('code').first()).toHaveText(RERUN);
  await banner.getByText('Which checks could not look').click();
  await expect(banner).toContainText('cri.endpoint.unreachable');

  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('No cause found among the checks that could look');
  await expect(page.locator('body')).not.toContainText('stale socket');

  await page.locator('nav [data-screen="findings"]').click();
  await expect(page.locator('body')).not.toContainText(/Restart the containerd/);
  // The banner stays over every screen of this scan.
  await expect(banner).toBeVisible();
});
