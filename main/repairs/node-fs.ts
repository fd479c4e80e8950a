/**
 * The node's file system as the repair engine writes it: node paths (`/etc/cni/net.d/x`) mapped
 * under a root (`--root /mnt/node`) the way the probes read them (main/host/rooted-fs.ts), with
 * crash-safe primitives only — atomic replace (temp file, fsync, rename, fsync dir) and rename
 * with a directory fsync. Nothing here ever truncates a file in place: containerd may parse a
 * half-written CNI config (docs/knowledge/node-layouts.md#what-each-repair-does-to-a-running-node).
 */
import { constants, promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { resolveUnderRoot } from '../host/rooted-fs';

export interface NodeStat {
  type: 'file' | 'dir' | 'symlink' | 'other';
  mode: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  size: number;
}

export interface WriteOptions {
  /** Mode for the new file (an existing target's mode is the caller's to pass). */
  mode: number;
  uid?: number;
  gid?: number;
  /** Directory for the temp file (must be on the same file system as the target). */
  tempDir?: string;
  /** Called between "temp file complete" and "rename": the crash-test boundary. */
  beforeRename?: () => void;
}

export interface NodeFs {
  /** True when the root is this machine's `/` (services are real, CRI can be asked). */
  readonly live: boolean;
  readonly root: string;
  /** The real path on this machine for a node path (symlinks resolved inside the root). */
  realPath(nodePath: string, followLast?: boolean): Promise<string>;
  /** File bytes (follows symlinks); null when the path does not exist. */
  read(nodePath: string): Promise<Buffer | null>;
  /** lstat-like unless `follow`; null when missing. */
  stat(nodePath: string, follow?: boolean): Promise<NodeStat | null>;
  list(nodePath: string): Promise<string[] | null>;
  /** Replace or create a file atomically (writes through a symlink to its target). */
  writeAtomic(nodePath: string, data: Buffer | string, opts: WriteOptions): Promise<void>;
  /** rename(2) in the node's tree, then fsync both directories. Refuses to overwrite `to`. */
  rename(from: string, to: string): Promise<void>;
  remove(nodePath: string): Promise<void>;
  /** Whether the current user could create/replace files there (W_OK on the directory). */
  canWrite(nodePath: string): Promise<boolean>;
  /** Remove temp files this tool leaves only when killed mid-write; returns their node paths. */
  removeStaleTemps(dirNodePath: string): Promise<string[]>;
}

/** Temp names no runtime loads: no .conf/.conflist/.json/.toml/.yaml suffix, hidden. */
export const TEMP_PREFIX = '.cni-doctor-';
export const TEMP_SUFFIX = '.tmp';
export const isTempName = (name: string): boolean => /^\.cni-doctor-[0-9a-f]{16}\.tmp$/.test(name);
export const tempName = (): string =>
  `${TEMP_PREFIX}${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`;

export async function fsyncDir(dir: string): Promise<void> {
  let h: fsp.FileHandle | undefined;
  try {
    h = await fsp.open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    await h.sync();
  } catch (e) {
    // Windows cannot open a directory for fsync; NTFS metadata is journaled there.
    if (process.platform !== 'win32') throw e;
  } finally {
    await h?.close().catch(() => undefined);
  }
}

/** Write bytes to a new file and fsync it (the file must not exist: O_EXCL). */
export async function writeNewFileSynced(
  real: string,
  data: Buffer | string,
  mode: number,
  owner?: { uid: number; gid: number },
): Promise<void> {
  const h = await fsp.open(real, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await h.writeFile(data);
    // Owner and mode through the open descriptor (fchown/fchmod): never through a path someone
    // could swap for a link in the meantime. chown first, because chown clears set-uid/set-gid.
    if (owner) await h.chown(owner.uid, owner.gid);
    await h.chmod(mode);
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Atomic replace on this machine's file system (used for the node and for the journal). */
export async function atomicWriteReal(
  real: string,
  data: Buffer | string,
  opts: WriteOptions & { tempDirReal?: string },
): Promise<void> {
  const dir = path.dirname(real);
  const tmpDir = opts.tempDirReal ?? dir;
  const tmp = path.join(tmpDir, tempName());
  try {
    const owner =
      opts.uid !== undefined && opts.gid !== undefined && process.getuid?.() === 0
        ? { uid: opts.uid, gid: opts.gid }
        : undefined;
    await writeNewFileSynced(tmp, data, opts.mode, owner);
    opts.beforeRename?.();
    await fsp.rename(tmp, real);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  await fsyncDir(dir);
  if (tmpDir !== dir) await fsyncDir(tmpDir);
}

function toStat(st: import('node:fs').Stats): NodeStat {
  return {
    type: st.isFile()
      ? 'file'
      : st.isDirectory()
        ? 'dir'
        : st.isSymbolicLink()
          ? 'symlink'
          : 'other',
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
    mtimeMs: st.mtimeMs,
    size: st.size,
  };
}

const isMissing = (e: unknown): boolean =>
  ['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

export class LocalNodeFs implements NodeFs {
  readonly live: boolean;

  constructor(readonly root: string = '/') {
    this.live = root === '/' || path.resolve(root) === '/';
  }

  realPath(nodePath: string, followLast = true): Promise<string> {
    // Windows live paths are native already; a root only exists for Linux node disks.
    if (this.live) return Promise.resolve(nodePath);
    return resolveUnderRoot(this.root, nodePath, followLast);
  }

  async read(nodePath: string): Promise<Buffer | null> {
    try {
      return await fsp.readFile(await this.realPath(nodePath));
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async stat(nodePath: string, follow = false): Promise<NodeStat | null> {
    try {
      const real = await this.realPath(nodePath, follow);
      return toStat(follow ? await fsp.stat(real) : await fsp.lstat(real));
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async list(nodePath: string): Promise<string[] | null> {
    try {
      return await fsp.readdir(await this.realPath(nodePath));
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async writeAtomic(nodePath: string, data: Buffer | string, opts: WriteOptions): Promise<void> {
    // Through a symlink (config.toml → /etc/…/real.toml): replace the target, keep the link.
    const real = await this.realPath(nodePath, true);
    const tempDirReal =
      opts.tempDir !== undefined ? await this.realPath(opts.tempDir, true) : undefined;
    await atomicWriteReal(real, data, {
      ...opts,
      ...(tempDirReal !== undefined && { tempDirReal }),
    });
  }

  async rename(from: string, to: string): Promise<void> {
    const rf = await this.realPath(from, false);
    const rt = await this.realPath(to, false);
    // rename(2) silently replaces an existing target; a repair must never destroy a file.
    if (
      await fsp.lstat(rt).then(
        () => true,
        () => false,
      )
    )
      throw new Error(`${to} already exists; refusing to overwrite it`);
    await fsp.rename(rf, rt);
    await fsyncDir(path.dirname(rt));
    if (path.dirname(rf) !== path.dirname(rt)) await fsyncDir(path.dirname(rf));
  }

  async remove(nodePath: string): Promise<void> {
    const real = await this.realPath(nodePath, false);
    await fsp.rm(real, { force: true });
    await fsyncDir(path.dirname(real));
  }

  async canWrite(nodePath: string): Promise<boolean> {
    try {
      const real = await this.realPath(nodePath, true);
      await fsp.access(path.dirname(real), constants.W_OK);
      const exists = await fsp.lstat(real).then(
        () => true,
        () => false,
      );
      if (exists) await fsp.access(real, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  async removeStaleTemps(dirNodePath: string): Promise<string[]> {
    const names = await this.list(dirNodePath);
    if (!names) return [];
    const removed: string[] = [];
    const sep = dirNodePath.includes('\\') ? '\\' : '/';
    for (const n of names.filter(isTempName)) {
      const p = `${dirNodePath.replace(/[\\/]+$/, '')}${sep}${n}`;
      await this.remove(p);
      removed.push(p);
    }
    return removed;
  }
}
