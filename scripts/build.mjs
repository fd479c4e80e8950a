// Builds the doors: the CLI (and `serve`) as one ESM file for Node, the Electron main/preload,
// and the renderer (Vite). The engine never imports electron, so the CLI bundle runs on plain Node.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
};

await build({
  ...common,
  entryPoints: ['app/cli/entry.ts'],
  outfile: 'dist/cli.mjs',
  format: 'esm',
  // Native / optional modules stay external; grpc-js and protobufjs bundle fine.
  external: ['electron', 'tree-sitter-powershell', 'web-tree-sitter'],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});

if (existsSync('app/desktop/main.ts')) {
  await build({
    ...common,
    entryPoints: ['app/desktop/main.ts'],
    outfile: 'dist/desktop/main.cjs',
    format: 'cjs',
    external: ['electron'],
  });
  await build({
    ...common,
    entryPoints: ['app/desktop/preload.ts'],
    outfile: 'dist/desktop/preload.cjs',
    format: 'cjs',
    external: ['electron'],
  });
}

if (existsSync('renderer/vite.config.ts') && !process.argv.includes('--no-renderer')) {
  const r = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}
