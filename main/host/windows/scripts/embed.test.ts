/**
 * The .ps1 files are the source; collect-ps1.ts and repair-step-ps1.ts carry the same texts as
 * strings so that bundled builds (esbuild → dist/cli.cjs, Electron's asar) need no loose script
 * file next to them. This test keeps each pair identical; UPDATE_FIXTURES=1 rewrites the
 * embedded copies.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLLECT_PS1 } from './collect-ps1';
import { REPAIR_STEP_PS1 } from './repair-step-ps1';

function embeddedModule(source: string, name: string, text: string): string {
  return [
    `// Generated from ${source} by scripts/embed.test.ts (UPDATE_FIXTURES=1). Do not edit: edit ${source}.`,
    `export const ${name} = ${JSON.stringify(text)};`,
    '',
  ].join('\n');
}

const PAIRS: [source: string, module: string, name: string, embedded: string][] = [
  ['collect.ps1', 'collect-ps1.ts', 'COLLECT_PS1', COLLECT_PS1],
  ['repair-step.ps1', 'repair-step-ps1.ts', 'REPAIR_STEP_PS1', REPAIR_STEP_PS1],
];

describe('embedded PowerShell scripts', () => {
  it.each(PAIRS)('%s is identical to its embedded copy %s', (source, module, name, embedded) => {
    const text = readFileSync(new URL(`./${source}`, import.meta.url), 'utf8');
    if (process.env.UPDATE_FIXTURES === '1')
      writeFileSync(new URL(`./${module}`, import.meta.url), embeddedModule(source, name, text));
    expect(embedded, `run with UPDATE_FIXTURES=1 to refresh ${module}`).toBe(text);
  });
});
