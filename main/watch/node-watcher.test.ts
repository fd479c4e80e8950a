import { afterEach, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { FSWatcher } from 'node:fs';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { until } from '../../shared/until.testutil';
import { NodeWatcher, type NodeWatcherOptions, type WatchedPath } from './node-watcher';

const open: NodeWatcher[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const w of open.splice(0)) w.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function node(): { root: string; conf: string; toml: string; paths: WatchedPath[] } {
  const root = mkdtempSync(path.join(tmpdir(), 'cni-doctor-watch-'));
  dirs.push(root);
  const conf = path.join(root, 'etc/cni/net.d');
  mkdirSync(conf, { recursive: true });
  mkdirSync(path.join(root, 'etc/containerd'));
  writeFileSync(path.join(conf, '10-flannel.conflist'), '{}');
  const toml = path.join(root, 'etc/containerd/config.toml');
  writeFileSync(toml, 'version = 2\n');
  return {
    root,
    conf,
    toml,
    paths: [
      { nodePath: '/etc/cni/net.d', localPath: conf, kind: 'dir' },
      { nodePath: '/etc/containerd/config.toml', localPath: toml, kind: 'file' },
    ],
  };
}

/** Starts a watcher whose changes land in a list; `next()` waits for the next one. */
async function watching(paths: WatchedPath[], opts: Partial<NodeWatcherOptions> = {}) {
  const seen: string[][] = [];
  let wake: (() => void) | undefined;
  const w = await NodeWatcher.start(paths, {
    debounceMs: 50,
    pollMs: 60_000,
    ...opts,
    onChange: (c) => {
      seen.push(c);
      wake?.();
    },
  });
  open.push(w);
  // Far above the normal case (an fs.watch event or a poll plus the debounce: well under 1 s).
  const next = (ms = 20_000): Promise<string[]> =>
    new Promise((resolve, reject) => {
      const at = seen.length;
      const t = setTimeout(
        () => reject(new Error(`still waiting, after ${ms} ms, for a change to be reported`)),
        ms,
      );
      wake = () => {
        if (seen.length > at) {
          clearTimeout(t);
          resolve(seen[at] as string[]);
        }
      };
    });
  return { w, seen, next };
}

/** A watch that starts but never fires. */
function silentWatch(): FSWatcher {
  return Object.assign(new EventEmitter(), { close: () => undefined }) as unknown as FSWatcher;
}

describe('NodeWatcher on a real folder', () => {
  it('a new file in a conf dir is one change of that dir, from fs.watch (polling is an hour away)', async () => {
    const n = node();
    const { w, next } = await watching(n.paths);
    expect(w.mode).toBe('events');
    const change = next();
    writeFileSync(path.join(n.conf, '05-cilium.conflist'), '{"name":"cilium"}');
    expect(await change).toEqual(['/etc/cni/net.d']);
  });

  it('a config file replaced by rename (what editors do) is seen through its folder', async () => {
    const n = node();
    const { next } = await watching(n.paths);
    const change = next();
    writeFileSync(`${n.toml}.tmp`, 'version = 3\n');
    renameSync(`${n.toml}.tmp`, n.toml);
    expect(await change).toEqual(['/etc/containerd/config.toml']);
  });

  it('an edit of a file inside the conf dir changes the dir', async () => {
    const n = node();
    const { next } = await watching(n.paths);
    const change = next();
    writeFileSync(path.join(n.conf, '10-flannel.conflist'), '{"name":"cbr0","plugins":[]}');
    expect(await change).toEqual(['/etc/cni/net.d']);
  });

  it('five writes in a burst are one change (debounced)', async () => {
    const n = node();
    const { w, seen, next } = await watching(n.paths, { debounceMs: 300 });
    const change = next();
    for (let i = 0; i < 5; i++) writeFileSync(path.join(n.conf, `${i}.conf`), '{}');
    await change;
    await new Promise((r) => setTimeout(r, 500));
    await w.settled();
    expect(seen).toHaveLength(1);
  });

  it('when fs.watch stays silent (network or overlay mounts), polling sees the change', async () => {
    const n = node();
    const { w, next } = await watching(n.paths, { pollMs: 100, watch: silentWatch });
    const change = next();
    writeFileSync(path.join(n.conf, '05-cilium.conflist'), '{}');
    expect(await change).toEqual(['/etc/cni/net.d']);
    expect(w.eventWatches).toBe(2);
  });

  it('when fs.watch cannot start (no inotify watches left), polling only', async () => {
    const n = node();
    const { w, next } = await watching(n.paths, {
      pollMs: 100,
      watch: () => {
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      },
    });
    expect(w.mode).toBe('polling');
    const change = next();
    writeFileSync(n.toml, 'version = 2\n# edited\n');
    expect(await change).toEqual(['/etc/containerd/config.toml']);
  });

  it('a conf dir that did not exist and appears is a change', async () => {
    const n = node();
    const later = path.join(n.root, 'etc/cni/multus.d');
    const { next } = await watching(
      [{ nodePath: '/etc/cni/multus.d', localPath: later, kind: 'dir' }],
      { pollMs: 100 },
    );
    const change = next();
    mkdirSync(later);
    expect(await change).toEqual(['/etc/cni/multus.d']);
  });

  it('a file written during the scan, before the watch began, is reported at once', async () => {
    const n = node();
    const scanBegan = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(path.join(n.conf, '10-flannel.conflist'), '{"changed": true}');
    writeFileSync(n.toml, 'version = 3\n');
    const { seen } = await watching(n.paths, { changedSince: scanBegan });
    await until(() => seen.length > 0, 'the writes made during the scan to be reported');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([['/etc/cni/net.d', '/etc/containerd/config.toml']]);
  });

  it('nothing written since the scan began: nothing reported when the watch starts', async () => {
    const n = node();
    await new Promise((r) => setTimeout(r, 20));
    const { seen } = await watching(n.paths, { changedSince: Date.now() });
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([]);
  });

  it('no change, no event; reading files does not count', async () => {
    const n = node();
    const { w, seen } = await watching(n.paths, { pollMs: 50 });
    await new Promise((r) => setTimeout(r, 400));
    await w.settled();
    expect(seen).toEqual([]);
  });

  it('holds at most maxWatches fs.watch handles; the rest is polled', async () => {
    const n = node();
    const extra = ['a', 'b', 'c'].map((d) => {
      const p = path.join(n.root, d);
      mkdirSync(p);
      return { nodePath: `/${d}`, localPath: p, kind: 'dir' as const };
    });
    const { w, next } = await watching([...n.paths, ...extra], { maxWatches: 2, pollMs: 100 });
    expect(w.eventWatches).toBe(2);
    const change = next();
    writeFileSync(path.join(n.root, 'c', 'x'), '1');
    expect(await change).toEqual(['/c']);
  });

  it('after close, changes are not reported', async () => {
    const n = node();
    const { w, seen } = await watching(n.paths, { pollMs: 50 });
    w.close();
    writeFileSync(path.join(n.conf, 'late.conf'), '{}');
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]);
  });
});
