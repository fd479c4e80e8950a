import {
  promises as fsp,
  mkdtempSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResolveError, RootResolver, resolveUnderRoot } from './rooted-fs';

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'rooted-fs-'));
  const at = (rel: string): string => path.join(root, rel);
  mkdirSync(at('etc/cni/net.d'), { recursive: true });
  mkdirSync(at('real/conf'), { recursive: true });
  writeFileSync(at('etc/cni/net.d/10-a.conflist'), '{}');
  writeFileSync(at('real/conf/b.conf'), '{}');
  writeFileSync(at('etc/passwd-on-node'), 'node');
  // Absolute targets mean the node's /, never this machine's.
  symlinkSync('/real/conf', at('etc/cni/linked'));
  symlinkSync('/etc/passwd-on-node', at('etc/cni/net.d/20-abs.conf'));
  // `..` climbing past the root stays at the root.
  symlinkSync('../../../../../../etc/cni/net.d', at('etc/cni/climb'));
  symlinkSync('../../../../../../../etc/passwd', at('etc/cni/net.d/30-escape.conf'));
  // Loops and chains.
  symlinkSync('loop-b', at('etc/cni/loop-a'));
  symlinkSync('loop-a', at('etc/cni/loop-b'));
  symlinkSync('/etc/cni/loop-a', at('etc/cni/net.d/40-loop.conf'));
  symlinkSync('net.d/10-a.conflist', at('etc/cni/chain'));
  // A file used as a directory, and a link to nothing.
  symlinkSync('/nowhere/at/all', at('etc/cni/dangling'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const PATHS = [
  '/etc/cni/net.d/10-a.conflist',
  '/etc/cni/net.d/20-abs.conf',
  '/etc/cni/net.d/30-escape.conf',
  '/etc/cni/net.d/40-loop.conf',
  '/etc/cni/linked/b.conf',
  '/etc/cni/linked',
  '/etc/cni/climb/10-a.conflist',
  '/etc/cni/climb/../net.d/20-abs.conf',
  '/etc/cni/loop-a/x',
  '/etc/cni/chain',
  '/etc/cni/dangling',
  '/etc/cni/dangling/more',
  '/etc/cni/net.d/10-a.conflist/not-a-dir',
  '/missing/dir/file',
  '/',
  '/etc/./cni//net.d/',
  '/../../etc/cni/net.d/10-a.conflist',
];

async function outcome(fn: () => Promise<string>): Promise<string> {
  try {
    return `ok ${await fn()}`;
  } catch (e) {
    return e instanceof ResolveError ? `${e.code} ${e.message}` : `throw ${String(e)}`;
  }
}

describe('RootResolver', () => {
  it('answers exactly like resolveUnderRoot for every path, followed or not, in any order', async () => {
    const resolver = new RootResolver(root);
    for (const followLast of [true, false])
      for (const p of [...PATHS, ...[...PATHS].reverse()]) {
        const want = await outcome(() => resolveUnderRoot(root, p, followLast));
        expect(await outcome(() => resolver.resolve(p, followLast)), `${p} ${followLast}`).toBe(
          want,
        );
      }
  });

  it('hands back the lstat it made only when it describes what the path names', async () => {
    const resolver = new RootResolver(root);
    for (const followLast of [true, false])
      for (const p of PATHS) {
        const located = await resolver.locate(p, followLast).catch(() => undefined);
        if (located?.stats === undefined) continue;
        const fresh = await fsp.lstat(located.real);
        expect([located.stats.ino, located.stats.mode], p).toEqual([fresh.ino, fresh.mode]);
        if (followLast) expect(located.stats.isSymbolicLink(), p).toBe(false);
      }
  });

  it('never leaves the root: escaping links land inside it, loops end in ELOOP', async () => {
    const resolver = new RootResolver(root);
    expect(await resolver.resolve('/etc/cni/net.d/30-escape.conf', true)).toBe(
      path.join(root, 'etc/passwd'),
    );
    expect(await resolver.resolve('/etc/cni/net.d/20-abs.conf', true)).toBe(
      path.join(root, 'etc/passwd-on-node'),
    );
    await expect(resolver.resolve('/etc/cni/net.d/40-loop.conf', true)).rejects.toMatchObject({
      code: 'ELOOP',
      message: '/etc/cni/net.d/40-loop.conf: too many levels of symbolic links',
    });
  });

  it('lstats a file that is no link once, whether it is asked for followed or not', async () => {
    const calls: string[] = [];
    const io = {
      lstat: (p: string) => (calls.push(p), fsp.lstat(p)),
      readlink: (p: string) => fsp.readlink(p),
    };
    const resolver = new RootResolver(root, io);
    const file = '/etc/cni/net.d/10-a.conflist';
    const link = '/etc/cni/net.d/20-abs.conf';
    for (const p of [file, link]) {
      await resolver.locate(p, true);
      await resolver.locate(p, false);
    }
    const at = (rel: string): string => path.join(root, rel);
    expect(calls.filter((c) => c === at(file))).toHaveLength(1);
    // A link is a different answer followed or not: it is looked at again.
    expect(calls.filter((c) => c === at(link))).toHaveLength(2);
    expect((await resolver.locate(link, false)).stats?.isSymbolicLink()).toBe(true);
  });

  it('walks each directory once however many files are resolved in it', async () => {
    const resolver = new RootResolver(root);
    const many = Array.from({ length: 50 }, (_, i) => `/etc/cni/net.d/${i}.conf`);
    const answers = await Promise.all(many.map((p) => resolver.resolve(p, true)));
    expect(answers).toEqual(many.map((p) => path.join(root, p)));
    // The cache holds the directories, not the files.
    expect((resolver as unknown as { dirs: Map<string, unknown> }).dirs.size).toBe(4);
  });
});
