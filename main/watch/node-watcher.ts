/**
 * Notices when what a scan read changes on disk: CNI conf dirs and config files of a node this
 * machine reads directly (the live node, or a node disk under --root).
 *
 * Two ways at once, because neither is enough alone:
 * - fs.watch (inotify on Linux) on each conf dir and on the folder holding each config file —
 *   the folder, not the file, because editors and tools replace a file by renaming a new one
 *   over it, which a watch on the old file never reports. Quick, but a watch can fail (inotify
 *   limits, a folder that does not exist yet) or stay silent (network and overlay file systems,
 *   some container mounts).
 * - polling: every `pollMs` the size, mtime and inode of each file and of each conf dir's entries
 *   are compared with what they were. Slow, but it sees every change fs.watch misses.
 * Events are debounced: a tool that writes five files is one change.
 */
import { watch as fsWatch, promises as fsp, type FSWatcher } from 'node:fs';
import { createHash } from 'node:crypto';
import * as path from 'node:path';

export interface WatchedPath {
  /** The node's own name for it (reported back in `onChange`). */
  nodePath: string;
  /** Where it is on this machine (under --root: inside the root). */
  localPath: string;
  kind: 'dir' | 'file';
}

export interface NodeWatcherOptions {
  onChange: (changedNodePaths: string[]) => void;
  /**
   * When the scan being watched began (ms since the epoch): a path written after it, before the
   * watch was in place (during the scan), is reported as changed as soon as the watch starts.
   */
  changedSince?: number;
  debounceMs?: number;
  pollMs?: number;
  /** At most this many fs.watch handles (folders); the rest is polled. */
  maxWatches?: number;
  /** A conf dir's signature reads at most this many entries. */
  maxEntries?: number;
  /** Seam for tests: a watch that fails or never fires. */
  watch?: (dir: string, listener: (event: string, file: string | null) => void) => FSWatcher;
}

export const WATCH_DEFAULTS = { debounceMs: 300, pollMs: 2000, maxWatches: 32, maxEntries: 2000 };

async function fileSignature(p: string): Promise<string> {
  try {
    const st = await fsp.stat(p);
    return `${st.isDirectory() ? 'd' : 'f'}:${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch (e) {
    return `error:${(e as NodeJS.ErrnoException).code ?? 'OTHER'}`;
  }
}

async function dirSignature(p: string, maxEntries: number): Promise<string> {
  let names: string[];
  try {
    names = (await fsp.readdir(p)).sort().slice(0, maxEntries);
  } catch (e) {
    return `error:${(e as NodeJS.ErrnoException).code ?? 'OTHER'}`;
  }
  const h = createHash('sha256');
  for (const n of names) h.update(`${n}\0${await fileSignature(path.join(p, n))}\n`);
  return h.digest('hex');
}

/**
 * The newest modification time of a watched path: a file's own; a folder's own (entries added,
 * removed or renamed) or any of its entries'. 0 when it cannot be read (nothing to compare).
 */
async function newestChange(p: WatchedPath, maxEntries: number): Promise<number> {
  const mtime = (f: string): Promise<number> =>
    fsp.stat(f).then(
      (st) => st.mtimeMs,
      () => 0,
    );
  let newest = await mtime(p.localPath);
  if (p.kind === 'dir') {
    const names = await fsp.readdir(p.localPath).catch(() => [] as string[]);
    for (const n of names.slice(0, maxEntries))
      newest = Math.max(newest, await mtime(path.join(p.localPath, n)));
  }
  return newest;
}

export class NodeWatcher {
  private readonly baseline = new Map<string, string>();
  private readonly watchers: FSWatcher[] = [];
  private debounce: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private readonly o: Required<Omit<NodeWatcherOptions, 'watch' | 'changedSince'>> &
    Pick<NodeWatcherOptions, 'watch'>;
  private readonly changedSince: number | undefined;

  private constructor(
    private readonly paths: readonly WatchedPath[],
    opts: NodeWatcherOptions,
  ) {
    this.o = { ...WATCH_DEFAULTS, ...opts };
    this.changedSince = opts.changedSince;
  }

  /** Takes the first signatures, then starts watching and polling. */
  static async start(
    paths: readonly WatchedPath[],
    opts: NodeWatcherOptions,
  ): Promise<NodeWatcher> {
    const w = new NodeWatcher(paths, opts);
    for (const p of paths) w.baseline.set(p.nodePath, await w.signature(p));
    w.startWatches();
    w.poll = setInterval(() => w.check(), w.o.pollMs);
    w.poll.unref();
    if (w.changedSince !== undefined) {
      const since = w.changedSince;
      const during: string[] = [];
      // Whole milliseconds on both sides: Date.now() drops the fraction an mtime keeps, and a
      // file written in the very millisecond the scan began would otherwise count as later.
      for (const p of paths)
        if (Math.floor(await newestChange(p, w.o.maxEntries)) > since) during.push(p.nodePath);
      // After start() has returned, as every other change is reported.
      if (during.length > 0) setImmediate(() => !w.closed && w.o.onChange(during));
    }
    return w;
  }

  /** How many folders and files are watched. */
  get pathCount(): number {
    return this.paths.length;
  }

  /** How many folders fs.watch follows (0: polling only). */
  get eventWatches(): number {
    return this.watchers.length;
  }

  get mode(): 'events' | 'polling' {
    return this.watchers.length > 0 ? 'events' : 'polling';
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.debounce);
    clearInterval(this.poll);
    for (const w of this.watchers.splice(0)) w.close();
  }

  private signature(p: WatchedPath): Promise<string> {
    return p.kind === 'dir'
      ? dirSignature(p.localPath, this.o.maxEntries)
      : fileSignature(p.localPath);
  }

  private startWatches(): void {
    // Folder → the file names in it that matter (null: every entry, a conf dir).
    const folders = new Map<string, Set<string> | null>();
    for (const p of this.paths) {
      if (p.kind === 'dir') folders.set(p.localPath, null);
      else {
        const dir = path.dirname(p.localPath);
        const names = folders.get(dir);
        if (names === null) continue;
        folders.set(dir, new Set([...(names ?? []), path.basename(p.localPath)]));
      }
    }
    const open = this.o.watch ?? ((dir, fn) => fsWatch(dir, { persistent: false }, fn));
    for (const [dir, names] of [...folders].slice(0, this.o.maxWatches)) {
      try {
        const w = open(dir, (_event, file) => {
          if (names === null || file === null || names.has(String(file))) this.schedule();
        });
        // A watch that breaks (its folder removed, the file system unmounted) leaves polling.
        w.on('error', () => {
          w.close();
          const i = this.watchers.indexOf(w);
          if (i >= 0) this.watchers.splice(i, 1);
          this.schedule();
        });
        this.watchers.push(w);
      } catch {
        // No such folder yet, or no inotify watches left: polling covers it.
      }
    }
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.check(), this.o.debounceMs);
    this.debounce.unref();
  }

  /** Compares every path with its baseline; one comparison at a time. */
  private check(): void {
    if (this.closed) return;
    if (this.checking) {
      this.again = true;
      return;
    }
    this.checking = (async () => {
      const changed: string[] = [];
      for (const p of this.paths) {
        const sig = await this.signature(p);
        if (sig !== this.baseline.get(p.nodePath)) {
          this.baseline.set(p.nodePath, sig);
          changed.push(p.nodePath);
        }
      }
      if (changed.length > 0 && !this.closed) this.o.onChange(changed);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.checking = undefined;
        if (this.again) {
          this.again = false;
          this.check();
        }
      });
  }

  /** Tests: resolves when no comparison is running. */
  async settled(): Promise<void> {
    await this.checking;
  }
}
