/**
 * Flow 3: axe on every screen, light and dark (the system setting and the in-app toggle; the
 * dark palette for the colour rules):
 * no serious, critical or moderate violation (moderate: heading-order on the Inventory and
 * page-has-heading-one in the viewers, newcomer review journey 4, are kept clean too).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { openApp, serveUrl } from './app';
import { visitEveryScreen } from './screens';

/**
 * What a colour scheme can change: the palette. Structure, names and roles are the same in
 * both schemes, so the second scheme is checked for these rules only (all rules took ~3 s per
 * screen, and the UI tests' longest spec was this one).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function seriousViolations(page: Page, only?: readonly string[]): Promise<string[]> {
  // Each screen has loaded (its screens are lazy: axe on "Loading…" proves nothing) when its
  // one level-one heading is there.
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  // Only violations are read here: axe then skips gathering the nodes of every rule that passed
  // (its documented option for large pages), ~20% of a light scheme's sweep alone.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  const r = await (
    only
      ? builder.withRules([...only])
      : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
  ).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.impact === 'moderate')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

for (const scheme of ['light', 'dark'] as const) {
  for (const demo of ['minikube-conflict', 'windows-antrea-containerd'] as const) {
    test(`axe: ${demo}, ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openApp(page);
      const found: string[] = [];
      const rules = scheme === 'dark' ? COLOUR_RULES : undefined;
      await visitEveryScreen(page, demo, async (name) => {
        for (const v of await seriousViolations(page, rules)) found.push(`${name}: ${v}`);
      });
      expect(found).toEqual([]);
    });
  }
}

test('axe: the theme toggle (forced dark on a light system) and the no-token page', async ({
  page,
  browser,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page);
  await page.getByRole('button', { name: /^Theme: system/ }).click(); // → light
  await page.getByRole('button', { name: /^Theme: light/ }).click(); // → dark
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // The pinned theme really repaints: the dark palette's background on a light system.
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(21, 24, 28)');
  const found: string[] = [];
  await visitEveryScreen(page, 'minikube-conflict', async (name) => {
    for (const v of await seriousViolations(page, COLOUR_RULES)) found.push(`${name}: ${v}`);
  });
  await page.getByRole('button', { name: /^Theme: dark/ }).click(); // back to system
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(246, 247, 249)');
  expect(found).toEqual([]);

  const context = await browser.newContext();
  const bare = await context.newPage();
  await bare.goto(serveUrl().replace(/#.*$/, ''));
  await expect(bare.getByRole('heading', { name: 'cni-doctor' })).toBeVisible();
  expect(await seriousViolations(bare)).toEqual([]);
  await context.close();
});
