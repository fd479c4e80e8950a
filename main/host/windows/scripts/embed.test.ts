/**
 * collect.ps1 is the source; collect-ps1.ts carries the same text as a string so that bundled
 * builds (esbuild → dist/cli.mjs, Electron's asar) need no loose script file next to them.
 * This test keeps the two identical; UPDATE_FIXTURES=1 rewrites the embedded copy.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLLECT_PS1 } from './collect-ps1';

const SOURCE = new URL('./collect.ps1', import.meta.url);
const EMBEDDED = new URL('./collect-ps1.ts', import.meta.url);

function embeddedModule(text: string): string {
  return [
    '// Generated from collect.ps1 by scripts/embed.test.ts (UPDATE_FIXTURES=1). Do not edit: edit collect.ps1.',
    `export const COLLECT_PS1 = ${JSON.stringify(text)};`,
    '',
  ].join('\n');
}

describe('embedded collect.ps1', () => {
  it('is identical to scripts/collect.ps1', () => {
    const text = readFileSync(SOURCE, 'utf8');
    if (process.env.UPDATE_FIXTURES === '1') writeFileSync(EMBEDDED, embeddedModule(text));
    expect(COLLECT_PS1, 'run with UPDATE_FIXTURES=1 to refresh collect-ps1.ts').toBe(text);
  });
});
