/**
 * Resolves node paths against a root folder (`--root /mnt/node`) the way the node's kernel would:
 * absolute symlink targets are taken relative to the root, never to this machine, and `..` never
 * climbs above it. Loops end in ELOOP after 40 hops, as in Linux.
 */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { threadPoolIo, type FileIo } from './linux/file-io';

/** The two calls a walk makes; either flavour of FileIo (see file-io.ts) answers alike. */
type WalkIo = Pick<FileIo, 'lstat' | 'readlink'>;

const MAX_HOPS = 40;

export class ResolveError extends Error {
  constructor(
    readonly code: 'ELOOP' | 'ENOENT' | 'EACCES' | 'ENOTDIR' | 'OTHER',
    message: string,
  ) {
    super(message);
  }
}

export interface Located {
  real: string;
  /** lstat of `real` (for a followed symlink: of its final target), when the walk made it. */
  stats?: Stats;
}

/** Why a walk stopped; the caller names the path it was asked about. */
class WalkError {
  constructor(
    readonly code: 'ELOOP' | 'EACCES' | 'OTHER',
    readonly reason: string,
  ) {}
}

/** Where a walk got to: resolved segments under the root, symlink hops spent, and the rest. */
interface Walk {
  done: readonly string[];
  hops: number;
  /** Set when a component did not exist: the unresolved remainder (the caller's open fails). */
  missing?: readonly string[];
  /** The lstat of the final component when the walk ended on it (it is what the path names). */
  last?: Stats;
}

const segmentsOf = (p: string): string[] => p.split('/').filter((s) => s !== '' && s !== '.');

/** Walks `pending` component by component from `from`, following symlinks inside the root. */
async function walk(
  root: string,
  from: Walk,
  pendingIn: readonly string[],
  followLast: boolean,
  io: WalkIo,
): Promise<Walk> {
  let pending = [...pendingIn];
  const done = [...from.done];
  let hops = from.hops;
  let last: Stats | undefined;
  while (pending.length > 0) {
    const seg = pending.shift() as string;
    last = undefined;
    if (seg === '..') {
      done.pop();
      continue;
    }
    // Plain concatenation, only for the lstat/readlink below: no segment is empty, `.` or `..`
    // here, and the kernel reads a `//` or `/./` the root may hold as path.join would write it.
    // Normalising the whole path at every step of every walk cost more than the lstat itself.
    const candidate = `${root}/${done.length ? `${done.join('/')}/` : ''}${seg}`;
    const isLast = pending.length === 0;
    let st;
    try {
      st = await io.lstat(candidate);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // The rest does not exist: the caller's operation reports ENOENT itself.
      if (code === 'ENOENT' || code === 'ENOTDIR')
        return { done, hops, missing: [seg, ...pending] };
      throw new WalkError(code === 'EACCES' ? 'EACCES' : 'OTHER', (e as Error).message);
    }
    if (st.isSymbolicLink() && (!isLast || followLast)) {
      hops += 1;
      if (hops > MAX_HOPS) throw new WalkError('ELOOP', 'too many levels of symbolic links');
      const target = await io.readlink(candidate);
      if (target.startsWith('/')) done.length = 0;
      pending = [...segmentsOf(target), ...pending];
      continue;
    }
    done.push(seg);
    last = st;
  }
  return { done, hops, ...(last && { last }) };
}

const realOf = (root: string, w: Walk): string => path.join(root, ...w.done, ...(w.missing ?? []));

function asResolveError(p: string, e: unknown): unknown {
  return e instanceof WalkError ? new ResolveError(e.code, `${p}: ${e.reason}`) : e;
}

/** The real path on this machine for node path `p` under `root`; `followLast` like stat vs lstat. */
export async function resolveUnderRoot(
  root: string,
  p: string,
  followLast: boolean,
  io: WalkIo = threadPoolIo,
): Promise<string> {
  if (root === '/') return p;
  try {
    return realOf(root, await walk(root, { done: [], hops: 0 }, segmentsOf(p), followLast, io));
  } catch (e) {
    throw asResolveError(p, e);
  }
}

/**
 * The same resolution with each directory walked once: a scan reads thousands of files in a few
 * directories, and lstat-ing /etc, /etc/cni and /etc/cni/net.d again for every file was a fifth
 * of the scan's CPU. Only the last component is looked at per call. Answers are identical to
 * resolveUnderRoot's (same hops budget, same `..` handling, same errors); the cache lives as long
 * as this object, so make one per scan — a node that changes between scans is seen afresh.
 */
export class RootResolver {
  private readonly dirs = new Map<string, Promise<Walk>>();
  private readonly located = new Map<string, Promise<Located>>();
  private readonly places = new WeakMap<Walk, { prefix: string; real: string }>();

  constructor(
    readonly root: string,
    private readonly io: WalkIo = threadPoolIo,
  ) {}

  async resolve(p: string, followLast: boolean): Promise<string> {
    return (await this.locate(p, followLast)).real;
  }

  /**
   * The real path and, when the walk already lstat-ed what it names, that answer (so a stat
   * after it costs nothing). Remembered per path: a scan stats and then reads the same file.
   */
  locate(p: string, followLast: boolean): Promise<Located> {
    const key = `${followLast ? 'f' : 'l'}${p}`;
    let r = this.located.get(key);
    if (r === undefined) this.located.set(key, (r = this.locateOnce(p, followLast)));
    return r;
  }

  private async locateOnce(p: string, followLast: boolean): Promise<Located> {
    if (this.root === '/') return { real: p };
    const segs = segmentsOf(p);
    // `..` applies to the resolved path so far: walk those paths whole, as before.
    if (segs.length === 0 || segs.includes('..'))
      return { real: await resolveUnderRoot(this.root, p, followLast, this.io) };
    try {
      const dir = await this.dir(segs.slice(0, -1));
      const name = segs[segs.length - 1] as string;
      if (dir.missing)
        return { real: realOf(this.root, { ...dir, missing: [...dir.missing, name] }) };
      // The last part, as walk() would take it, without its copies and path.join per file: the
      // same lstat of the same string, the same answers (rooted-fs.test.ts compares them).
      const at = this.placeOf(dir);
      const real = at.real.endsWith('/') ? `${at.real}${name}` : `${at.real}/${name}`;
      let st: Stats;
      try {
        st = await this.io.lstat(`${at.prefix}${name}`);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // The rest does not exist: the caller's operation reports ENOENT itself.
        if (code === 'ENOENT' || code === 'ENOTDIR') return { real };
        throw new WalkError(code === 'EACCES' ? 'EACCES' : 'OTHER', (e as Error).message);
      }
      if (st.isSymbolicLink() && followLast) {
        // A link to follow: walk on from its target, as walk() does after this lstat.
        if (dir.hops + 1 > MAX_HOPS)
          throw new WalkError('ELOOP', 'too many levels of symbolic links');
        const target = await this.io.readlink(`${at.prefix}${name}`);
        const from = { done: target.startsWith('/') ? [] : dir.done, hops: dir.hops + 1 };
        const w = await walk(this.root, from, segmentsOf(target), true, this.io);
        return { real: realOf(this.root, w), ...(w.last && { stats: w.last }) };
      }
      const located = { real, stats: st };
      // A last part that is no symlink names the same thing followed or not: a probe that
      // stats a config and then lstats it (is it a link?) walks it once, not twice.
      if (!st.isSymbolicLink()) {
        const other = `${followLast ? 'l' : 'f'}${p}`;
        if (!this.located.has(other)) this.located.set(other, Promise.resolve(located));
      }
      return located;
    } catch (e) {
      throw asResolveError(p, e);
    }
  }

  /** Where a resolved directory is: the prefix walk() lstats its entries by, and its real path. */
  private placeOf(dir: Walk): { prefix: string; real: string } {
    let at = this.places.get(dir);
    if (at === undefined) {
      const d = dir.done;
      at = {
        prefix: `${this.root}/${d.length ? `${d.join('/')}/` : ''}`,
        real: realOf(this.root, dir),
      };
      this.places.set(dir, at);
    }
    return at;
  }

  /** A directory's walk (symlinks followed), from its parent's cached walk. */
  private dir(segs: readonly string[]): Promise<Walk> {
    const key = segs.join('/');
    let w = this.dirs.get(key);
    if (w === undefined) {
      w =
        segs.length === 0
          ? Promise.resolve({ done: [], hops: 0 })
          : this.dir(segs.slice(0, -1)).then((parent) => {
              const last = segs[segs.length - 1] as string;
              return parent.missing
                ? { done: parent.done, hops: parent.hops, missing: [...parent.missing, last] }
                : walk(this.root, parent, [last], true, this.io);
            });
      this.dirs.set(key, w);
    }
    return w;
  }
}
