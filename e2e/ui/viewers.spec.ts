/**
 * The full evidence: a finding's file opened whole (marked line, search, reload keeps it), a
 * matched log line opened in its log, the runtime's raw CRI answers — axe-clean and without
 * sideways overflow at 900×700.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create as tarCreate } from 'tar';
import { goScreen, openApp, openDemo } from './app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function axe(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Nothing reaches past the window's right edge except inside a sideways scroller. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > vw + 1)
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    const scroller = (el: Element): boolean => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('.sr-only, .skip')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || scroller(el)) continue;
      if (r.right > vw + 1)
        out.push(`<${el.tagName.toLowerCase()}.${[...el.classList].join('.')}> ends at ${r.right}`);
    }
    return out;
  });
}

async function checkPage(page: Page, where: string): Promise<void> {
  await page.setViewportSize({ width: 900, height: 700 });
  mkdirSync(path.join(ROOT, 'e2e', 'out', 'screens'), { recursive: true });
  await page.screenshot({
    path: path.join(ROOT, 'e2e', 'out', 'screens', `${where.replace(/\W+/g, '-')}-900x700.png`),
  });
  expect(await overflow(page), `${where} at 900×700`).toEqual([]);
  expect(await axe(page), `${where}: axe`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 860 });
}

test('a finding’s file, whole: marked line, search, reload, back', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-viewer-'));
  try {
    const file = path.join(dir, 'v3-config-node.tar.gz');
    await tarCreate(
      {
        gzip: true,
        file,
        cwd: path.join(ROOT, 'fixtures', 'linux', 'containerd-2-v2-keys-in-v3-config'),
        portable: true,
      },
      ['manifest.json', 'files'],
    );
    await openApp(page);
    await goScreen(page, 'bundles');
    await page.getByLabel('Bundle file (.tar.gz)').setInputFiles(file);
    await expect(page.locator('header .source')).toContainText('v3-config-node.tar.gz');
    await goScreen(page, 'findings');
    await page
      .locator('.finding-open')
      .filter({ hasText: '"io.containerd.grpc.v1.cri".cni is ignored' })
      .click();
    const detail = page.getByTestId('finding-detail');
    await expect(detail.locator('.line.hl')).toContainText('bin_dir = "/opt/cni/bin"');
    await detail.getByRole('button', { name: 'Open the whole file' }).click();

    const viewer = page.getByTestId('viewer');
    await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(
      '/etc/containerd/config.toml',
    );
    await expect(detail).toBeHidden();
    const lines = viewer.getByTestId('file-lines');
    // This finding's line is marked; the other findings' lines in the same file are marked too.
    await expect(lines.locator('[data-line="67"]')).toHaveClass(/\bhl\b/);
    await expect(lines.locator('[data-line="67"]')).toContainText('bin_dir = "/opt/cni/bin"');
    await expect(lines.locator('[data-line="32"]')).toHaveClass(/hl-other/);
    // Opened at the marked line with 40 lines above it, to the end of the file.
    await expect(lines.locator('.line').first()).toHaveAttribute('data-line', '27');
    await expect(lines.locator('[data-line="67"]')).toBeInViewport();
    await viewer.getByRole('button', { name: 'Go to marked line 10' }).click();
    await expect(lines.locator('.line').first()).toHaveAttribute('data-line', '1');
    await expect(lines.locator('[data-line="10"]')).toHaveClass(/hl-other/);
    await expect(lines.locator('[data-line="10"]')).toBeInViewport();
    await expect(page).toHaveURL(/view=file&path=%2Fetc%2Fcontainerd%2Fconfig\.toml&line=67/);

    // Search: every line holding the text, stepped through both ways.
    await viewer.getByLabel('Find in file').fill('io.containerd.grpc.v1.cri');
    await viewer.getByRole('button', { name: 'Find', exact: true }).click();
    const status = viewer.getByTestId('find-status');
    await expect(status).toHaveText(/^1 of \d+ lines$/);
    const total = Number(/of (\d+)/.exec((await status.textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(3);
    const current = lines.locator('.line.hit-current');
    await expect(current.locator('mark')).toHaveText('io.containerd.grpc.v1.cri');
    const first = await current.getAttribute('data-line');
    await viewer.getByRole('button', { name: 'Next' }).click();
    await expect(status).toHaveText(`2 of ${total} lines`);
    expect(await current.getAttribute('data-line')).not.toBe(first);
    await viewer.getByRole('button', { name: 'Previous' }).click();
    await viewer.getByRole('button', { name: 'Previous' }).click();
    await expect(status).toHaveText(`${total} of ${total} lines`);
    await viewer.getByLabel('Find in file').fill('no such text anywhere');
    await viewer.getByLabel('Find in file').press('Enter');
    await expect(status).toHaveText('No line holds "no such text anywhere"');
    await checkPage(page, 'file viewer');

    // The address keeps it: a reload opens the same file at the same line.
    await page.reload();
    await expect(page.getByTestId('viewer').getByRole('heading', { level: 1 })).toHaveText(
      '/etc/containerd/config.toml',
    );
    await expect(page.getByTestId('file-lines').locator('[data-line="67"]')).toHaveClass(/\bhl\b/);

    // Back returns to the finding; Escape in the viewer does the same.
    await page.getByRole('button', { name: 'Back to the finding' }).click();
    await expect(page.getByTestId('finding-detail')).toBeVisible();
    await expect(page).not.toHaveURL(/view=/);
    await page
      .getByTestId('finding-detail')
      .getByRole('button', { name: 'Open the whole file' })
      .click();
    await expect(page.getByTestId('viewer')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('finding-detail')).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a matched log line in its log, and the runtime’s raw CRI answers', async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  await page
    .getByTestId('top-finding')
    .getByRole('button', { name: /^Show evidence and (repair|guidance)$/ })
    .click();
  const detail = page.getByTestId('finding-detail');
  const quoted = (await detail.locator('.evidence.log .log-line').first().textContent()) ?? '';
  await detail.getByRole('button', { name: 'Open the log around this line' }).first().click();
  const viewer = page.getByTestId('viewer');
  await expect(viewer.getByTestId('log-location')).toHaveText(
    'C:\\var\\log\\containerd\\containerd.log:2',
  );
  const matched = viewer.getByTestId('log-lines').locator('.line.hl');
  await expect(matched).toHaveAttribute('data-line', '2');
  await expect(matched.locator('code')).toHaveText(quoted);
  await expect(viewer.getByRole('button', { name: 'More lines above' })).toBeDisabled();
  await checkPage(page, 'log viewer');
  await page.reload();
  await expect(page.getByTestId('log-lines').locator('.line.hl')).toHaveAttribute('data-line', '2');
  await page.getByRole('button', { name: 'Back to the finding' }).click();

  // The conf dir's files open too (no marked line: the file as the snapshot holds it).
  await detail.getByRole('button', { name: 'Open the whole file' }).first().click();
  await expect(viewer.getByTestId('file-lines')).toContainText('"type": "antrea"');
  await page.getByRole('button', { name: 'Back to the finding' }).click();
  await page.keyboard.press('Escape');

  await goScreen(page, 'overview');
  await page.getByRole('button', { name: 'Raw CRI answers (crictl info)' }).click();
  const entry = page.getByTestId('cri-entry');
  await expect(entry.getByRole('heading', { level: 2 })).toHaveText(
    'npipe:////./pipe/containerd-containerd',
  );
  await expect(entry.getByLabel('Version (crictl version)')).toContainText(
    '"runtimeName": "containerd"',
  );
  await expect(entry.getByLabel('Status, verbose (crictl info)')).toContainText('"conditions"');
  await expect(page).toHaveURL(/view=cri/);
  await checkPage(page, 'CRI viewer');
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByTestId('top-finding')).toBeVisible();
});

test('an address opens the CRI viewer; a file the scan never read is not served', async ({
  page,
}) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  const url = page.url().replace(/#.*$/, '');
  const hash = new URL(page.url()).hash;
  await page.goto(`${url}${hash}${hash.includes('?') ? '&' : '?'}view=cri`);
  await expect(page.getByTestId('cri-entry').first()).toBeVisible();
  // A file the scan never read is not served, whatever the address says.
  await page.goto(`${url}${hash}${hash.includes('?') ? '&' : '?'}view=file&path=%2Fetc%2Fpasswd`);
  await expect(page.getByRole('alert')).toContainText(
    "this file's text is not in the scan's snapshot",
  );
});
