/**
 * One repair at a time per node and root: apply, undo and recovery hold the lock of
 * (this machine, the root they act on) — whatever state dir they use, since two state dirs for one
 * node would otherwise let two runs change the same files at once.
 *
 * The lock is a kernel lock, never a pid file: held by us, released by the kernel when we exit or
 * are killed, so there is no stale lock to guess about and no takeover race. Node has no flock()
 * API, so on Linux we open the lock file ourselves (O_NOFOLLOW, in a root-only lock dir) and let
 * flock(1) lock *our* open file description — passed to it as fd 3 — and exit: a flock lock
 * belongs to the open file description, so it stays held for exactly as long as our descriptor is
 * open, i.e. until release() or our death. (A long-lived helper process holding the lock would
 * outlive a SIGKILLed parent for a moment and could be orphaned; this cannot.)
 *
 * On Windows the equivalent is a share-mode lock (CreateFile with FileShare.None, the same kernel
 * arbitration LockFileEx uses): a PowerShell child opens the lock file exclusively and holds it
 * until its stdin closes, which the OS does when we exit or die.
 *
 * Who holds the lock is written beside it (`<lock>.holder`) only to name them in the message; it
 * never decides anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants, existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { atomicWriteReal } from '../node-fs';
import { canonicalRoot, rootKey } from '../state-dir';
import { openNoFollow, secureDir } from '../state/secure-dir';

export class LockBusy extends Error {}

export interface Lock {
  release(): Promise<void>;
  /**
   * The state dir the last run holding this node's lock journaled into. Two runs on one node may
   * use different state dirs; the next holder must finish what a killed one left there before
   * it changes anything, or it would build on a half-applied node.
   */
  lastStateDir?(): Promise<string | null>;
  /** Records the state dir this run journals into, before its first change to the node. */
  claim?(stateDir: string): Promise<void>;
}

/** What the engine needs to lock a node: a local root here, a remote node's own lock elsewhere. */
export interface NodeLockTarget {
  fs: { root: string };
  /** A door or remote target with its own lock (a remote node locks on that node). */
  lockNode?(): Promise<Lock>;
  /** How long to wait for a lock another run holds before refusing (default 15 s). */
  lockWaitMs?: number;
}

export function acquireNodeLock(t: NodeLockTarget): Promise<Lock> {
  return t.lockNode ? t.lockNode() : localNodeLock(t.fs.root, t.lockWaitMs ?? 15_000);
}

/** Root-only directory for lock files; /run is a tmpfs, so locks never outlive a boot anyway. */
export function lockDir(): string {
  if (process.platform === 'win32')
    return path.win32.join(process.env.ProgramData ?? 'C:\\ProgramData', 'cni-doctor', 'locks');
  const uid = process.geteuid?.() ?? 0;
  if (uid === 0) return existsSync('/run/lock') ? '/run/lock/cni-doctor' : '/run/cni-doctor';
  return path.join(process.env.XDG_RUNTIME_DIR ?? '/tmp', `cni-doctor-${uid}`);
}

export function lockPath(root: string): string {
  const key = canonicalRoot(root) === '/' ? 'node' : `root-${rootKey(root)}`;
  return path.join(lockDir(), `${key}.lock`);
}

/** Locks held by this process, by lock path: a second take here waits like any other run. */
const heldHere = new Set<string>();

const FLOCK = ['/usr/bin/flock', '/bin/flock'];
const BUSY = 75;

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function holderWords(p: string): Promise<string> {
  const raw = await fsp.readFile(`${p}.holder`, 'utf8').catch(() => '');
  try {
    const h = JSON.parse(raw) as { pid?: number; command?: string; since?: string };
    return `pid ${Number(h.pid)}${h.command ? `, \`${String(h.command).slice(0, 200)}\`` : ''}${h.since ? `, since ${String(h.since)}` : ''}`;
  } catch {
    // The holder writes its note right after taking the lock; we may have looked in between.
    return 'a process that has not yet said who it is';
  }
}

function busy(p: string, root: string, holder: string, waitedMs: number): LockBusy {
  return new LockBusy(
    `another cni-doctor (${holder}) is applying, undoing or recovering a repair on ${canonicalRoot(root) === '/' ? 'this node' : `root ${root}`} (lock ${p}); waited ${Math.round(waitedMs / 1000)} s. Try again when it is done`,
  );
}

async function flockFd(fd: number, waitMs: number): Promise<boolean> {
  const bin = FLOCK.find((b) => existsSync(b));
  if (!bin) throw new Error('flock(1) (util-linux) is needed to lock the node and is missing');
  const args = ['--exclusive', '--conflict-exit-code', String(BUSY)];
  args.push(...(waitMs > 0 ? ['--timeout', String(waitMs / 1000)] : ['--nonblock']), '3');
  const code = await exitCode(spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe', fd] }));
  if (code === 0) return true;
  if (code === BUSY) return false;
  throw new Error(`flock exited with ${code}`);
}

async function linuxLock(p: string, root: string, waitMs: number): Promise<() => Promise<void>> {
  const h = await openNoFollow(p, constants.O_RDWR | constants.O_CREAT, 0o600);
  try {
    if (!(await h.stat()).isFile()) throw new Error(`${p} is not a regular file`);
    if (!(await flockFd(h.fd, 0)) && (waitMs <= 0 || !(await flockFd(h.fd, waitMs))))
      throw busy(p, root, await holderWords(p), waitMs);
  } catch (e) {
    await h.close();
    throw e;
  }
  return () => h.close();
}

const WINDOWS_LOCK_SCRIPT = `try { $f = [IO.File]::Open($env:CNID_LOCK, 'OpenOrCreate', 'ReadWrite', 'None') } catch { exit ${BUSY} }
[Console]::Out.WriteLine('locked'); [Console]::Out.Flush()
[void][Console]::In.ReadToEnd()`;

async function windowsLock(p: string, root: string, waitMs: number): Promise<() => Promise<void>> {
  const exe = path.win32.join(
    process.env.SystemRoot ?? 'C:\\Windows',
    'System32',
    'WindowsPowerShell',
    'v1.0',
    'powershell.exe',
  );
  const started = Date.now();
  for (;;) {
    const child = spawn(exe, ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_LOCK_SCRIPT], {
      env: { ...process.env, CNID_LOCK: p },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const locked = await new Promise<boolean>((resolve, reject) => {
      child.stdout?.once('data', () => resolve(true));
      child.on('error', reject);
      child.on('close', () => resolve(false));
    });
    if (locked) {
      child.unref();
      return async () => {
        child.stdin?.end();
        await exitCode(child).catch(() => undefined);
      };
    }
    if (Date.now() - started >= waitMs) throw busy(p, root, await holderWords(p), waitMs);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The kernel lock of (this machine, root), waiting up to `waitMs` for another run to finish. */
export async function localNodeLock(root: string, waitMs: number): Promise<Lock> {
  await secureDir(lockDir(), { create: true, what: 'lock dir' });
  const p = lockPath(root);
  const started = Date.now();
  while (heldHere.has(p)) {
    if (Date.now() - started >= waitMs)
      throw busy(p, root, `pid ${process.pid}, this process`, waitMs);
    await new Promise((r) => setTimeout(r, 50));
  }
  heldHere.add(p);
  let unlock: () => Promise<void>;
  try {
    const left = Math.max(0, waitMs - (Date.now() - started));
    unlock = await (process.platform === 'win32' ? windowsLock : linuxLock)(p, root, left);
  } catch (e) {
    heldHere.delete(p);
    throw e;
  }
  const holder = {
    pid: process.pid,
    command: ['cni-doctor', ...process.argv.slice(2)].join(' '),
    since: new Date().toISOString(),
  };
  await atomicWriteReal(`${p}.holder`, JSON.stringify(holder), { mode: 0o600 }).catch(
    () => undefined,
  );
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(p);
      await unlock();
    },
    // Kept beside the lock, in the root-only lock dir: only a lock holder reads or writes it.
    async lastStateDir() {
      const h = await openNoFollow(`${p}.state`, constants.O_RDONLY).catch(() => null);
      if (!h) return null;
      try {
        const dir = (await h.readFile('utf8')).trim();
        return path.isAbsolute(dir) ? dir : null;
      } finally {
        await h.close();
      }
    },
    async claim(stateDir) {
      await atomicWriteReal(`${p}.state`, `${path.resolve(stateDir)}\n`, { mode: 0o600 });
    },
  };
}
