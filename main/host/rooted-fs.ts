/**
 * Resolves node paths against a root folder (`--root /mnt/node`) the way the node's kernel would:
 * absolute symlink targets are taken relative to the root, never to this machine, and `..` never
 * climbs above it. Loops end in ELOOP after 40 hops, as in Linux.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const MAX_HOPS = 40;

export class ResolveError extends Error {
  constructor(
    readonly code: 'ELOOP' | 'ENOENT' | 'EACCES' | 'ENOTDIR' | 'OTHER',
    message: string,
  ) {
    super(message);
  }
}

/** The real path on this machine for node path `p` under `root`; `followLast` like stat vs lstat. */
export async function resolveUnderRoot(
  root: string,
  p: string,
  followLast: boolean,
): Promise<string> {
  if (root === '/') return p;
  let pending = p.split('/').filter((s) => s !== '' && s !== '.');
  const done: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const seg = pending.shift() as string;
    if (seg === '..') {
      done.pop();
      continue;
    }
    const candidate = path.join(root, ...done, seg);
    const isLast = pending.length === 0;
    let st;
    try {
      st = await fsp.lstat(candidate);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // The rest does not exist: the caller's operation reports ENOENT itself.
        return path.join(root, ...done, seg, ...pending);
      }
      throw new ResolveError(
        code === 'EACCES' ? 'EACCES' : 'OTHER',
        `${p}: ${(e as Error).message}`,
      );
    }
    if (st.isSymbolicLink() && (!isLast || followLast)) {
      hops += 1;
      if (hops > MAX_HOPS)
        throw new ResolveError('ELOOP', `${p}: too many levels of symbolic links`);
      const target = await fsp.readlink(candidate);
      const targetSegs = target.split('/').filter((s) => s !== '' && s !== '.');
      if (target.startsWith('/')) done.length = 0;
      pending = [...targetSegs, ...pending];
      continue;
    }
    done.push(seg);
  }
  return path.join(root, ...done);
}
