/**
 * Playwright: the UI in headless Debian Chromium against `cni-doctor serve` (e2e/ui), and the
 * desktop window through Playwright's _electron when an Electron binary exists (e2e/electron).
 * Never `npx playwright install`: the browser is /usr/bin/chromium (docs/knowledge/lab.md#browsers-and-electron-in-ci).
 * The real-containerd lab under e2e/lab is vitest's, not ours.
 */
import { defineConfig } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const UI_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ui');

/**
 * The UI specs that start a real-daemon lab (containerd, a podman node container): those that
 * import from e2e/lab. `npm test` runs them (project `ui-lab`) after the vitest lab, never beside
 * it (scripts/test-all.mjs says why), and the other UI specs (project `ui`) beside the lab.
 */
export const LAB_UI_SPECS = readdirSync(UI_DIR)
  .filter((f) => f.endsWith('.spec.ts'))
  .filter((f) => /from '\.\.\/lab\//.test(readFileSync(path.join(UI_DIR, f), 'utf8')))
  .map((f) => `ui/${f}`);

/**
 * The specs that sweep every screen (axe in both schemes, the layout at five window sizes, the
 * screenshots): ~200 of the ~400 s the UI specs take one after another. `npm test` runs them as
 * a project of their own (`ui-sweep`), in a second Playwright process with its own serve, beside
 * the other UI specs: the UI step was the run's longest lane and mostly waits (~140 s of CPU in
 * ~440 s). Each process still runs its specs one at a time against its own serve, so no spec
 * shares a serve with a spec it did not share one with before.
 */
export const SWEEP_UI_SPECS = ['ui/a11y.spec.ts', 'ui/layout.spec.ts', 'ui/screenshots.spec.ts'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testIgnore: ['lab/**'],
  outputDir: 'out/test-results',
  globalSetup: './ui/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // Ceilings far above the normal case (a screen answers in well under a second, a scan in a
  // few): on a loaded 2-core CI machine a wait only gets longer, it does not go red. A test that
  // visits every screen takes ~40 s alone and passed 120 s at load 30; a node's first scan in its
  // own serve passed 30 s there.
  timeout: 300_000,
  expect: { timeout: 60_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  projects: [
    { name: 'ui', testMatch: 'ui/**/*.spec.ts', testIgnore: [...LAB_UI_SPECS, ...SWEEP_UI_SPECS] },
    { name: 'ui-sweep', testMatch: SWEEP_UI_SPECS },
    { name: 'ui-lab', testMatch: LAB_UI_SPECS },
    { name: 'electron', testMatch: 'electron/**/*.spec.ts' },
  ],
});
