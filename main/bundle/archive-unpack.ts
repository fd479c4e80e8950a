/**
 * Unpacks a .tar.gz bundle once, as it streams: small files (configs) are kept in memory under a
 * budget, large ones (log tails) go to a private folder (0700, files 0600, made-up names), so
 * the archive is never held whole in memory and a scan reads the big files lazily. The stream is
 * stopped — and the folder removed — the moment a cap is passed: entry count, bytes of one
 * entry, total bytes, and the inflation ratio (a small archive that inflates hundreds of times
 * its size is a bomb, whatever each entry's size). Only regular files under `files/` and
 * `manifest.json` are written; links, devices and anything else are never materialised, and
 * names that escape the bundle reject it.
 */
import {
  constants,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  rmSync,
} from 'node:fs';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadEntry } from 'tar';
import { BUNDLE_LIMITS } from './limits';
import { BundleError, isSafeRel, type ArchiveLimits } from './store-common';

/** Unpacked folders still on disk; removed when the process exits, whatever else happens. */
const live = new Set<string>();
let exitHookInstalled = false;

function track(dir: string): void {
  live.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const d of live) rmSync(d, { recursive: true, force: true });
  });
}

export async function removeUnpacked(dir: string | undefined): Promise<void> {
  if (dir === undefined) return;
  live.delete(dir);
  await fsp.rm(dir, { recursive: true, force: true });
}

const NEW_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Entries up to this size are kept in memory (while the budget lasts); larger ones stream to disk. */
const SMALL_ENTRY = 1024 * 1024;
/** Memory for small entries of one archive (a bundle's configs are a few hundred KiB). */
const MEMORY_BUDGET = 64 * 1024 * 1024;
/** What a kept Buffer costs beyond its bytes (object, map slot): counted against the budget. */
const ENTRY_OVERHEAD = 256;

function mib(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MiB`;
}

/** An archive's regular files: small ones in memory, large ones as files in a private folder. */
export interface UnpackedArchive {
  manifest: string | undefined;
  /** `files/`-relative name → bytes. */
  memory: Map<string, Buffer>;
  /** `files/`-relative name → absolute path of the spilled copy. */
  disk: Map<string, string>;
  /** The private folder (0700), created at the first spill; undefined when nothing spilled. */
  dir: string | undefined;
}

/** Unpacks `file` in one streaming pass under `limits`. */
export async function unpackArchive(
  file: string,
  limits: ArchiveLimits,
  tmpRoot: string = tmpdir(),
): Promise<UnpackedArchive> {
  const out: UnpackedArchive = {
    manifest: undefined,
    memory: new Map(),
    disk: new Map(),
    dir: undefined,
  };
  // tar and zlib (and the streams they bring) load only for archives: a folder bundle never
  // needs them, and start-up stays short.
  const [{ Parser }, { createGunzip }] = await Promise.all([import('tar'), import('node:zlib')]);
  try {
    await unpackInto(Parser, createGunzip, file, out, limits, tmpRoot);
  } catch (e) {
    await removeUnpacked(out.dir);
    throw e;
  }
  return out;
}

function unpackInto(
  Parser: typeof import('tar').Parser,
  createGunzip: typeof import('node:zlib').createGunzip,
  file: string,
  out: UnpackedArchive,
  limits: ArchiveLimits,
  tmpRoot: string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let compressed = 0;
    let total = 0;
    let count = 0;
    let inMemory = 0;
    let spilled = 0;
    let failed = false;
    const pending: Promise<void>[] = [];
    const src = createReadStream(file);
    const gunzip = createGunzip();
    const parser = new Parser({ strict: false });
    const fail = (msg: string): void => {
      if (failed) return;
      // Chunks already inflated keep arriving after destroy(); none of them is kept.
      failed = true;
      src.destroy();
      gunzip.destroy();
      reject(new BundleError(msg));
    };
    const spillPath = (): string => {
      if (out.dir === undefined) {
        out.dir = mkdtempSync(join(tmpRoot, 'cni-doctor-bundle-'));
        track(out.dir);
      }
      // Flat made-up names: nothing from the archive names a path on this machine.
      return join(out.dir, String(spilled++));
    };
    const forget = (rel: string): void => {
      // A later entry of the same name wins, as with tar itself.
      const old = out.disk.get(rel);
      if (old !== undefined) rmSync(old, { force: true });
      out.disk.delete(rel);
      out.memory.delete(rel);
    };
    src.on('data', (c: Buffer | string) => (compressed += c.length));
    parser.on('entry', (entry: ReadEntry) => {
      if (failed) return entry.resume();
      count += 1;
      if (count > limits.maxEntries) return fail(`${file}: more than ${limits.maxEntries} entries`);
      const name = entry.path.replace(/^\.\//, '');
      const isFile =
        entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile';
      if (isFile && !isSafeRel(name.replace(/\/$/, '')))
        return fail(`${file}: archive entry "${name.slice(0, 200)}" escapes the bundle`);
      let entryBytes = 0;
      const counted = (c: Buffer): boolean => {
        if (failed) return false;
        total += c.length;
        entryBytes += c.length;
        if (entryBytes > limits.maxEntryBytes) {
          fail(
            `${file}: archive entry "${name.slice(0, 200)}" unpacks to more than ${limits.maxEntryBytes} bytes`,
          );
          return false;
        }
        if (total > limits.maxTotalBytes) {
          fail(`${file}: unpacks to more than ${limits.maxTotalBytes} bytes`);
          return false;
        }
        if (total > limits.ratioGraceBytes && total > compressed * limits.maxRatio) {
          fail(
            `${file}: unpacks to more than ${limits.maxRatio} times its compressed size (${mib(total)} so far from ${Math.ceil(compressed / 1024)} KiB): a compression bomb`,
          );
          return false;
        }
        return true;
      };
      const isManifest = isFile && name === 'manifest.json';
      const rel = isFile && name.startsWith('files/') ? name.slice('files/'.length) : undefined;
      if (!isManifest && rel === undefined) {
        // Links, devices, other names: counted against the caps, never materialised.
        entry.on('data', counted);
        return;
      }
      if (isManifest && entry.size > BUNDLE_LIMITS.maxManifestBytes)
        return fail(`${file}: manifest.json is too large (${entry.size} bytes)`);
      const small = entry.size <= SMALL_ENTRY && inMemory + entry.size <= MEMORY_BUDGET;
      if (isManifest || small) {
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => {
          if (counted(c)) chunks.push(c);
        });
        entry.on('end', () => {
          if (failed) return;
          const data = Buffer.concat(chunks);
          if (isManifest) return void (out.manifest = data.toString('utf8'));
          forget(rel as string);
          inMemory += data.length + ENTRY_OVERHEAD;
          out.memory.set(rel as string, data);
        });
        return;
      }
      let dest: string;
      let fd: number;
      try {
        dest = spillPath();
        fd = openSync(dest, NEW_FILE, 0o600);
      } catch (e) {
        return fail(`${file}: cannot unpack it (${(e as NodeJS.ErrnoException).code ?? e})`);
      }
      const stream = createWriteStream(dest, { fd });
      pending.push(
        new Promise<void>((done) => {
          stream.on('close', () => {
            if (!failed) {
              forget(rel as string);
              out.disk.set(rel as string, dest);
            }
            done();
          });
          stream.on('error', (e: NodeJS.ErrnoException) => {
            fail(`${file}: cannot unpack it (${e.code ?? e.message})`);
            entry.resume();
            done();
          });
        }),
      );
      entry.on('data', (c: Buffer) => {
        if (!counted(c)) return;
        // Backpressure: the disk sets the pace, so inflated bytes never pile up in memory.
        if (!stream.write(c)) {
          entry.pause();
          stream.once('drain', () => entry.resume());
        }
      });
      entry.on('end', () => stream.end());
    });
    parser.on('error', (e: Error) => fail(`${file}: not a valid tar archive (${e.message})`));
    gunzip.on('error', (e: Error) => fail(`${file}: not a valid gzip file (${e.message})`));
    src.on('error', (e: Error) => fail(`${file}: ${e.message}`));
    let finished = false;
    const finish = (): void => {
      if (finished || failed) return;
      finished = true;
      void Promise.all(pending).then(() => (failed ? undefined : resolve()));
    };
    parser.on('end', finish);
    parser.on('close', finish);
    src.pipe(gunzip).pipe(parser as unknown as NodeJS.WritableStream);
  });
}
