/**
 * "Export report" of each demo: one HTML file that opens from file:// with the network cut off,
 * shows the same findings as the UI, names the same most likely cause, and passes axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { goScreen, openApp, openDemo } from './app';

for (const demo of ['minikube-conflict', 'windows-antrea-containerd', 'healthy-node'] as const) {
  test(`the HTML report of ${demo} opens offline and matches the UI`, async ({ page, context }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-html-'));
    try {
      await openApp(page);
      await openDemo(page, demo);
      const cause = (await page.getByTestId('top-finding').innerText()).split('\n');
      await goScreen(page, 'findings');
      const uiTitles = (await page.locator('.finding-title').allInnerTexts()).map((t) => t.trim());

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export report' }).click();
      const file = path.join(dir, (await download).suggestedFilename());
      await (await download).saveAs(file);
      expect(path.basename(file)).toMatch(/^cni-doctor-report-.+\.html$/);

      // Offline: any request that is not the file itself fails the test.
      const requests: string[] = [];
      const offline = await context.newPage();
      offline.on('request', (r) => {
        if (r.url() !== pathToFileURL(file).href) requests.push(r.url());
      });
      await offline.goto(pathToFileURL(file).href);
      const htmlTitles = (await offline.locator('section.finding h3').allInnerTexts()).map((t) =>
        t
          .replace(/^(error|warning|info)\s+/i, '')
          .replace(/\s+most likely cause$/, '')
          .trim(),
      );
      expect([...htmlTitles].sort()).toEqual([...uiTitles].sort());
      if (demo === 'healthy-node') {
        await expect(offline.locator('main > p').first()).toContainText('Nothing found');
      } else {
        // The UI's cause card holds "Most likely cause", then the title line.
        const uiCause = cause.find((l) => htmlTitles.some((t) => l.includes(t)));
        expect(uiCause, 'the UI names a cause the page lists').toBeTruthy();
        await expect(offline.locator('main > p').first()).toContainText(htmlTitles[0]!);
        expect(uiCause).toContain(htmlTitles[0]!);
      }
      const axe = await new AxeBuilder({ page: offline })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
