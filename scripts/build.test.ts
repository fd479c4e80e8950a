/**
 * The shape of the CLI bundle that start-up depends on (scripts/build.mjs), read from the built
 * dist/cli.cjs.map (`npm run build` first): which of zod's files went in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

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
