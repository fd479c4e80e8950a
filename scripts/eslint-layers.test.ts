/**
 * The layer fences in eslint.config.js bite: ESLint, with the project's own config, refuses each
 * kind of forbidden import in a small file placed in that layer, and accepts the allowed ones.
 * (The files are linted from memory, so the repository itself holds no violating file.)
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

async function importErrors(filePath: string, specifier: string): Promise<string[]> {
  const code = `import * as m from '${specifier}';\nexport const x = m;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('layer fences (docs/architecture.md)', () => {
  it.each([
    [
      'renderer/src/screens/Probe.tsx',
      '../../../main/engine/scan',
      /never by importing main\/ or app\//,
    ],
    ['renderer/src/lib/probe.ts', '../../../app/shared-server/backend', /DoctorApi/],
    ['renderer/src/lib/probe.ts', 'node:fs', /Node built-ins/],
    ['renderer/src/lib/probe.ts', 'child_process', /Node built-ins/],
    ['shared/model/probe.ts', '../../main/rules/types', /imports none of them/],
    ['shared/probe.ts', 'react', /dependency-free/],
    ['shared/probe.ts', 'node:path', /dependency-free/],
    ['main/engine/probe.ts', '../../app/cli/main', /which door called it/],
    ['main/probes/probe.ts', '../../renderer/src/App', /which door called it/],
    ['main/rules/cni/probe.ts', '../../probes/snapshot', /never read a node/],
    ['main/rules/probe.ts', '../host/host', /never read a node/],
    ['main/rules/cni/probe.ts', '../../repairs/plans', /never read a node/],
    ['main/rules/cni/probe.ts', 'node:fs', /Node built-ins/],
    ['main/host/probe.ts', 'electron', /Only app\/desktop/],
  ])('%s may not import %s', async (file, specifier, why) => {
    const errors = await importErrors(file, specifier);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(why);
  });

  it.each([
    ['renderer/src/lib/probe.ts', '../../../shared/api'],
    ['renderer/src/lib/probe.ts', 'react'],
    ['shared/model/probe.ts', './finding'],
    ['main/rules/cni/probe.ts', '../../conventions/node-paths'],
    ['main/rules/cni/probe.ts', '../../logs/catalog'],
    ['main/probes/probe.ts', '../conventions/cni-files'],
    ['app/cli/commands/probe.ts', '../../../main/engine/scan'],
    ['app/desktop/probe.ts', 'electron'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await importErrors(file, specifier)).toEqual([]);
  });
});
