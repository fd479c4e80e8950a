/**
 * Flow 4: the desktop window through Playwright's _electron — the same find-the-cause flow as the
 * browser, and the window's security settings (webPreferences, CSP, navigation and new windows
 * denied, no Node in the page, only window.doctor exposed, permissions refused). It runs against
 * the unpackaged build (`electron .`): the packaged app has the inspect fuse off, which
 * Playwright needs. Skipped, with the reason, where no Electron binary exists.
 */
import {
  _electron as electron,
  expect,
  test,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = findElectronBinary();

test.describe('desktop window', () => {
  test.skip(!binary.ok, `no Electron binary on this machine: ${binary.ok ? '' : binary.reason}`);

  let app: ElectronApplication;
  let page: Page;

  test.beforeAll(async () => {
    if (!binary.ok) return;
    // Electron refuses to run as root with its sandbox on (CI containers run as root).
    const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    app = await electron.launch({
      executablePath: binary.path,
      args: [...rootArgs, '.'],
      cwd: ROOT,
      env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' },
    });
    page = await app.firstWindow();
    await expect(page.locator('.brand')).toHaveText('cni-doctor');
  });

  test.afterAll(async () => {
    await app?.close();
  });

  test('webPreferences: isolated, sandboxed, no Node, web security on', async () => {
    const prefs = await app.evaluate(
      () => (globalThis as Record<string, unknown>).__cniDoctorWebPreferences,
    );
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(
      await page.evaluate(() => [
        typeof (globalThis as Record<string, unknown>).require,
        typeof (globalThis as Record<string, unknown>).process,
      ]),
    ).toEqual(['undefined', 'undefined']);
    expect(await page.evaluate(() => Object.keys(window.doctor ?? {}).sort())).toEqual(
      [
        'applyRepair',
        'exportBundle',
        'history',
        'hnsObject',
        'info',
        'inventory',
        'listBundles',
        'listDemos',
        'onProgress',
        'openBundle',
        'previewRepair',
        'rules',
        'scan',
        'undo',
      ].sort(),
    );
    expect(await page.evaluate(() => Object.isFrozen(window.doctor))).toBe(true);
  });

  test('the page is the app file, and the CSP blocks inline script and eval', async () => {
    expect(new URL(page.url()).protocol).toBe('file:');
    expect(page.url()).toContain('/dist/renderer/index.html');
    const csp = await page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .getAttribute('content');
    expect(csp).toContain("script-src 'self'");
    expect(
      await page.evaluate(() => {
        try {
          return String(new Function('return 1')());
        } catch {
          return 'blocked';
        }
      }),
    ).toBe('blocked');
    expect(
      await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__inline = 1';
        document.head.append(s);
        return (window as unknown as Record<string, unknown>).__inline ?? 'blocked';
      }),
    ).toBe('blocked');
    // The header the session adds to every response (file:// loads included where Electron applies it).
    const hasHandler = await app.evaluate(
      ({ session }) => typeof session.defaultSession.webRequest.onHeadersReceived === 'function',
    );
    expect(hasHandler).toBe(true);
  });

  test('navigation away, new windows and permission requests are denied', async () => {
    const before = page.url();
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(before);
    expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
    expect(app.windows()).toHaveLength(1);
    expect(await page.evaluate(() => Notification.requestPermission())).toBe('denied');
    // A forged IPC call from another origin is impossible to make from here; the sender check is unit-tested.
  });

  test('find the cause in a demo bundle, as in the browser', async () => {
    await page.locator('nav [data-screen="demo"]').click();
    await page.locator('[data-demo="minikube-conflict"]').click();
    const top = page.getByTestId('top-finding');
    await expect(top).toContainText('10-containerd-net.conflist');
    await top.getByRole('button', { name: 'Show evidence and repair' }).click();
    await expect(page.locator('ol.load-order > li').first()).toHaveAttribute(
      'aria-current',
      'true',
    );
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('finding-detail')).toBeHidden();
  });
});
