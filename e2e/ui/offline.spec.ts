/**
 * The browser's online state holds nothing back: every answer comes from serve on 127.0.0.1.
 * Chromium fires `offline` when a machine's last non-loopback interface goes (a CNI bridge
 * removed, on a machine with no other network); TanStack Query paused every later query until an
 * `online` event, so the Demo list never came (CI stop 31). Here the event is sent by hand, as
 * Chromium sends it, and the app must carry on as before.
 */
import { expect, test } from './test';
import { goScreen, openApp, openDemo } from './app';

test('after the browser says it is offline, screens still load and a demo still opens', async ({
  page,
}) => {
  await openApp(page);
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
  await openDemo(page, 'windows-antrea-containerd');
  await goScreen(page, 'checks');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
