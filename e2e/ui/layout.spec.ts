/**
 * The layout holds at ordinary window sizes (light; dark at 1280×800): nothing overflows the window
 * horizontally, no text is cut without a tooltip, and the Findings list keeps at least 320 px
 * beside an open detail. Every screen is checked for what it must show (expect-screen.ts) and
 * saved as a screenshot (e2e/out/screens/<size>-<scheme>[-minikube]-<screen>.png) so a person can
 * look at every size. The README's picture (assets/screenshot-overview.png) is the minikube
 * Overview at 1280×800, light, written here after checking it shows what the README says.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goScreen, openApp } from './app';
import { expectScreen } from './expect-screen';
import { visitEveryScreen } from './screens';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'e2e', 'out', 'screens');
const README_SHOT = path.join(ROOT, 'assets', 'screenshot-overview.png');
/** The three sizes every screen is photographed at (the fourth is a zoom check). */
const PHOTOGRAPHED = new Set(['900x700', '1280x800', '1920x1080']);
const SIZES = [
  { width: 900, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  // 1280×800 at 200 % zoom lays out like a 640×400 window.
  { width: 640, height: 400 },
] as const;

/** Runs in the page: every way the layout can fail, as readable lines. */
function layoutProblems(): string[] {
  const vw = document.documentElement.clientWidth;
  const out: string[] = [];
  const name = (el: Element): string =>
    `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${
      el.classList.length ? `.${[...el.classList].join('.')}` : ''
    }> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
  const inHorizontalScroller = (el: Element): boolean => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > vw + 1)
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.sr-only, .skip')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || inHorizontalScroller(el)) continue;
    if (r.right > vw + 1) out.push(`${name(el)} ends at ${Math.round(r.right)} > ${vw}`);
    const clips = cs.overflowX === 'hidden' || cs.textOverflow === 'ellipsis';
    const html = el as HTMLElement;
    if (clips && html.scrollWidth > html.clientWidth + 1 && html.textContent?.trim()) {
      if (!el.closest('[title]')) out.push(`${name(el)} is cut without a tooltip`);
    }
  }
  // A placeholder is text too: measure it in the field's own font.
  const ctx = document.createElement('canvas').getContext('2d');
  for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
    if (!ctx || input.value || input.getBoundingClientRect().width === 0) continue;
    const cs = getComputedStyle(input);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (ctx.measureText(input.placeholder).width > room + 1 && !input.title)
      out.push(`${name(input)} placeholder "${input.placeholder}" is cut`);
  }
  return out;
}

async function check(page: Page, where: string, shot: string): Promise<string[]> {
  await page.screenshot({ path: path.join(OUT, `${shot}.png`) });
  return (await page.evaluate(layoutProblems)).map((p) => `${where}: ${p}`);
}

/**
 * The README says: "Overview of a node whose containerd uses a default config instead of the
 * cluster's CNI". The file is rewritten only when the picture changed, so a run that draws the
 * same pixels leaves the work tree clean.
 */
async function writeReadmeShot(page: Page): Promise<void> {
  await expect(page.getByTestId('top-finding')).toContainText(
    'containerd uses the default 10-containerd-net.conflist instead of kindnet',
  );
  await expect(page.locator('.facts').first()).toContainText('10-containerd-net.conflist');
  await expect(page.getByTestId('stale-banner')).toHaveCount(0);
  const png = await page.screenshot();
  if (!existsSync(README_SHOT) || !readFileSync(README_SHOT).equals(png))
    writeFileSync(README_SHOT, png);
}

// A scheme changes colours, not sizes: every size in light, and dark at one size (its colours
// are axe's in a11y.spec.ts), so each layout check runs once per size and not twice.
const RUNS = [
  ...SIZES.map((size) => ({ size, scheme: 'light' as const })),
  { size: SIZES[1], scheme: 'dark' as const },
];

for (const { size, scheme } of RUNS) {
  test(`layout at ${size.width}×${size.height}, ${scheme}`, async ({ page }) => {
    mkdirSync(OUT, { recursive: true });
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await openApp(page);
    const tag = `${size.width}x${size.height}-${scheme}`;
    const problems: string[] = [];
    await visitEveryScreen(page, 'windows-antrea-containerd', async (screen) => {
      await expectScreen(page, screen, /netNS|Antrea/);
      problems.push(...(await check(page, screen, `${tag}-${screen}`)));
    });
    if (PHOTOGRAPHED.has(`${size.width}x${size.height}`))
      await visitEveryScreen(page, 'minikube-conflict', async (screen) => {
        await expectScreen(page, screen, /10-containerd-net\.conflist/);
        problems.push(...(await check(page, `minikube ${screen}`, `${tag}-minikube-${screen}`)));
        if (screen === 'overview' && size.width === 1280 && scheme === 'light')
          await writeReadmeShot(page);
      });

    // The Findings list beside an open detail keeps its width and its titles readable.
    await goScreen(page, 'findings');
    await page.locator('.finding-open').first().click();
    await expect(page.getByTestId('finding-detail')).toBeVisible();
    problems.push(...(await check(page, 'findings + detail', `${tag}-findings-detail`)));
    const list = await page.locator('.finding-list').first().boundingBox();
    const detail = await page.getByTestId('finding-detail').boundingBox();
    expect(list, 'the findings list is on screen').not.toBeNull();
    if (size.width > 760) {
      expect(list!.width).toBeGreaterThanOrEqual(320);
      // The detail sits beside the list, not over it.
      expect(list!.x + list!.width).toBeLessThanOrEqual(detail!.x + 1);
      const title = await page.locator('.finding-title').first().boundingBox();
      expect(title!.width, 'a title gets more than a word per line').toBeGreaterThan(160);
    }
    expect(problems).toEqual([]);
  });
}
