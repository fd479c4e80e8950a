// Builds the doors: the CLI (and `serve`) as ESM for Node, the Electron main/preload, and the
// renderer (Vite). The engine never imports electron, so the CLI bundle runs on plain Node.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * zod's classic API re-exports every locale (`z.locales`, 400 KB of messages in 40 languages);
 * cni-doctor reports in English only, so the locale index resolves to English alone.
 */
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(args.resolveDir, '../locales/en.js'), namespace: 'zod-en' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// The CLI is split: dist/cli.mjs holds what every command needs; the CRI client (grpc-js,
// protobufjs), the PowerShell session, serve and the repair engine are chunks under
// dist/cli-chunks/ loaded by import() only when a command uses them — start-up compiles less.
rmSync('dist/cli-chunks', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { cli: 'app/cli/entry.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'cli-chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  plugins: [englishOnlyZod],
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
