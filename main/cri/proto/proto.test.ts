import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { loadCriDefinitions, loadFrom } from './load';
import { CRI_PACKAGES, criProtoFileName, criProtoText } from './proto-text';

const here = fileURLToPath(new URL('.', import.meta.url));
const methods = [
  'Version',
  'Status',
  'ListPodSandbox',
  'PodSandboxStatus',
  'RunPodSandbox',
  'StopPodSandbox',
  'RemovePodSandbox',
];

describe('CRI proto', () => {
  it.each(CRI_PACKAGES)('%s .proto file is byte-identical to the embedded text', (pkg) => {
    expect(readFileSync(join(here, criProtoFileName(pkg)), 'utf8')).toBe(criProtoText(pkg));
  });

  it('loads from the files next to the module when unbundled', () => {
    expect(loadCriDefinitions().source).toBe('files');
  });

  it.each(['files', 'embedded'] as const)(
    '%s source exposes every RuntimeService method of both packages',
    (source) => {
      const defs = loadFrom(source);
      expect(
        Object.keys(defs.runtimeService['runtime.v1'])
          .filter((m) => methods.includes(m))
          .sort(),
      ).toEqual([...methods].sort());
      expect(defs.runtimeService['runtime.v1alpha2'].Status?.path).toBe(
        '/runtime.v1alpha2.RuntimeService/Status',
      );
      // Round trip of a message with int64 and enum fields, through the loader options we rely on.
      const list = defs.runtimeService['runtime.v1'].ListPodSandbox;
      const wire = list?.responseSerialize({
        items: [{ id: 'x', state: 'SANDBOX_NOTREADY', createdAt: '1764666000123456789' }],
      });
      expect(wire && list?.responseDeserialize(wire)).toMatchObject({
        items: [
          { id: 'x', state: 'SANDBOX_NOTREADY', createdAt: '1764666000123456789', labels: {} },
        ],
      });
    },
  );

  it('still loads when bundled by esbuild into one .mjs with no .proto beside it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cri-bundle-'));
    try {
      const entry = join(out, 'entry.mjs');
      await build({
        stdin: {
          contents: `import { loadCriDefinitions } from ${JSON.stringify(join(here, 'load.ts'))};
                     const d = loadCriDefinitions();
                     console.log(JSON.stringify({ source: d.source, path: d.runtimeService['runtime.v1'].Version.path }));`,
          resolveDir: here,
          loader: 'ts',
        },
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: entry,
        // Same trick a Node ESM bundle needs for CJS deps (protobufjs uses require).
        banner: {
          js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        },
        logLevel: 'silent',
      });
      const printed = execFileSync(process.execPath, [entry], { encoding: 'utf8' });
      expect(JSON.parse(printed)).toEqual({
        source: 'embedded',
        path: '/runtime.v1.RuntimeService/Version',
      });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
