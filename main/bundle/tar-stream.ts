/**
 * A .tar.gz produced straight from memory, entry by entry: the recorded files go into the archive
 * as they are, with no staging folder written to disk and read back (which cost a copy of every
 * log tail on disk and in the page cache). Headers are tar's own (ustar, a PAX record when a
 * path is too long), so the archive reads back with the same reader as before.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pax } from 'tar';

export interface TarFile {
  /** Archive path, `/`-separated, relative. */
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function header(path: string, type: 'File' | 'Directory', size: number, mtime: Date): Buffer[] {
  const h = new Header({
    path,
    mode: type === 'File' ? FILE_MODE : DIR_MODE,
    size,
    mtime,
    type,
  });
  const out: Buffer[] = [];
  // encode() answers true when the path does not fit ustar: a PAX record carries it first.
  if (h.encode()) out.push(new Pax({ path, mtime, size }).encode());
  if (!h.block) throw new Error(`cannot encode a tar header for ${path}`);
  out.push(h.block);
  return out;
}

/**
 * The tar stream of `files` (in order), each file's folders first. A path that is both a file and
 * a folder of another file (a node that changed mid-scan) keeps the first and skips the clash.
 */
export async function* tarOf(files: Iterable<TarFile>, mtime = new Date()): AsyncIterable<Buffer> {
  const dirs = new Set<string>();
  const written = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    const parents = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
    if (written.has(f.path) || dirs.has(f.path) || parents.some((d) => written.has(d))) continue;
    for (const d of parents) {
      if (dirs.has(d)) continue;
      dirs.add(d);
      yield* header(`${d}/`, 'Directory', 0, mtime);
    }
    written.add(f.path);
    yield* header(f.path, 'File', f.data.length, mtime);
    yield Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength);
    const pad = (BLOCK - (f.data.length % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  // End of archive: two zero blocks.
  yield Buffer.alloc(2 * BLOCK);
}

/** Gzips a byte stream as it is produced (level 6, what `tar czf` uses). */
export function gzipStream(source: AsyncIterable<Uint8Array>): AsyncIterable<Buffer> {
  const gz = createGzip({ level: 6 });
  // Errors of either side reach the consumer through the gzip stream.
  pipeline(Readable.from(source, { objectMode: false }), gz).catch((e: unknown) =>
    gz.destroy(e as Error),
  );
  return gz;
}
