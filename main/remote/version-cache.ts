/**
 * `--version` answers of a node's binaries (its CNI plugins, its kubelet) remembered between scans
 * of the node, under the binary's identity on that node (inode, mtime, ctime: the agent's `I`
 * record). They change rarely and are asked on every scan: each answer is a Go program started on
 * the node (a kubelet's is ~100 MB), and a remote scan waits for them before it asks CRI (the
 * plugins' were 14-18 ms of a container scan here).
 *
 * Only an accelerator, and only ever believed for the very same file:
 * - The key holds the target, the node's hostname, the path and all three numbers. Writing a
 *   binary changes its ctime, which no user can set back; replacing it changes its inode.
 * - A file changed in the last FRESH_SECONDS is not remembered: two writes within one second
 *   would leave the same numbers (the node's clock may also differ from ours).
 * - Only an answer the caller could read is kept (a plugin's names the CNI versions it speaks, a
 *   kubelet's its version); a failure (wrong architecture, not executable) is asked every time.
 * - The file is the user's own, written whole then renamed, read only when it is a regular file
 *   this user owns that nobody else may write; anything doubtful is an empty cache.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export interface VersionCache {
  /** The `--version` output remembered for this key, if any. */
  get(key: string): string | undefined;
  /** The caller's to judge: only an answer it could read is worth remembering. */
  remember(key: string, output: string): void;
  /** Keeps what was learnt (the file cache writes it; the memory one has nothing to do). */
  save(): void;
}

/** The key of one binary on one node; undefined when it may not be remembered. */
export function versionKey(
  target: string,
  hostname: string,
  path: string,
  identity: string | undefined,
  nowSeconds = Date.now() / 1000,
): string | undefined {
  if (identity === undefined) return undefined;
  const ctime = Number(identity.split(' ')[2]);
  if (!Number.isFinite(ctime) || ctime > nowSeconds - FRESH_SECONDS) return undefined;
  return JSON.stringify([target, hostname, path, identity]);
}

/** Changed more recently than this (by the node's clock against ours): not remembered. */
export const FRESH_SECONDS = 300;
/** A few dozen plugins per node, for a dozen nodes; the file stays well under MAX_FILE_BYTES. */
export const MAX_ENTRIES = 500;
/** The agent keeps 4 KiB of `--version` output. */
const MAX_OUTPUT = 4096;
const MAX_KEY = 2048;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Held in this process only: serve and the desktop app scan the same nodes again and again. */
export class MemoryVersionCache implements VersionCache {
  /** Insertion order is use order: the first entry is the least recently used. */
  protected readonly entries = new Map<string, string>();
  protected changed = false;

  get(key: string): string | undefined {
    const v = this.entries.get(key);
    if (v === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, v);
    return v;
  }

  remember(key: string, output: string): void {
    if (key.length > MAX_KEY || output.length > MAX_OUTPUT) return;
    if (this.entries.get(key) === output) return;
    this.entries.delete(key);
    this.entries.set(key, output);
    this.changed = true;
    while (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  save(): void {
    this.changed = false;
  }
}

const FILE_NAME = 'plugin-versions.json';
const FORMAT = 'cni-doctor.plugin-versions/v1';

/**
 * In `dir` (the user's cache directory, already checked as theirs: cache-dir.ts ownCacheDir),
 * read when first asked (most commands ask nothing), written at save() when something was learnt.
 */
export class FileVersionCache extends MemoryVersionCache {
  private readonly file: string;
  private loaded = false;

  constructor(private readonly dir: string) {
    super();
    this.file = join(dir, FILE_NAME);
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    for (const [k, v] of readEntries(this.file)) if (!this.entries.has(k)) this.entries.set(k, v);
  }

  override get(key: string): string | undefined {
    this.load();
    return super.get(key);
  }

  override remember(key: string, output: string): void {
    this.load();
    super.remember(key, output);
  }

  override save(): void {
    if (!this.changed) return;
    this.changed = false;
    const tmp = join(this.dir, `.${FILE_NAME}.${process.pid}.tmp`);
    try {
      const body = JSON.stringify({ format: FORMAT, entries: [...this.entries] });
      writeFileSync(tmp, body, { mode: 0o600, flag: 'wx' });
      renameSync(tmp, this.file);
    } catch {
      // Not written: the next scan asks the node again, nothing worse.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing left to do
      }
    }
  }
}

function readEntries(file: string): [string, string][] {
  let fd: number | undefined;
  try {
    // O_NOFOLLOW: a symlink planted in the cache's place is not followed (ELOOP).
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return [];
    if (process.platform !== 'win32') {
      if (st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0) return [];
    }
    const buf = Buffer.alloc(st.size);
    if (readSync(fd, buf, 0, st.size, 0) !== st.size) return [];
    const parsed: unknown = JSON.parse(buf.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return [];
    const { format, entries } = parsed as { format?: unknown; entries?: unknown };
    if (format !== FORMAT || !Array.isArray(entries)) return [];
    const out: [string, string][] = [];
    for (const e of entries.slice(-MAX_ENTRIES) as unknown[]) {
      if (!Array.isArray(e) || e.length !== 2) continue;
      const [k, v] = e as unknown[];
      if (typeof k !== 'string' || typeof v !== 'string') continue;
      if (k.length > MAX_KEY || v.length > MAX_OUTPUT) continue;
      out.push([k, v]);
    }
    return out;
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
