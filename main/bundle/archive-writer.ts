/**
 * A bundle .tar.gz written while the node is being read: each recorded file goes into the tar
 * stream, and through gzip on zlib's thread, the moment it is recorded. Compressing overlaps
 * reading, no file is kept in memory once it is compressed, and nothing is staged on disk.
 * manifest.json can only be written once everything is recorded, so it comes last (a reader
 * takes it from anywhere in the archive: bundle-format.md). The file itself is created like
 * every output (output-file.ts): private, through a fresh temp file renamed at the end.
 *
 * Log tails compressed elsewhere (main/bundle/tail/, on a worker thread) arrive as gzip members
 * of their own and go in at the end, before the manifest: the stream written so far is closed
 * as one member, the tail's header follows in another, then the tail's member. Concatenated
 * members are one gzip stream to every reader (RFC 1952, 2.2; gunzip, Node's zlib, tar).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createGzip, type Gzip } from 'node:zlib';
import type { BundleManifest } from './manifest';
import { nodePathToBundleRel } from '../conventions/node-paths';
import { openOutputFile, type PendingOutput } from './output-file';
import { GZIP_OPTIONS, TarLayout } from './tar-stream';
import { osErrorWords } from '../../shared/os-error';

/** Small blocks (headers, configs) are handed to zlib in batches of this size, not one by one. */
const BATCH = 64 * 1024;

/** A gzip stream whose output goes to the file as it comes. */
function gzipInto(file: PendingOutput): { gz: Gzip; written: Promise<void> } {
  const gz = createGzip(GZIP_OPTIONS);
  const written = (async (): Promise<void> => {
    for await (const chunk of gz) await file.handle.write(chunk as Buffer);
  })();
  // Seen by finish(); until then a failed write only stops the compression.
  written.catch(() => undefined);
  return { gz, written };
}

interface CompressedEntry {
  rel: string;
  length: number;
  member: Uint8Array;
}

export class BundleArchiveWriter {
  private readonly layout = new TarLayout();
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private readonly compressed: CompressedEntry[] = [];
  private gz: Gzip;
  private written: Promise<void>;

  private constructor(
    private readonly osName: 'linux' | 'windows',
    private readonly file: PendingOutput,
  ) {
    ({ gz: this.gz, written: this.written } = gzipInto(file));
  }

  /** Starts `out` (a .tar.gz); fails at once, with its name, when its folder is not writable. */
  static async open(out: string, osName: 'linux' | 'windows'): Promise<BundleArchiveWriter> {
    await fsp.access(path.dirname(out), fsp.constants.W_OK).catch((e: NodeJS.ErrnoException) => {
      throw new Error(`cannot write ${out}: ${osErrorWords(e) ?? e.message} (its folder)`, {
        cause: e,
      });
    });
    return new BundleArchiveWriter(osName, await openOutputFile(out));
  }

  /** Adds a recorded file under files/ (`nodePath` is the node's path; a clash keeps the first). */
  add(nodePath: string, data: Uint8Array): void {
    const rel = nodePathToBundleRel(this.osName, nodePath);
    if (rel === '' || rel.split('/').includes('..')) return;
    this.push(this.layout.entry(`files/${rel}`, data) ?? []);
  }

  /**
   * Adds a file whose data (`length` bytes, then zeros to a whole block) is already gzipped as
   * `member` (tail-job.ts). It is written by finish(), after everything added the ordinary way.
   */
  addCompressed(nodePath: string, length: number, member: Uint8Array): void {
    const rel = nodePathToBundleRel(this.osName, nodePath);
    if (rel === '' || rel.split('/').includes('..')) return;
    this.compressed.push({ rel: `files/${rel}`, length, member });
  }

  /** Closes the current member, writes `member` after it, and opens the next one. */
  private async appendMember(member: Uint8Array): Promise<void> {
    this.flush();
    this.gz.end();
    await this.written;
    await this.file.handle.write(member);
    ({ gz: this.gz, written: this.written } = gzipInto(this.file));
  }

  private push(blocks: readonly Buffer[]): void {
    for (const b of blocks) {
      if (b.length >= BATCH) {
        this.flush();
        this.write(b);
      } else {
        this.batch.push(b);
        this.batchBytes += b.length;
        if (this.batchBytes >= BATCH) this.flush();
      }
    }
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    this.write(this.batch.length === 1 ? (this.batch[0] as Buffer) : Buffer.concat(this.batch));
    this.batch = [];
    this.batchBytes = 0;
  }

  /**
   * No waiting for zlib: the caller goes on reading the node while the bytes compress. What is
   * queued is what a recording held in memory anyway, and it is freed as it compresses.
   */
  private write(b: Buffer): void {
    if (!this.gz.destroyed) this.gz.write(b);
  }

  /** Writes the manifest, waits for the last compressed byte and puts the file in place. */
  async finish(manifest: BundleManifest): Promise<void> {
    try {
      for (const c of this.compressed) {
        const head = this.layout.head(c.rel, c.length);
        if (!head) continue; // a clash: the first one stays
        this.push(head);
        await this.appendMember(c.member);
      }
      const json = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      this.push(this.layout.entry('manifest.json', json) ?? []);
      this.push([this.layout.end()]);
      this.flush();
      this.gz.end();
      await this.written;
      await this.file.commit();
    } finally {
      await this.abort();
    }
  }

  /** Stops writing and removes the unfinished file (a no-op after finish()). */
  async abort(): Promise<void> {
    this.gz.destroy();
    await this.file.discard();
  }
}
