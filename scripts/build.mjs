// Builds the doors: the CLI (and `serve`) as ESM for Node, the Electron main/preload, and the
// renderer (Vite). The engine never imports electron, so the CLI bundle runs on plain Node.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
    b.onResolve({ filter: /\/locales\/index\.c?js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? {
            path: path.join(args.resolveDir, '../locales/en' + path.extname(args.path)),
            namespace: 'zod-en',
          }
        : undefined,
    );
    b.onLoad({ filter: /\.js$/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
    // zod's CommonJS build: en.cjs ends in `module.exports = exports.default`.
    b.onLoad({ filter: /\.cjs$/, namespace: 'zod-en' }, (args) => ({
      contents:
        'Object.defineProperty(exports, "__esModule", { value: true });\n' +
        `exports.en = require(${JSON.stringify(args.path)});`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * The CLI takes zod's CommonJS build (index.cjs), not its ES modules. Only `serve` validates with
 * zod (app/shared-server/validate.ts), but esbuild hoists every function of an ES module to the
 * top of the bundle: zod's were 1,454 of the bundle's 3,227 top-level functions, plus 1,057
 * export getters, which every command paid for at start-up (V8 deserializes each function's
 * record from the code cache and creates each closure before the first line runs). A CommonJS
 * module stays inside its own wrapper function, untouched until `serve` requires it.
 */
const zodCommonJs = {
  name: 'zod-commonjs',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, (args) =>
      args.kind === 'require-call'
        ? undefined
        : b.resolve('zod', { kind: 'require-call', resolveDir: args.resolveDir }),
    );
  },
};

// The CLI is one CommonJS file, dist/cli.cjs, that bin/cni-doctor.cjs runs through
// dist/launch.cjs (app/cli/launch/code-cache.ts) with a V8 code cache: from the second run on,
// nothing is parsed or compiled again, and the CRI client (grpc-js, protobufjs), the PowerShell
// session, serve and the repair engine stay lazy (esbuild runs a module's body at its first
// import()). One file, because the ESM loader's cost per chunk outweighed what splitting saved.
rmSync('dist/cli-chunks', { recursive: true, force: true });
rmSync('dist/cli.mjs', { force: true });
rmSync('dist/cli.mjs.map', { force: true });
/**
 * Every output is written beside its place and renamed into it. The test run builds again while
 * other lanes start the CLI (fixtures/hostile.test.ts rebuilds dist/cli.cjs as the lab and the UI
 * specs spawn it): a file written in place can be read half-written; a rename is all or nothing.
 */
function writeAtomic(file, data) {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** esbuild, with its outputs written by writeAtomic. */
async function buildAtomic(options) {
  const result = await build({ ...options, write: false });
  for (const out of result.outputFiles) writeAtomic(out.path, out.contents);
  return result;
}

const BUILD_PLACEHOLDER = '0'.repeat(64);
/**
 * dist/cli.cjs is one expression whose value is the bundle as a function of CommonJS's five
 * parameters: the launcher compiles the file's text as it is (app/cli/launch/code-cache.ts,
 * BUNDLE_HEAD, which must equal this), where wrapping 1.7 MB in a function at every start made
 * V8 copy it whole (~1.5 ms of CPU). Run directly (`node dist/cli.cjs`, as the DaemonSet does),
 * the same expression finds Node's own module wrapper and calls the bundle at once.
 */
const BUNDLE_HEAD =
  '(function (bundle) { return typeof module === "object" && module !== null && module.exports === exports ? bundle.call(exports, exports, require, module, __filename, __dirname) : bundle; })(function (exports, require, module, __filename, __dirname) {';
const cli = await build({
  ...common,
  entryPoints: { cli: 'app/cli/entry.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // import() becomes require() inside a promise: the bundle runs in a vm.Script with a code cache,
  // and an import() in a function from a code cache has no loader to call (Node 20) — and every
  // module the CLI imports lazily is in the bundle or a Node built-in anyway.
  supported: { 'dynamic-import': false },
  // Whole minification (names too): a smaller file to read and a smaller code cache to load at
  // every start (1.26 -> 1.15 MB). Nothing in the CLI prints a function's or a class's name.
  minify: true,
  write: false,
  plugins: [zodCommonJs, englishOnlyZod],
  // Native / optional modules stay external; grpc-js and protobufjs bundle fine.
  external: ['electron', 'tree-sitter-powershell', 'web-tree-sitter'],
  // The launcher reads the build's identity from this first line (same length once filled in,
  // so the source map stays right).
  banner: { js: `// cni-doctor build ${BUILD_PLACEHOLDER}\n${BUNDLE_HEAD}` },
  footer: { js: '})' },
});
for (const out of cli.outputFiles) {
  let text = out.text;
  if (out.path.endsWith('.cjs')) {
    // esbuild writes ASCII (charset ascii) except inside comments it keeps; make those ASCII too,
    // so the launcher may read the file as one-byte latin1 — and refuse anything else.
    text = text.replace(/\P{ASCII}/gu, (c, at) => {
      const line = text.slice(text.lastIndexOf('\n', at) + 1, at);
      if (!/^\s*(\*|\/\/|\/\*)/.test(line))
        throw new Error(`dist/cli.cjs: non-ASCII character outside a comment: ${line.slice(-80)}`);
      return '?'.repeat(c.length);
    });
    const id = createHash('sha256').update(text).digest('hex');
    text = text.replace(BUILD_PLACEHOLDER, id);
  }
  writeAtomic(out.path, text);
}
// collect's log-tail worker (main/bundle/tail/): a file of its own, loaded by a worker thread.
await buildAtomic({
  ...common,
  entryPoints: { 'tail-worker': 'main/bundle/tail/tail-worker.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  minifyWhitespace: true,
  sourcemap: false,
});
rmSync('dist/launch.mjs', { force: true });
await buildAtomic({
  ...common,
  entryPoints: { launch: 'app/cli/launch/code-cache.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  sourcemap: false,
});
// The node container agent's early start (main/remote/early-agent.ts): read by the launcher only
// for `scan --target container:…`, so every other start keeps a 10 KB launcher.
await buildAtomic({
  ...common,
  entryPoints: { 'early-agent': 'main/remote/early-agent.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  sourcemap: false,
});

if (existsSync('app/desktop/main.ts')) {
  await buildAtomic({
    ...common,
    entryPoints: ['app/desktop/main.ts'],
    outfile: 'dist/desktop/main.cjs',
    format: 'cjs',
    external: ['electron'],
  });
  await buildAtomic({
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
