import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../main';
import {
  CACHED_COMMANDS,
  ONE_SHOT_V8_FLAGS,
  MAX_CACHES,
  STALE_AFTER_MS,
  cacheDir,
  cacheFileName,
  cacheMode,
  ownCacheDir,
  readCache,
  writeCache,
} from './code-cache';

const REPO = join(import.meta.dirname, '../../..');
const BIN = join(REPO, 'bin/cni-doctor.cjs');
const DEMO = join(REPO, 'assets/demo/minikube-conflict');

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});
const temp = (): string => (dir = mkdtempSync(join(tmpdir(), 'cnd-code-cache-')));

describe('where the code cache lives', () => {
  it('is the per-user cache directory of each platform', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u')).toBe(
      '/x/cache/cni-doctor',
    );
    expect(cacheDir({}, 'linux', '/home/u')).toBe('/home/u/.cache/cni-doctor');
    // A relative XDG_CACHE_HOME is invalid (XDG Base Directory spec): ignored.
    expect(cacheDir({ XDG_CACHE_HOME: 'rel' }, 'linux', '/home/u')).toBe(
      '/home/u/.cache/cni-doctor',
    );
    expect(cacheDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Caches/cni-doctor');
    expect(cacheDir({}, 'linux', '')).toBeUndefined();
  });

  it('is created private (0700), and only used while it is private and ours', () => {
    const base = temp();
    const d = join(base, 'a', 'cni-doctor');
    expect(ownCacheDir(d)).toBe(d);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    chmodSync(d, 0o777);
    expect(ownCacheDir(d)).toBeUndefined();
    chmodSync(d, 0o700);
    const link = join(base, 'link');
    symlinkSync(d, link);
    expect(ownCacheDir(link)).toBeUndefined();
    writeFileSync(join(base, 'file'), 'x');
    expect(ownCacheDir(join(base, 'file'))).toBeUndefined();
  });

  it('has one file per build, Node version and command; other words share one', () => {
    const id = 'ab'.repeat(32);
    expect(cacheFileName(id, 'scan')).toMatch(
      /^cli-abababababababab-v\d+\.\d+\.\d+_\w+-scan\.v8cache$/,
    );
    expect(cacheFileName(id, '../../etc/passwd')).toMatch(/-other\.v8cache$/);
    expect(cacheFileName(id, undefined)).toMatch(/-other\.v8cache$/);
    // Every command has its own (a list of its own, so nothing on the command line makes files).
    expect([...CACHED_COMMANDS].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  it('has one per way of reading a node for scan, explain and collect; only known flags count', () => {
    const id = 'ab'.repeat(32);
    const name = (...argv: string[]) => cacheFileName(id, argv[0], cacheMode(argv));
    expect(name('scan', '--bundle', 'x.tar.gz')).toMatch(/-scan-bundle\.v8cache$/);
    expect(name('scan', '--json', '--root=/mnt/node')).toMatch(/-scan-root\.v8cache$/);
    expect(name('collect', '--target', 'ssh:n1', '--out', 'b.tgz')).toMatch(
      /-collect-target\.v8cache$/,
    );
    expect(name('scan')).toMatch(/-scan\.v8cache$/);
    expect(name('scan', '--', '--root')).toMatch(/-scan\.v8cache$/);
    expect(name('scan', '--rootless')).toMatch(/-scan\.v8cache$/);
    expect(name('fix', '--root', '/mnt')).toMatch(/-fix\.v8cache$/);
    expect(cacheFileName(id, 'scan', '../x')).toMatch(/-scan\.v8cache$/);
    expect(name('../../etc', '--root', '/')).toMatch(/-other\.v8cache$/);
  });
});

describe('a cache file', () => {
  const payload = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
  const build = (n: string): string => `cli-${n.repeat(16)}-v20.0.0_x64-scan.v8cache`;

  it('reads back what was written, 0600', () => {
    const d = temp();
    writeCache(d, build('a'), payload);
    const f = join(d, build('a'));
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(readCache(f)?.equals(payload)).toBe(true);
  });

  it('is refused when a byte changed, when cut short, or when it is a symlink', () => {
    const d = temp();
    writeCache(d, build('a'), payload);
    const f = join(d, build('a'));
    const good = readFileSync(f);
    const flipped = Buffer.from(good);
    flipped[good.length - 100] = (flipped[good.length - 100] ?? 0) ^ 0x01;
    writeFileSync(f, flipped);
    expect(readCache(f)).toBeUndefined();
    writeFileSync(f, good.subarray(0, good.length - 1));
    expect(readCache(f)).toBeUndefined();
    writeFileSync(f, 'CNDV8C02');
    expect(readCache(f)).toBeUndefined();
    rmSync(f);
    const real = join(d, 'real');
    writeFileSync(real, good);
    symlinkSync(real, f);
    expect(readCache(f)).toBeUndefined();
    expect(readCache(join(d, 'missing'))).toBeUndefined();
  });

  it("keeps other builds' caches, but not ones unused for a month, nor more than 32", () => {
    const d = temp();
    const other = (n: string): string => build(n).replace('-scan.', '-other.');
    writeCache(d, build('a'), payload);
    writeCache(d, other('a'), payload);
    writeCache(d, build('b'), payload);
    expect(readdirSync(d).sort()).toEqual([other('a'), build('a'), build('b')]);
    const old = new Date(Date.now() - STALE_AFTER_MS - 60_000);
    utimesSync(join(d, build('a')), old, old);
    writeCache(d, build('c'), payload);
    expect(readdirSync(d).sort()).toEqual([other('a'), build('b'), build('c')]);
    const hex = (i: number): string => i.toString(16).padStart(16, '0');
    for (let i = 0; i < MAX_CACHES + 5; i++)
      writeCache(d, `cli-${hex(i)}-v20.0.0_x64-scan.v8cache`, payload);
    expect(readdirSync(d)).toHaveLength(MAX_CACHES);
  });

  it('is marked as used when read a day or more after it was written', () => {
    const d = temp();
    writeCache(d, build('a'), payload);
    const f = join(d, build('a'));
    const old = new Date(Date.now() - 3 * 24 * 3600_000);
    utimesSync(f, old, old);
    const readAt = Date.now();
    expect(readCache(f)).toBeDefined();
    // Marked now (not left three days old): its time is at least the moment of the read.
    expect(statSync(f).mtimeMs).toBeGreaterThanOrEqual(Math.floor(readAt / 1000) * 1000);
  });
});

describe('the cni-doctor command with its code cache', () => {
  const run = (cache: string, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BIN, 'scan', '--bundle', DEMO], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cache, ...env },
      timeout: 60_000,
    });

  it('needs the built CLI (npm run build)', () => {
    expect(existsSync(join(REPO, 'dist/cli.cjs')), 'run npm run build first').toBe(true);
  });

  it('writes the cache on the first run and prints the same report with it, or a corrupted one', () => {
    const cache = join(temp(), 'xdg');
    mkdirSync(cache);
    const first = run(cache);
    expect(first.status).toBe(3);
    const files = readdirSync(join(cache, 'cni-doctor'));
    expect(files).toEqual([expect.stringMatching(/^cli-[0-9a-f]{16}-.*-scan-bundle\.v8cache$/)]);
    const f = join(cache, 'cni-doctor', files[0] as string);
    const written = readFileSync(f);
    expect(readCache(f)).toBeDefined();

    const second = run(cache);
    expect([second.status, second.stdout, second.stderr]).toEqual([3, first.stdout, first.stderr]);

    // V8 does not checksum a code cache: a flipped byte would crash the process if it got there.
    const bad = Buffer.from(written);
    for (let at = 200; at < bad.length; at += 997) bad[at] = (bad[at] ?? 0) ^ 0xff;
    writeFileSync(f, bad);
    const third = run(cache);
    expect([third.status, third.stdout, third.stderr]).toEqual([3, first.stdout, first.stderr]);
    expect(readCache(f)).toBeDefined();
  });

  it('loads the lazy parts (tar, zlib, the CRI client) from cached code', () => {
    const base = temp();
    const env = { ...process.env, XDG_CACHE_HOME: join(base, 'xdg') };
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, timeout: 60_000 });
    const root = join(REPO, 'fixtures/linux/healthy-containerd-flannel/files');
    const reports = [1, 2].map((i) => {
      const out = join(base, `node-${i}.tar.gz`);
      expect(cli('collect', '--root', root, '--out', out).status).toBe(0);
      const r = cli('scan', '--bundle', out, '--json');
      expect(r.status, r.stderr).not.toBe(2);
      return (JSON.parse(r.stdout) as { findings: unknown }).findings;
    });
    expect(readdirSync(join(base, 'xdg', 'cni-doctor')).length).toBe(2);
    expect(reports[1]).toEqual(reports[0]);
  });

  it('runs without a cache when told to, or when the directory is not private', () => {
    const cache = join(temp(), 'xdg');
    mkdirSync(cache);
    const off = run(cache, { CNI_DOCTOR_CODE_CACHE: 'off' });
    expect(off.status).toBe(3);
    expect(existsSync(join(cache, 'cni-doctor'))).toBe(false);
    mkdirSync(join(cache, 'cni-doctor'), { mode: 0o777 });
    chmodSync(join(cache, 'cni-doctor'), 0o777);
    const open = run(cache);
    expect([open.status, open.stdout]).toEqual([3, off.stdout]);
    expect(readdirSync(join(cache, 'cni-doctor'))).toEqual([]);
  });
});

describe('V8 flags of a one-shot command', () => {
  const LAUNCH = join(REPO, 'dist/launch.cjs');
  // A bundle that runs a small function 500 times, then says how far V8 got in optimizing it
  // (%GetOptimizationStatus: 16 optimized, 256/512 marked for it, 1024 being optimized).
  const HOT = `function hot(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }
for (let c = 0; c < 500; c++) hot(20);
process.stdout.write(String(%GetOptimizationStatus(hot)));`;
  const TIERING_UP = 16 | 256 | 512 | 1024;
  const status = (args: string[]): number => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', ...args], {
      encoding: 'utf8',
      env: { ...process.env, CNI_DOCTOR_CODE_CACHE: 'off' },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    return Number(r.stdout);
  };
  const launched = (file: string, command: string): number =>
    status([
      '-e',
      `require(${JSON.stringify(LAUNCH)}).runCliBundle(${JSON.stringify(file)}, [${JSON.stringify(command)}])`,
    ]);

  it('set the interrupt budget before the bundle compiles, except for serve', () => {
    expect(ONE_SHOT_V8_FLAGS).toMatch(/^--interrupt-budget=\d+$/);
    const file = join(temp(), 'hot.cjs');
    writeFileSync(file, HOT);
    // Plain Node (and serve, which keeps V8's defaults) has begun optimizing the function; a
    // one-shot command has not, so it compiles less of what it runs only briefly.
    expect(status([file]) & TIERING_UP).not.toBe(0);
    expect(launched(file, 'serve') & TIERING_UP).not.toBe(0);
    expect(launched(file, 'scan') & TIERING_UP).toBe(0);
  });

  it('change after the built-ins every command uses are loaded (their cached code stays valid)', () => {
    const base = temp();
    const list = join(base, 'loaded-before-flags.txt');
    // Notes which built-ins Node had loaded when the launcher changed V8's flags.
    const preload = join(base, 'watch-flags.cjs');
    writeFileSync(
      preload,
      `const v8 = require('node:v8'); const set = v8.setFlagsFromString;
v8.setFlagsFromString = (f) => { require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')); set(f); };\n`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, BIN, 'scan', '--bundle', DEMO], {
      encoding: 'utf8',
      env: { ...process.env, CNI_DOCTOR_CODE_CACHE: 'off' },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(3);
    const loaded = readFileSync(list, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule internal/util/parse_args/parse_args');
    // stdout is a pipe here: process.stdout is a net.Socket.
    expect(loaded).toContain('NativeModule net');
  });

  it('keep the code cache valid: a second run neither refuses nor rewrites it', () => {
    const cache = join(temp(), 'xdg');
    mkdirSync(cache);
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    const scan = () =>
      spawnSync(process.execPath, [BIN, 'scan', '--bundle', DEMO], { env, timeout: 60_000 });
    expect(scan().status).toBe(3);
    const [f] = readdirSync(join(cache, 'cni-doctor')).map((n) => join(cache, 'cni-doctor', n));
    const written = readFileSync(f as string);
    // V8 refuses a cache made under other flags and the launcher then writes a new one. An hour
    // old: a cache read a day or more after its last use would be marked as used.
    const hourAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
    utimesSync(f as string, hourAgo, hourAgo);
    expect(scan().status).toBe(3);
    expect(statSync(f as string).mtimeMs).toBe(hourAgo.getTime());
    expect(readFileSync(f as string).equals(written)).toBe(true);
  });
});
