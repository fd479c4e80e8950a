// Issue 9 item 3: one kernel lock per (node, root). A held lock blocks every other run (whatever
// its state dir), names its holder, never waits forever, and vanishes with its holder — even a
// SIGKILLed one — with no stale-lock guessing.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRepair } from '../apply';
import { makeNodeTree, shadowedNode, snapshotTree } from '../testing/node-tree';
import { newStateDir, testEnvironment } from '../testing/env';
import { LockBusy, localNodeLock, lockPath } from './lock';

const HOLDER = fileURLToPath(new URL('../testing/lock-holder.ts', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function holder(
  root: string,
  waitMs = 0,
): { child: ChildProcessWithoutNullStreams; said: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, root, String(waitMs)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const said = new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('close', () => resolve(out.trim()));
  });
  return { child, said };
}

function disk(): string {
  const d = makeNodeTree(shadowedNode());
  dirs.push(d);
  return d;
}

describe('the node lock', () => {
  it('three runs at once: exactly one gets the lock, the others are told who holds it', async () => {
    const root = disk();
    const runs = [holder(root), holder(root), holder(root)];
    const said = await Promise.all(runs.map((r) => r.said));
    expect(said.filter((s) => s === 'locked')).toHaveLength(1);
    const winner = runs[said.indexOf('locked')]?.child.pid;
    for (const s of said.filter((x) => x !== 'locked')) {
      // The winner's note may not be written yet at that instant; the lock itself decided.
      expect(s).toMatch(/^busy: another cni-doctor \((pid \d+|a process that has not yet said)/);
      expect(s).toContain(lockPath(root));
    }
    // Named by pid once the winner has written its note.
    const late = await holder(root).said;
    expect(late).toContain(`pid ${winner}`);
  });

  it('blocks an apply with any state dir; a SIGKILLed holder releases it at once', async () => {
    const root = disk();
    const h = holder(root);
    expect(await h.said).toBe('locked');
    const before = snapshotTree(root, { mtime: true });
    for (const stateDir of [newStateDir(), newStateDir()]) {
      dirs.push(path.dirname(stateDir));
      const env = { ...testEnvironment(root, { stateDir }), lockWaitMs: 300 };
      const r = await applyRepair(env, 'cni.conf.shadowed-by-default:disable-files:containerd');
      expect(r).toMatchObject({
        status: 'refused',
        reason: expect.stringMatching(new RegExp(`pid ${h.child.pid}.*waited 0 s`)),
      });
    }
    expect(snapshotTree(root, { mtime: true })).toEqual(before);
    h.child.kill('SIGKILL');
    await new Promise((r) => h.child.on('close', r));
    // No stale lock: the kernel dropped it with the process.
    const lock = await localNodeLock(root, 0);
    await lock.release();
  });

  it('a waiting run gets the lock when the holder finishes, not before', async () => {
    const root = disk();
    const h = holder(root);
    expect(await h.said).toBe('locked');
    const waiting = localNodeLock(root, 10_000);
    let got = false;
    void waiting.then(() => (got = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(got).toBe(false);
    h.child.stdin.end();
    const lock = await waiting;
    await lock.release();
  });

  it('different roots do not block each other; the same root through a symlink does', async () => {
    const a = disk();
    const b = disk();
    const la = await localNodeLock(a, 0);
    const lb = await localNodeLock(b, 0);
    await lb.release();
    const link = path.join(mkdtempSync(path.join(tmpdir(), 'cnid-ln-')), 'n');
    dirs.push(path.dirname(link));
    (await import('node:fs')).symlinkSync(a, link);
    await expect(localNodeLock(link, 0)).rejects.toBeInstanceOf(LockBusy);
    await la.release();
  });
});
