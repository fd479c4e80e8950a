/**
 * The journal, backups and lock of repairs made through a transport, kept on the node itself
 * (its /var/lib/cni-doctor and /run/lock), so undo and crash recovery work from any later command
 * that names the same target — from this machine or another one.
 *
 *  - StateIo over NodeFiles: the same secure-dir walk as locally (every component a real
 *    directory owned by root or the node user, no group/other write unless sticky), files read
 *    without following a link at their name and only when root or that user owns them.
 *  - The lock is flock(1) on the node (busybox's applet where no flock is linked), held by a
 *    program that runs as long as our transport connection: when this process exits or is
 *    killed, ssh (or kubectl, or the container engine's exec) goes, its program reads end-of-file,
 *    exits, and the kernel on the node releases the lock. No pid file, no staleness. (podman's
 *    conmon closes the program's stdin as soon as a killed `podman exec` client is gone: measured
 *    in the lab, e2e/lab/remote.lab.test.ts.)
 */
import * as path from 'node:path';
import { LockBusy, type Lock } from '../repairs/journal/lock';
import type { StateIo } from '../repairs/journal/store';
import { componentProblem, UnsafeStateDir } from '../repairs/state/secure-dir';
import { tempName } from '../repairs/node-fs';
import { NodeFileError, type NodeFiles } from './node-files';
import type { Transport } from './transport';

const S_IFDIR = 0o040000;

/** What componentProblem() reads, from a walk line. */
function asStat(w: { type: string; mode: number; uid: number }) {
  return {
    isSymbolicLink: () => w.type === 'symlink',
    isDirectory: () => w.type === 'dir',
    uid: w.uid,
    mode: w.mode | (w.type === 'dir' ? S_IFDIR : 0),
  };
}

function ancestry(abs: string): string[] {
  const parts = abs.split('/').filter((s) => s !== '');
  return ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
}

export function nodeStateIo(files: NodeFiles): StateIo {
  const allowed = async (): Promise<number[]> => [0, await files.uid()];
  return {
    async secureDir(dir, o) {
      const abs = path.posix.resolve('/', dir);
      const comps = ancestry(abs);
      let seen;
      try {
        seen = await files.walk(comps, o.create);
      } catch (e) {
        throw new UnsafeStateDir(
          `cannot check the ${o.what} ${abs} on the node: ${(e as Error).message}`,
        );
      }
      const owners = await allowed();
      for (let i = 0; i < comps.length; i++) {
        const w = seen[i];
        if (w === null || w === undefined) {
          if (!o.create) return null;
          throw new UnsafeStateDir(`cannot create the ${o.what} ${abs} on the node`);
        }
        const why = componentProblem(comps[i] as string, asStat(w), owners, i === comps.length - 1);
        if (why)
          throw new UnsafeStateDir(
            `refusing the ${o.what} ${abs} on the node: ${why}; another user could plant or swap what cni-doctor trusts there. Nothing was done`,
          );
      }
      const leaf = seen[comps.length - 1];
      if (leaf && (leaf.mode & 0o077) !== 0) await files.chmod700(abs);
      return abs;
    },
    async subdir(d, create) {
      const [w] = await files.walk([d], create);
      if (!w) return { exists: false, problem: null };
      return { exists: true, problem: componentProblem(d, asStat(w), await allowed(), true) };
    },
    fsyncDir: (d) => files.fsync(d),
    atomicWrite: async (p, data, mode) =>
      files.replace(p, data, {
        tempDir: path.posix.dirname(p),
        tempName: tempName(),
        mode,
      }),
    newFile: (p, data, mode) => files.create(p, data, mode),
    async readChecked(p) {
      let r;
      try {
        r = await files.read(p, true);
      } catch (e) {
        if (e instanceof NodeFileError && e.code === 'UNSAFE') throw new UnsafeStateDir(e.message);
        throw e;
      }
      if (r === null) throw Object.assign(new Error(`${p}: does not exist`), { code: 'ENOENT' });
      if (!(await allowed()).includes(r.uid))
        throw new UnsafeStateDir(
          `${p} is owned by uid ${r.uid}, not root or the node user; it was not read`,
        );
      return r.data;
    },
    async readdir(d) {
      const names = await files.list(d);
      if (names === null)
        throw Object.assign(new Error(`${d}: does not exist`), { code: 'ENOENT' });
      return names;
    },
    rm: async (p) => {
      await files.remove(p).catch((e: unknown) => {
        if (!(e instanceof NodeFileError && e.code === 'ENOENT')) throw e;
      });
    },
    isDir: async (d) => (await files.stat(d, true))?.type === 'dir',
  };
}

/** The lock file on the node; /run is a tmpfs, so a lock never outlives the node's boot. */
export const NODE_LOCK = '/run/lock/cni-doctor.node.lock';

const LOCK_SH = `umask 077
mkdir -p /run/lock 2>/dev/null
exec 9>>"$1" || { echo "cannot open $1" >&2; exit 1; }
F=
if command -v flock >/dev/null 2>&1; then F=flock
else for a in $(busybox --list 2>/dev/null); do [ "$a" = flock ] && F='busybox flock'; done; fi
[ -n "$F" ] || { echo "the node has no flock(1) to lock it with" >&2; exit 1; }
$F -w "$2" 9 || exit 75
echo locked
cat >/dev/null`;

/**
 * Takes the node's lock, waiting up to `waitMs` for another run (from any machine) to finish.
 * Released by release() or by this process's end (see the module comment).
 */
export async function nodeLock(t: Transport, label: string, waitMs: number): Promise<Lock> {
  await t.prepare();
  const p = t.spawn([
    'sh',
    '-c',
    LOCK_SH,
    'cni-doctor-lock',
    NODE_LOCK,
    String(Math.ceil(waitMs / 1000)),
  ]);
  let err = '';
  p.stderr.on('data', (b: Buffer) => {
    if (err.length < 4096) err += b.toString('utf8');
  });
  const locked = await new Promise<boolean>((resolve) => {
    let out = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      if (out.includes('locked\n')) resolve(true);
    });
    void p.exit.then(() => resolve(false));
  });
  if (!locked) {
    const x = await p.exit;
    if (x.code === 75)
      throw new LockBusy(
        `another cni-doctor is applying, undoing or recovering a repair on ${label} (lock ${NODE_LOCK} on the node); waited ${Math.round(waitMs / 1000)} s. Try again when it is done`,
      );
    throw new Error(`cannot lock ${label}: ${err.trim().slice(0, 300) || `exit ${x.code}`}`);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      p.stdin.end();
      const timer = setTimeout(() => p.kill(), 10_000);
      await p.exit;
      clearTimeout(timer);
    },
  };
}
