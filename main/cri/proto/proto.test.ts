import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { criRuntimeService } from './load';
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

  it.each(CRI_PACKAGES)('%s RuntimeService: every method, unary, at its gRPC path', (pkg) => {
    const service = criRuntimeService(pkg);
    expect(Object.keys(service).sort()).toEqual([...methods].sort());
    for (const m of methods) {
      expect(service[m]).toMatchObject({
        path: `/${pkg}.RuntimeService/${m}`,
        requestStream: false,
        responseStream: false,
        // grpc-js's Server also finds a handler under this name (proto-loader's camelCase).
        originalName: m.charAt(0).toLowerCase() + m.slice(1),
      });
    }
    // Round trip of a message with int64 and enum fields, through the loader options we rely on.
    const list = service.ListPodSandbox;
    const wire = list?.responseSerialize({
      items: [{ id: 'x', state: 'SANDBOX_NOTREADY', createdAt: '1764666000123456789' }],
    });
    expect(wire && list?.responseDeserialize(wire)).toMatchObject({
      items: [{ id: 'x', state: 'SANDBOX_NOTREADY', createdAt: '1764666000123456789', labels: {} }],
    });
  });

  it('builds when bundled by esbuild into one .mjs with no .proto beside it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cri-bundle-'));
    try {
      const entry = join(out, 'entry.mjs');
      await build({
        stdin: {
          contents: `import { criRuntimeService } from ${JSON.stringify(join(here, 'load.ts'))};
                     const version = criRuntimeService('runtime.v1').Version;
                     console.log(JSON.stringify({ path: version.path, wire: version.requestSerialize({ version: '0.1.0' }).toString('hex') }));`,
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
        path: '/runtime.v1.RuntimeService/Version',
        wire: '0a05302e312e30',
      });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
