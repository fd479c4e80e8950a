/**
 * Runs the CLI bundle (dist/cli.cjs) with a V8 code cache, so that a second `cni-doctor` run does
 * not parse and compile the same code again (Node 20 has no module.enableCompileCache). A small
 * `scan --bundle` spends more time compiling than scanning; the cache is what keeps start-up near
 * `node -e 0`.
 *
 * The cache is only ever an accelerator: any doubt about it and the CLI runs without it. It lives
 * in a per-user directory this process creates (0700, owned by the user, not a symlink, not group-
 * or world-writable), one file per build × Node version × command (unused for a month: removed),
 * written whole to a temporary
 * file then renamed, and checked by its length and CRC-32 before V8 sees it (V8 release builds do
 * not checksum code caches: a corrupted one crashes the process). `CNI_DOCTOR_CODE_CACHE=off`
 * turns it off. CommonJS on purpose (dist/launch.cjs, bin/cni-doctor.cjs): Node starts a
 * CommonJS script without its ESM loader, and nothing here loads node:crypto.
 *
 * Named imports only: the bundle turns `import * as fs` into a copy of every export of the
 * module, a getter each (fs has about a hundred), on every start.
 */
import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from './crc32';
import { cacheDir, mine, ownCacheDir } from './cache-dir';

export { cacheDir, ownCacheDir };

/**
 * zlib's native CRC-32 (Node 20.15 and later): 0.3 ms for a 1 MiB cache where the JavaScript
 * one takes about 6 ms of a start that has not warmed it up. node:zlib loads the stream modules,
 * which writing the command's output loads anyway.
 */
function checksum(data: Uint8Array): number {
  // Undefined before Node 20.15 (the types say it is always there).
  const native = zlibCrc32 as typeof zlibCrc32 | undefined;
  return native ? native(data) : crc32(data);
}

/**
 * V8 flags for a one-shot command, set before the bundle is compiled.
 *
 * `--interrupt-budget`: how much bytecode a function runs before V8 weighs optimizing it (66 KiB
 * on Node 20). A one-shot command runs hundreds of functions just long enough for TurboFan to
 * compile them on its background threads, then exits: a scan of a node with 2,000 conflists
 * spent about 200 ms of CPU (a third of the run) compiling code it barely used again. With a
 * budget 18 times larger only what runs long (the log search, the config parser) is optimized.
 * CPU user+sys, min of 7 interleaved: that scan --root 659 -> 501 ms, small scan --bundle about
 * 3 ms less. `serve` runs for hours and keeps V8's defaults.
 *
 * The code cache records the flags it was made with and V8 refuses it under others
 * (cachedDataRejected), so every run of a command sets the same flags before compiling.
 */
export const ONE_SHOT_V8_FLAGS = '--interrupt-budget=1200000';
const LONG_RUNNING_COMMANDS: readonly string[] = ['serve'];

/**
 * Loads the built-in modules every command uses before the V8 flags change. V8 refuses any code
 * cache made under other flags, Node's own embedded cache of its modules too: a built-in first
 * loaded after setFlagsFromString is compiled from source. The standard streams (io.ts writes
 * to both: their stream classes) and util.parseArgs (every command's options) come first.
 */
function loadEveryCommandsBuiltins(): void {
  void process.stdout;
  void process.stderr;
  void parseArgs;
}

/**
 * What a command that reads a node (`--target`, or this machine's) loads besides: the CRI client's (grpc-js:
 * http2, tls, dns, crypto), the relay's local socket (net's listen loads cluster), and the
 * commands' own. Compiled from source after the flags change, these 57 modules were 13 ms of a
 * remote scan's CPU (`realm` in its profile: 22 -> 9 ms); loaded first, Node's cache serves them.
 * The remote lab checks that such a scan loads none of them after the change.
 */
export const NODE_COMMAND_BUILTINS: readonly string[] = [
  'node:crypto',
  'node:tls',
  'node:http',
  'node:http2',
  'node:dns',
  'node:assert',
  'node:fs/promises',
  'node:readline',
  'node:cluster',
];

/** What a folder or this machine's node is read with: fs/promises (and readline), performance. */
const LOCAL_READ_BUILTINS: readonly string[] = ['node:fs/promises', 'node:perf_hooks'];
/** collect's besides: the bundle's digests, and the worker that compresses the log tails. */
const COLLECT_BUILTINS: readonly string[] = ['node:crypto', 'node:worker_threads'];

/**
 * The built-ins a one-shot command line will load, to load before the flags change. Only the
 * commands that read a node have any: `scan`/`collect` of a bundle load nothing more, and a
 * command that does not need one of these would pay for it (http2 alone is ~7 ms of CPU).
 * late-builtins.test.ts runs each shape and checks that nothing is left to compile from source.
 */
export function builtinsFor(argv: readonly string[]): readonly string[] {
  const [command] = argv;
  if (command !== 'scan' && command !== 'collect') return [];
  const value = (flag: string): string | undefined => {
    const i = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    if (i < 0) return undefined;
    const a = argv[i] as string;
    return a === flag ? (argv[i + 1] ?? '') : a.slice(flag.length + 1);
  };
  if (value('--bundle') !== undefined) return [];
  const out = [...LOCAL_READ_BUILTINS];
  if (command === 'collect') out.push(...COLLECT_BUILTINS);
  // A node, not a folder: this machine's own (no --root, or /), or one reached through a transport.
  const root = value('--root');
  if (value('--target') !== undefined || root === undefined || root === '/')
    out.push(...NODE_COMMAND_BUILTINS);
  return out;
}

/** The first line the build writes into dist/cli.cjs: its content hash. */
const BUILD_LINE = /^\/\/ cni-doctor build ([0-9a-f]{16,64})\n/;
/**
 * The build's second line (scripts/build.mjs writes the same text): from it on, dist/cli.cjs is
 * one expression whose value is the bundle as a function of (exports, require, module,
 * __filename, __dirname), so the file's text is compiled as it is read. Wrapping it here made V8
 * copy the whole 1.7 MB at every start (~1.5 ms of CPU).
 */
export const BUNDLE_HEAD =
  '(function (bundle) { return typeof module === "object" && module !== null && module.exports === exports ? bundle.call(exports, exports, require, module, __filename, __dirname) : bundle; })(function (exports, require, module, __filename, __dirname) {';
const MAGIC = Buffer.from('CNDV8C02');
const DAY_MS = 24 * 60 * 60 * 1000;
/** MAGIC, payload length (uint32 LE), CRC-32 of the payload (uint32 LE). */
const HEADER_BYTES = MAGIC.length + 8;
/** Far above a real cache (about 1 MiB): a file larger than this is not ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The commands with a cache of their own (each compiles different code); anything else shares
 * one. A fixed list, so that arbitrary words on the command line cannot create files.
 */
export const CACHED_COMMANDS = [
  'scan',
  'collect',
  'compare',
  'fix',
  'undo',
  'history',
  'rules',
  'serve',
  'targets',
  'cluster',
  'daemonset',
  'node-report',
  'explain',
] as const;

/**
 * The commands that read a node in different ways, and the flags that choose the way: a scan of
 * a bundle and a scan under --root run different code, and a cache made by one left the other
 * compiling its own parts on every run (a small scan --bundle after a --root scan made the cache:
 * ~4 ms more CPU).
 */
const MODED_COMMANDS: readonly string[] = ['scan', 'explain', 'collect'];
const MODES = ['bundle', 'root', 'target'] as const;

/** `bundle`, `root` or `target` when the command line names one of those flags (first wins). */
export function cacheMode(argv: readonly string[]): string | undefined {
  if (!MODED_COMMANDS.includes(argv[0] ?? '')) return undefined;
  for (const a of argv.slice(1)) {
    if (a === '--') break;
    const mode = MODES.find((m) => a === `--${m}` || a.startsWith(`--${m}=`));
    if (mode) return mode;
  }
  return undefined;
}

export function cacheFileName(buildId: string, command: string | undefined, mode?: string): string {
  const known = (CACHED_COMMANDS as readonly string[]).includes(command ?? '');
  const cmd = known
    ? `${command as string}${mode && (MODES as readonly string[]).includes(mode) ? `-${mode}` : ''}`
    : 'other';
  const runtime = `${process.version}_${process.arch}`.replace(/[^A-Za-z0-9._]/g, '_');
  return `cli-${buildId.slice(0, 16)}-${runtime}-${cmd}.v8cache`;
}

/** The cache's payload if the file is ours, whole and unaltered; otherwise undefined. */
export function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    // O_NOFOLLOW: a symlink planted in place of the cache is not followed (ELOOP).
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_CACHE_BYTES || st.size <= HEADER_BYTES) return undefined;
    if (!mine(st)) return undefined;
    // Not zero-filled first: every byte is read into it, or it is thrown away.
    const buf = Buffer.allocUnsafeSlow(st.size);
    if (readSync(fd, buf, 0, st.size, 0) !== st.size) return undefined;
    if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const payload = buf.subarray(HEADER_BYTES);
    if (buf.readUInt32LE(MAGIC.length) !== payload.length) return undefined;
    if (checksum(payload) !== buf.readUInt32LE(MAGIC.length + 4)) return undefined;
    // In use: its age is counted from its last use, at most a day off (one write a day).
    if (Date.now() - st.mtimeMs > DAY_MS) {
      try {
        futimesSync(fd, st.atime, new Date());
      } catch {
        // a read-only cache is still a good one
      }
    }
    return payload;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Caches unused this long are removed when a cache is written. */
export const STALE_AFTER_MS = 30 * DAY_MS;
/** At most this many caches are kept (several checkouts or versions side by side). */
export const MAX_CACHES = 32;

/**
 * Writes the cache whole (temporary file, then rename), then removes caches unused for a month
 * and the oldest beyond MAX_CACHES. Other builds' caches stay: two checkouts (or versions) used
 * in turn must not keep destroying each other's.
 */
export function writeCache(dir: string, name: string, payload: Buffer, now = Date.now()): void {
  const tmp = join(dir, `.${name}.${process.pid}.tmp`);
  try {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(payload.length, 0);
    head.writeUInt32LE(checksum(payload), 4);
    writeFileSync(tmp, Buffer.concat([MAGIC, head, payload]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, join(dir, name));
    const caches = readdirSync(dir)
      .filter((f) => /^cli-[0-9a-f]{16}-.*\.v8cache$/.test(f))
      .map((f) => ({ f, mtime: lstatSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    caches.forEach(({ f, mtime }, i) => {
      if (f !== name && (i >= MAX_CACHES || now - mtime > STALE_AFTER_MS))
        rmSync(join(dir, f), { force: true });
    });
  } catch {
    // A cache that cannot be written is a slower next start, never a failed command.
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing left to do
    }
  }
}

/**
 * Runs the CommonJS bundle `file` in this process, as Node would run `node file`, with the code
 * cache when there is a safe one, and leaves a fresh cache behind when this run did its job.
 * (A node container's agent is started before this, by bin/cni-doctor.cjs: early-agent.ts.)
 */
export function runCliBundle(
  file: string,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (!LONG_RUNNING_COMMANDS.includes(argv[0] ?? '')) {
    loadEveryCommandsBuiltins();
    for (const m of builtinsFor(argv)) createRequire(file)(m);
    setFlagsFromString(ONE_SHOT_V8_FLAGS);
  }
  // latin1: the build makes the bundle ASCII, and a one-byte string is quicker to read and hash.
  const source = readFileSync(file, 'latin1');
  const buildLine = BUILD_LINE.exec(source);
  const buildId = buildLine?.[1];
  const off = env.CNI_DOCTOR_CODE_CACHE === 'off' || buildId === undefined;
  const where = off ? undefined : cacheDir(env);
  const dir = where && ownCacheDir(where);
  const name = dir && buildId ? cacheFileName(buildId, argv[0], cacheMode(argv)) : undefined;
  const cached = dir && name ? readCache(join(dir, name)) : undefined;

  // Any other CommonJS file is wrapped here, as Node would.
  const wrapped = buildLine !== null && source.startsWith(BUNDLE_HEAD, buildLine[0].length);
  const script = new Script(
    wrapped ? source : `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    {
      filename: file,
      ...(cached && { cachedData: cached }),
    },
  );
  if (dir && name && (!cached || script.cachedDataRejected))
    // At exit the functions this run compiled are in the script: the next run skips them all.
    // Only after a run that did its job (exit 0, or 3 for findings): a usage error compiles little.
    process.once('exit', (code) => {
      if (code === 0 || code === 3) writeCache(dir, name, script.createCachedData());
    });
  const fn = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const mod = { exports: {} };
  fn.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
}
