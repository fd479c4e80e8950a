/**
 * Whether the executable the desktop app would elevate can be changed by someone other than root.
 * pkexec runs the file at that path as root: if the user (or anything running as the user) can
 * rewrite it — an AppImage in the home folder, its FUSE mount, an unpacked dev build — then
 * "elevate this app" means "run as root whatever is there by then". So the file and every folder
 * above it must be root-owned and not writable by group or others.
 */
import { lstatSync, type Stats } from 'node:fs';
import * as path from 'node:path';

export type LstatFn = (p: string) => Pick<Stats, 'uid' | 'mode' | 'isSymbolicLink'>;

/** Why `exe` is unsafe to elevate on Linux, or null when only root can change it. */
export function writableByNonRoot(exe: string, lstat: LstatFn = lstatSync): string | null {
  let p = path.posix.resolve(exe);
  for (;;) {
    let st: ReturnType<LstatFn>;
    try {
      st = lstat(p);
    } catch (e) {
      return `${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    if (st.isSymbolicLink()) return `${p} is a symbolic link`;
    if (st.uid !== 0) return `${p} is owned by uid ${st.uid}, not root`;
    if ((st.mode & 0o022) !== 0) return `${p} is writable by its group or by others`;
    const parent = path.posix.dirname(p);
    if (parent === p) return null;
    p = parent;
  }
}
