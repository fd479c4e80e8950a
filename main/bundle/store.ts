/**
 * Access to a bundle's `files/` tree, from a folder or from a .tar.gz unpacked once into a
 * private folder. Both refuse paths that escape `files/` (`..`, absolute names, symlinks
 * pointing outside).
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  promises as fsp,
  readFileSync,
  readSync,
  readdirSync,
  realpathSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { join, sep } from 'node:path';
import { BUNDLE_LIMITS } from './limits';
import { removeUnpacked, unpackArchive, type UnpackedArchive } from './archive-unpack';
import { BundleError, isSafeRel, type ArchiveLimits } from './store-common';

/** `size` is the whole file's; `data` is the part asked for (the head, or the tail). */
export type StoreRead =
  | { ok: true; data: Buffer; size: number }
  | { ok: false; error: 'ENOENT' | 'EACCES' | 'EISDIR' | 'OTHER'; message: string };

/**
 * Which part of a file to read: the first `maxBytes`, or the last `tailBytes`. Never more than
 * maxEntryBytes either way, so a huge file in a bundle folder cannot exhaust memory.
 */
export interface ReadRange {
  maxBytes?: number;
  tailBytes?: number;
}

export function span(size: number, range: ReadRange): { start: number; length: number } {
  if (range.tailBytes !== undefined) {
    const length = Math.min(size, range.tailBytes, BUNDLE_LIMITS.maxEntryBytes);
    return { start: size - length, length };
  }
  return {
    start: 0,
    length: Math.min(size, range.maxBytes ?? Infinity, BUNDLE_LIMITS.maxEntryBytes),
  };
}

export interface BundleStore {
  readonly label: string;
  readManifest(): Promise<string>;
  /** `rel` is relative to files/, `/`-separated. */
  read(rel: string, range?: ReadRange): Promise<StoreRead>;
  /** Every file under files/ (relative, `/`-separated). */
  listFiles(): Promise<string[]>;
  /**
   * Folders under files/ that hold nothing (a hand-made bundle's empty conf dir): a folder under
   * files/ lists exactly what it holds (docs/bundle-format.md), so empty is empty, not unrecorded.
   */
  listEmptyDirs?(): Promise<string[]>;
  /** Frees what the store holds (an unpacked archive's folder). */
  close?(): Promise<void>;
}

export { BundleError, type ArchiveLimits } from './store-common';

function readError(rel: string, e: unknown): StoreRead {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, error: 'ENOENT', message: `${rel} not in bundle` };
  if (code === 'EACCES')
    return { ok: false, error: 'EACCES', message: `${rel}: permission denied` };
  if (code === 'EISDIR') return { ok: false, error: 'EISDIR', message: `${rel} is a directory` };
  return { ok: false, error: 'OTHER', message: `${rel}: ${(e as Error).message}` };
}

function notRegular(rel: string, st: Stats): StoreRead | undefined {
  if (st.isDirectory()) return { ok: false, error: 'EISDIR', message: `${rel} is a directory` };
  if (!st.isFile()) return { ok: false, error: 'OTHER', message: `${rel} is not a regular file` };
  return undefined;
}

// O_NONBLOCK: a FIFO placed in the bundle must not block the open; it is refused by notRegular.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Reads `range` of the regular file at `p` (`rel` names it in messages). */
async function readPathRange(p: string, rel: string, range: ReadRange): Promise<StoreRead> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(p, OPEN_FLAGS);
    const st = await handle.stat();
    const refused = notRegular(rel, st);
    if (refused) return refused;
    const { start, length } = span(st.size, range);
    const data = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await handle.read(data, got, length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { ok: true, data: data.subarray(0, got), size: st.size };
  } catch (e) {
    return readError(rel, e);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The same, with blocking calls (a one-shot CLI run: see main/host/linux/file-io.ts). */
function readPathRangeBlocking(p: string, rel: string, range: ReadRange): StoreRead {
  let fd: number | undefined;
  try {
    fd = openSync(p, OPEN_FLAGS);
    const st = fstatSync(fd);
    const refused = notRegular(rel, st);
    if (refused) return refused;
    const { start, length } = span(st.size, range);
    const data = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const bytesRead = readSync(fd, data, got, length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { ok: true, data: data.subarray(0, got), size: st.size };
  } catch (e) {
    return readError(rel, e);
  } finally {
    if (fd !== undefined)
      try {
        closeSync(fd);
      } catch {
        // nothing read is lost by a failed close
      }
  }
}

/** A bundle unpacked as a folder. Reads lazily; checks every file's real path stays inside. */
export class DirectoryStore implements BundleStore {
  readonly label: string;
  private readonly filesRoot: string;
  private realFilesRoot: string | undefined;

  /**
   * `blocking`: make the file calls synchronously (a one-shot CLI run, whose event loop has
   * nothing else to do; a dozen thread-pool hand-offs per file were most of a small scan's wait).
   */
  constructor(
    private readonly dir: string,
    label?: string,
    private readonly blocking = false,
  ) {
    this.label = label ?? `bundle ${dir}`;
    this.filesRoot = join(dir, 'files');
  }

  private realpath(p: string): Promise<string> {
    return this.blocking ? Promise.resolve().then(() => realpathSync.native(p)) : fsp.realpath(p);
  }

  async readManifest(): Promise<string> {
    const p = join(this.dir, 'manifest.json');
    let st;
    try {
      st = this.blocking ? statSync(p) : await fsp.stat(p);
    } catch {
      throw new BundleError(`${this.dir} is not a bundle: manifest.json is missing`);
    }
    if (!st.isFile()) throw new BundleError(`${p} is not a regular file`);
    if (st.size > BUNDLE_LIMITS.maxManifestBytes)
      throw new BundleError(`manifest.json is too large (${st.size} bytes)`);
    return this.blocking ? readFileSync(p, 'utf8') : fsp.readFile(p, 'utf8');
  }

  private async inside(rel: string): Promise<string | undefined> {
    if (!isSafeRel(rel)) return undefined;
    this.realFilesRoot ??= await this.realpath(this.filesRoot).catch(() => this.filesRoot);
    const candidate = join(this.filesRoot, ...rel.split('/'));
    const real = await this.realpath(candidate).catch(() => undefined);
    if (real === undefined) return candidate; // missing: the read reports ENOENT
    if (real !== this.realFilesRoot && !real.startsWith(this.realFilesRoot + sep)) return undefined;
    return real;
  }

  async read(rel: string, range: ReadRange = {}): Promise<StoreRead> {
    const p = await this.inside(rel);
    if (p === undefined)
      return { ok: false, error: 'EACCES', message: `bundle path escapes files/: ${rel}` };
    return this.blocking ? readPathRangeBlocking(p, rel, range) : readPathRange(p, rel, range);
  }

  private async readdir(abs: string): Promise<Dirent[]> {
    try {
      return this.blocking
        ? readdirSync(abs, { withFileTypes: true })
        : await fsp.readdir(abs, { withFileTypes: true });
    } catch {
      return [];
    }
  }

  async listFiles(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
      if (depth > 64 || out.length > BUNDLE_LIMITS.maxEntries) return;
      const entries = await this.readdir(abs);
      for (const e of entries) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        // Symlinks are not followed while listing: a loop or an escape cannot be walked into.
        if (e.isDirectory()) await walk(join(abs, e.name), r, depth + 1);
        else if (e.isFile()) out.push(r);
      }
    };
    await walk(this.filesRoot, '', 0);
    return out;
  }

  async listEmptyDirs(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
      if (depth > 64 || out.length > BUNDLE_LIMITS.maxEntries) return;
      const entries = await this.readdir(abs);
      if (entries.length === 0 && rel) out.push(rel);
      for (const e of entries)
        if (e.isDirectory())
          await walk(join(abs, e.name), rel ? `${rel}/${e.name}` : e.name, depth + 1);
    };
    await walk(this.filesRoot, '', 0);
    return out;
  }
}

/**
 * A .tar.gz bundle, unpacked once as it streams (archive-unpack.ts): small files held in memory
 * under a budget, large ones read lazily from a private folder. The archive is never held whole
 * in memory, and every scan of the same store reads the same unpacked files. `close()` removes
 * the folder (process exit does too).
 */
export class ArchiveStore implements BundleStore {
  readonly label: string;
  private constructor(
    file: string,
    private readonly unpacked: UnpackedArchive & { manifest: string },
  ) {
    this.label = `bundle ${file}`;
  }

  static async open(
    file: string,
    limits: ArchiveLimits = BUNDLE_LIMITS,
    tmpRoot?: string,
  ): Promise<ArchiveStore> {
    const unpacked = await unpackArchive(file, limits, tmpRoot);
    const manifest = unpacked.manifest;
    if (manifest === undefined) {
      await removeUnpacked(unpacked.dir);
      throw new BundleError(`${file} is not a bundle: manifest.json is missing`);
    }
    return new ArchiveStore(file, { ...unpacked, manifest });
  }

  async readManifest(): Promise<string> {
    return this.unpacked.manifest;
  }

  async read(rel: string, range: ReadRange = {}): Promise<StoreRead> {
    if (!isSafeRel(rel))
      return { ok: false, error: 'EACCES', message: `bundle path escapes files/: ${rel}` };
    const data = this.unpacked.memory.get(rel);
    if (data) {
      const { start, length } = span(data.length, range);
      return { ok: true, data: data.subarray(start, start + length), size: data.length };
    }
    const spilled = this.unpacked.disk.get(rel);
    if (spilled !== undefined) return readPathRange(spilled, rel, range);
    return { ok: false, error: 'ENOENT', message: `${rel} not in bundle` };
  }

  async listFiles(): Promise<string[]> {
    return [...this.unpacked.memory.keys(), ...this.unpacked.disk.keys()];
  }

  async close(): Promise<void> {
    await removeUnpacked(this.unpacked.dir);
  }
}

export async function openBundleStore(
  p: string,
  opts: { blockingIo?: boolean } = {},
): Promise<BundleStore> {
  let st;
  try {
    st = opts.blockingIo ? statSync(p) : await fsp.stat(p);
  } catch (e) {
    // Words, not errno codes: a newcomer read "ENOENT" as a crash (newcomer review, journey 5).
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file or folder'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'ENOTDIR'
            ? 'a part of the path is not a folder'
            : (code ?? (e as Error).message);
    throw new BundleError(`cannot open bundle ${p}: ${why}`);
  }
  if (st.isDirectory()) return new DirectoryStore(p, undefined, opts.blockingIo);
  if (st.isFile()) return ArchiveStore.open(p);
  throw new BundleError(`${p} is neither a folder nor a .tar.gz file`);
}
