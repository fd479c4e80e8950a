import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LocalShellTransport } from './testing/local-transport';
import { RemoteLinuxHost } from './remote-host';
import {
  FileVersionCache,
  FRESH_SECONDS,
  MAX_ENTRIES,
  MemoryVersionCache,
  versionKey,
} from './version-cache';

const root = mkdtempSync(join(tmpdir(), 'cnd-version-cache-'));
afterAll(() => {
  vi.useRealTimers();
  rmSync(root, { recursive: true, force: true });
});
let n = 0;
const freshDir = (): string => mkdtempSync(join(root, 'd-'));

const SPEAKS = 'CNI bridge plugin v1.4.0\nCNI protocol versions supported: 0.3.1, 0.4.0, 1.0.0\n';
const OLD = Math.floor(Date.now() / 1000) - 3600;

describe('versionKey', () => {
  it('names the target, the node, the path and the whole identity', () => {
    const k = versionKey('t', 'node-1', '/opt/cni/bin/bridge', `12 ${OLD} ${OLD}`);
    expect(JSON.parse(k ?? '')).toEqual(['t', 'node-1', '/opt/cni/bin/bridge', `12 ${OLD} ${OLD}`]);
  });

  it('is none without an identity, or for a file changed in the last minutes', () => {
    const now = Date.now() / 1000;
    expect(versionKey('t', 'n', '/p', undefined)).toBeUndefined();
    expect(versionKey('t', 'n', '/p', `1 ${OLD} ${Math.floor(now)}`)).toBeUndefined();
    const edge = Math.floor(now - FRESH_SECONDS - 2);
    expect(versionKey('t', 'n', '/p', `1 ${OLD} ${edge}`)).toBeDefined();
    // A node whose clock runs ahead of ours: its files look fresh, and are not remembered.
    expect(versionKey('t', 'n', '/p', `1 ${OLD} ${Math.floor(now + 3600)}`)).toBeUndefined();
  });
});

describe('MemoryVersionCache', () => {
  it('keeps what the agent could have sent: not an output past its 4 KiB', () => {
    const c = new MemoryVersionCache();
    c.remember('a', SPEAKS);
    c.remember('c', `${SPEAKS}${'x'.repeat(5000)}`);
    expect([c.get('a'), c.get('c')]).toEqual([SPEAKS, undefined]);
  });

  it(`holds at most ${MAX_ENTRIES}, the least recently used going first`, () => {
    const c = new MemoryVersionCache();
    for (let i = 0; i < MAX_ENTRIES; i++) c.remember(`k${i}`, SPEAKS);
    expect(c.get('k0')).toBe(SPEAKS); // k0 used: k1 is now the oldest
    c.remember('new', SPEAKS);
    expect(c.get('k1')).toBeUndefined();
    expect(c.get('k0')).toBe(SPEAKS);
    expect(c.get('new')).toBe(SPEAKS);
  });
});

describe('FileVersionCache', () => {
  it('keeps what it learnt for the next process, written whole and private', () => {
    const dir = freshDir();
    const a = new FileVersionCache(dir);
    a.remember('k', SPEAKS);
    a.save();
    const file = join(dir, 'plugin-versions.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['plugin-versions.json']);
    expect(new FileVersionCache(dir).get('k')).toBe(SPEAKS);
  });

  it('writes nothing when nothing was learnt (a warm scan only reads)', () => {
    const dir = freshDir();
    const a = new FileVersionCache(dir);
    a.remember('k', SPEAKS);
    a.save();
    const b = new FileVersionCache(dir);
    expect(b.get('k')).toBe(SPEAKS);
    b.remember('k', SPEAKS);
    // Gone before it saves: a save that wrote anything would bring it back.
    rmSync(join(dir, 'plugin-versions.json'));
    b.save();
    expect(existsSync(join(dir, 'plugin-versions.json'))).toBe(false);
  });

  it('is empty, never an error, for a file it did not write as it writes them', () => {
    const cases: [string, (file: string) => void][] = [
      ['not JSON', (f) => writeFileSync(f, '{"format": "cni-doctor.plugin-ver', { mode: 0o600 })],
      ['binary', (f) => writeFileSync(f, Buffer.from([0, 1, 2, 255, 254]), { mode: 0o600 })],
      ['another format', (f) => writeFileSync(f, '{"format":"x","entries":[["k","v"]]}')],
      [
        'entries of the wrong shape',
        (f) =>
          writeFileSync(
            f,
            JSON.stringify({
              format: 'cni-doctor.plugin-versions/v1',
              entries: [['k'], [1, 2], 'k', null, ['k', 'x'.repeat(5000)], ['k', 1, SPEAKS]],
            }),
            { mode: 0o600 },
          ),
      ],
      [
        'group-writable (someone else could plant versions)',
        (f) => {
          writeFileSync(
            f,
            JSON.stringify({ format: 'cni-doctor.plugin-versions/v1', entries: [['k', SPEAKS]] }),
          );
          chmodSync(f, 0o620);
        },
      ],
      [
        'a symlink to a good cache elsewhere',
        (f) => {
          const elsewhere = join(root, `elsewhere-${n++}.json`);
          writeFileSync(
            elsewhere,
            JSON.stringify({ format: 'cni-doctor.plugin-versions/v1', entries: [['k', SPEAKS]] }),
            { mode: 0o600 },
          );
          symlinkSync(elsewhere, f);
        },
      ],
      ['a directory', (f) => mkdirSync(f)],
    ];
    for (const [what, plant] of cases) {
      const dir = freshDir();
      const file = join(dir, 'plugin-versions.json');
      plant(file);
      const c = new FileVersionCache(dir);
      expect(c.get('k'), what).toBeUndefined();
      // And what it learns is written over it, not through it.
      c.remember('k2', SPEAKS);
      c.save();
      if (what.startsWith('a symlink')) expect(readFileSync(file, 'utf8'), what).toContain('"k2"');
    }
  });

  it('does not follow a planted symlink when it writes: the link is replaced', () => {
    const dir = freshDir();
    const target = join(root, `victim-${n++}`);
    writeFileSync(target, 'keep me');
    symlinkSync(target, join(dir, 'plugin-versions.json'));
    const c = new FileVersionCache(dir);
    c.remember('k', SPEAKS);
    c.save();
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(new FileVersionCache(dir).get('k')).toBe(SPEAKS);
  });
});

describe('a scan remembers plugin versions (the node is this machine, through its sh)', () => {
  const plugin = (dir: string, version: string): string => {
    const p = join(dir, 'bridge');
    writeFileSync(
      p,
      `#!/bin/sh\necho "CNI bridge plugin ${version}"\necho "CNI protocol versions supported: 0.4.0, 1.0.0"\n`,
    );
    chmodSync(p, 0o755);
    return p;
  };
  const asked = (t: LocalShellTransport): number =>
    t.written
      .flat()
      .join('')
      .match(/^versions?$/gm)?.length ?? 0;

  async function scanOnce(cache: MemoryVersionCache, path: string) {
    const t = new LocalShellTransport();
    const host = new RemoteLinuxHost(t, { versionCache: cache });
    try {
      // As the probe asks it: the plugin folder's stat first, then its version.
      await host.stat(path);
      const v = await host.pluginVersion(path);
      return { v, asked: asked(t) };
    } finally {
      await host.close();
    }
  }

  it('asks a binary once, then again only when it changed', async () => {
    const dir = freshDir();
    const path = plugin(dir, 'v1.4.0');
    const cache = new MemoryVersionCache();
    // Files written by this test are minutes old only on a clock moved ahead.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (FRESH_SECONDS + 60) * 1000);
    try {
      const first = await scanOnce(cache, path);
      expect(first.v).toMatchObject({ ok: true, cniVersion: '1.0.0' });
      expect(first.asked).toBe(1);
      const second = await scanOnce(cache, path);
      expect(second).toEqual({ v: first.v, asked: 0 });
      // Replaced as package managers do (a new file renamed over it): a new inode, asked again.
      // (Rewritten in place, its ctime moves instead; within the same second it would not, which
      // is why a file changed in the last FRESH_SECONDS is never remembered.)
      renameSync(plugin(freshDir(), 'v1.5.0'), path);
      vi.setSystemTime(Date.now() + (FRESH_SECONDS + 60) * 1000);
      const third = await scanOnce(cache, path);
      expect(third.asked).toBe(1);
      expect(third.v).toMatchObject({ ok: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it("remembers a kubelet's version too, and never an answer that could not be read", async () => {
    const dir = freshDir();
    const script = (name: string, out: string): string => {
      const p = join(dir, name);
      writeFileSync(p, `#!/bin/sh\necho "${out}"\n`);
      chmodSync(p, 0o755);
      return p;
    };
    const kubelet = script('kubelet', 'Kubernetes v1.30.2');
    const broken = script('bridge', 'cannot execute binary file: Exec format error');
    const cache = new MemoryVersionCache();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (FRESH_SECONDS + 60) * 1000);
    try {
      const once = async () => {
        const t = new LocalShellTransport();
        const host = new RemoteLinuxHost(t, { versionCache: cache });
        try {
          const v = await host.versions({ binaries: [{ component: 'kubelet', path: kubelet }] });
          await host.stat(broken);
          const p = await host.pluginVersion(broken);
          return { v, p, asked: asked(t) };
        } finally {
          await host.close();
        }
      };
      const first = await once();
      expect(first.v).toEqual({ kubelet: 'v1.30.2' });
      expect(first.p).toMatchObject({ ok: false, problem: 'wrong-architecture' });
      const second = await once();
      expect(second.v).toEqual({ kubelet: 'v1.30.2' });
      expect(second.p).toEqual(first.p);
      // The kubelet was remembered; the plugin that does not run is asked again.
      expect([first.asked, second.asked]).toEqual([2, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks every time a binary changed minutes ago, and without a cache', async () => {
    const dir = freshDir();
    const path = plugin(dir, 'v1.4.0');
    const cache = new MemoryVersionCache();
    expect((await scanOnce(cache, path)).asked).toBe(1);
    expect((await scanOnce(cache, path)).asked).toBe(1);
    const t = new LocalShellTransport();
    const host = new RemoteLinuxHost(t);
    await host.stat(path);
    expect(await host.pluginVersion(path)).toMatchObject({ ok: true });
    await host.close();
    expect(asked(t)).toBe(1);
  });
});
