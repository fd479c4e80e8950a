/**
 * A .tar.gz produced straight from memory, entry by entry: the recorded files go into the archive
 * as they are, with no staging folder written to disk and read back (which cost a copy of every
 * log tail on disk and in the page cache). Headers are tar's own (ustar, a PAX record when a
 * path is too long), so the archive reads back with the same reader as before.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
// Only the two classes, from their own modules: the package's index brings in its whole reader
// and writer, with node:stream, zlib, assert, crypto and fs/promises, at every collect.
import { Header } from 'tar/header';
import { Pax } from 'tar/pax';
import { BLOCK, GZIP_OPTIONS, padding } from './tar-blocks';
import { plainUstarHeader } from './ustar-header';

export { GZIP_OPTIONS };

export interface TarFile {
  /** Archive path, `/`-separated, relative. */
  path: string;
  data: Uint8Array;
}

const ZEROS = Buffer.alloc(BLOCK);
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function header(path: string, type: 'File' | 'Directory', size: number, mtime: Date): Buffer[] {
  const mode = type === 'File' ? FILE_MODE : DIR_MODE;
  const plain = plainUstarHeader(path, type, size, mode, mtime);
  if (plain) return [plain];
  const h = new Header({
    path,
    mode,
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
 * The blocks of a tar archive, entry by entry: each file's folders first. A path that is both a
 * file and a folder of another file (a node that changed mid-scan), or a path given twice, keeps
 * the first and skips the clash.
 */
export class TarLayout {
  private readonly dirs = new Set<string>();
  private readonly written = new Set<string>();

  constructor(private readonly mtime = new Date()) {}

  /** The blocks that store `data` at `path`, in order; undefined for a skipped clash. */
  entry(path: string, data: Uint8Array): Buffer[] | undefined {
    const out = this.head(path, data.length);
    if (!out) return undefined;
    out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    const pad = padding(data.length);
    // One block of zeros for every padding: nothing writes into it.
    if (pad) out.push(ZEROS.subarray(0, pad));
    return out;
  }

  /**
   * The headers of a `size`-byte file at `path` (its folders' first): the caller supplies the
   * data and its padding to a whole block. Undefined for a skipped clash.
   */
  head(path: string, size: number): Buffer[] | undefined {
    if (this.written.has(path) || this.dirs.has(path)) return undefined;
    // Most files go into a folder already written: its own check covered every folder above it
    // (none is a file, and no file can be written where a folder is).
    const slash = path.lastIndexOf('/');
    if (slash > 0 && this.dirs.has(path.slice(0, slash))) {
      this.written.add(path);
      return header(path, 'File', size, this.mtime);
    }
    const parts = path.split('/');
    const parents = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
    if (parents.some((d) => this.written.has(d))) return undefined;
    const out: Buffer[] = [];
    for (const d of parents) {
      if (this.dirs.has(d)) continue;
      this.dirs.add(d);
      out.push(...header(`${d}/`, 'Directory', 0, this.mtime));
    }
    this.written.add(path);
    out.push(...header(path, 'File', size, this.mtime));
    return out;
  }

  /** End of archive: two zero blocks. */
  end(): Buffer {
    return Buffer.alloc(2 * BLOCK);
  }
}

/** The tar stream of `files` (in order), as TarLayout lays them out. */
export async function* tarOf(files: Iterable<TarFile>, mtime = new Date()): AsyncIterable<Buffer> {
  const layout = new TarLayout(mtime);
  for (const f of files) yield* layout.entry(f.path, f.data) ?? [];
  yield layout.end();
}

/** Gzips a byte stream as it is produced. */
export function gzipStream(source: AsyncIterable<Uint8Array>): AsyncIterable<Buffer> {
  const gz = createGzip(GZIP_OPTIONS);
  // Errors of either side reach the consumer through the gzip stream.
  pipeline(Readable.from(source, { objectMode: false }), gz).catch((e: unknown) =>
    gz.destroy(e as Error),
  );
  return gz;
}
