/**
 * A directory only root (or the invoking user) can change: where the journal, the backups and the
 * node locks live. Everything in it is trusted as much as our own writes, so the check is the
 * trust boundary (docs/security.md "State dir"):
 *
 *   - every component from `/` down is a real directory, never a symlink (lstat walk, like
 *     systemd's chase() with CHASE_SAFE and OpenSSH's safe_path());
 *   - each is owned by root or by the invoking user;
 *   - no ancestor is writable by group or others unless it is sticky (`/tmp`, `/run/lock`): in a
 *     sticky directory nobody else can rename or remove the entry we own below it;
 *   - the directory itself is writable by its owner only.
 *
 * Missing components are created with mode 0700 by mkdir(2), which never follows a symlink at its
 * last component, and are checked again after creation (someone may have won a race in a sticky
 * parent). Once the walk passes, no other user can swap any component, so later opens by path
 * stay inside — the same argument sudo makes for /etc/sudoers and its timestamp dir.
 */
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { UnsafeStateDir } from './errors';
import { windowsSecureDir } from './windows-acl';

export { UnsafeStateDir };

const S_ISVTX = 0o1000;

export interface SecureDirOptions {
  /** Create missing components (0700). Without it a missing directory is reported as null. */
  create: boolean;
  /** Users besides root allowed to own components (default: the effective uid). */
  owners?: readonly number[];
  /** Words for messages ("state dir", "lock dir"). */
  what?: string;
}

function owners(o: SecureDirOptions): number[] {
  const uid = process.geteuid?.() ?? 0;
  return [0, uid, ...(o.owners ?? [])];
}

/** Why one existing component is unsafe, or null. `leaf`: the directory itself. */
export function componentProblem(
  p: string,
  st: { isSymbolicLink(): boolean; isDirectory(): boolean; uid: number; mode: number },
  allowed: readonly number[],
  leaf: boolean,
): string | null {
  if (st.isSymbolicLink()) return `${p} is a symlink`;
  if (!st.isDirectory()) return `${p} is not a directory`;
  if (!allowed.includes(st.uid)) return `${p} is owned by uid ${st.uid}, not root or this user`;
  const othersWrite = (st.mode & 0o022) !== 0;
  if (othersWrite && (leaf || (st.mode & S_ISVTX) === 0))
    return `${p} is writable by ${st.mode & 0o002 ? 'every user' : 'its group'} (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')})`;
  return null;
}

/**
 * Checks (and with `create`, makes) `dir` as a secure directory. Returns its absolute path, or
 * null when it does not exist and `create` is false. Throws UnsafeStateDir with the reason.
 */
export async function secureDir(dir: string, o: SecureDirOptions): Promise<string | null> {
  if (process.platform === 'win32') return windowsSecureDir(dir, o.create, o.what);
  const what = o.what ?? 'state dir';
  const abs = path.resolve(dir);
  const allowed = owners(o);
  const parts = abs.split('/').filter((s) => s !== '');
  let cur = '/';
  for (let i = 0; i <= parts.length; i++) {
    if (i > 0) cur = path.join(cur, parts[i - 1] as string);
    const leaf = i === parts.length;
    let st = await fsp.lstat(cur).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw new UnsafeStateDir(`cannot check the ${what} ${abs}: ${cur}: ${e.message}`);
    });
    if (st === null) {
      if (!o.create) return null;
      try {
        await fsp.mkdir(cur, { mode: 0o700 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new UnsafeStateDir(`cannot create the ${what} ${abs}: ${(e as Error).message}`);
      }
      st = await fsp.lstat(cur);
    }
    const why = componentProblem(cur, st, allowed, leaf);
    if (why)
      throw new UnsafeStateDir(
        `refusing the ${what} ${abs}: ${why}; another user could plant or swap what cni-doctor trusts there. Nothing was done. Use a directory only root can write (default /var/lib/cni-doctor)`,
      );
    // Backups may hold credentials: the directory itself is readable by its owner only.
    if (leaf && (st.mode & 0o077) !== 0) await fsp.chmod(cur, 0o700);
  }
  return abs;
}

/** Opens a file inside a secure directory without following a symlink at its name. */
export function openNoFollow(p: string, flags: number, mode?: number): Promise<fsp.FileHandle> {
  return fsp.open(p, flags | (constants.O_NOFOLLOW ?? 0), mode);
}
