/**
 * The shape of the CLI bundle that start-up depends on (scripts/build.mjs), read from the built
 * dist/cli.cjs and its map (`npm run build` first): which of zod's files went in, and the form
 * the launcher compiles.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLE_HEAD } from '../app/cli/launch/code-cache';

const DEMO = fileURLToPath(new URL('../assets/demo/minikube-conflict', import.meta.url));
const MAP = new URL('../dist/cli.cjs.map', import.meta.url);

function zodSources(): string[] {
  expect(existsSync(MAP), 'run npm run build first').toBe(true);
  const { sources } = JSON.parse(readFileSync(MAP, 'utf8')) as { sources: string[] };
  return sources.filter((s) => s.includes('node_modules/zod/'));
}

describe('the CLI bundle', () => {
  it("takes zod's CommonJS files, which stay in their wrappers until serve requires them", () => {
    // zod's ES modules put 1,454 functions at the bundle's top level, created on every start.
    const zod = zodSources();
    expect(zod.length).toBeGreaterThan(0);
    expect(zod.filter((s) => !s.endsWith('.cjs'))).toEqual([]);
  });

  it("holds zod's English messages only", () => {
    const locales = zodSources().filter((s) => s.includes('/locales/'));
    expect(locales.length).toBeGreaterThan(0);
    expect(locales.filter((s) => !s.endsWith('/locales/en.cjs'))).toEqual([]);
  });
});

describe('dist/cli.cjs', () => {
  const CLI = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));

  it('is the expression the launcher compiles as it reads it (BUNDLE_HEAD after the build line)', () => {
    const [first, second] = readFileSync(CLI, 'latin1').split('\n', 2);
    expect(first).toMatch(/^\/\/ cni-doctor build [0-9a-f]{64}$/);
    expect(second).toBe(BUNDLE_HEAD);
  });

  it('still runs on its own, as the DaemonSet runs it (node dist/cli.cjs)', () => {
    const r = spawnSync(process.execPath, [CLI, 'scan', '--bundle', DEMO, '--json'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(3);
    expect((JSON.parse(r.stdout) as { node: { hostname: string } }).node.hostname).toBe('minikube');
  });
});
