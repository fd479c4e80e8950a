/**
 * A bundle .tar.gz written while the node is being read: each recorded file goes into the tar
 * stream, and through gzip on zlib's thread, the moment it is recorded. Compressing overlaps
 * reading, no file is kept in memory once it is compressed, and nothing is staged on disk.
 * manifest.json can only be written once everything is recorded, so it comes last (a reader
 * takes it from anywhere in the archive: bundle-format.md). The file itself is created like
 * every output (output-file.ts): private, through a fresh temp file renamed at the end.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createGzip, type Gzip } from 'node:zlib';
import type { BundleManifest } from './manifest';
import { nodePathToBundleRel } from '../conventions/node-paths';
import { openOutputFile, type PendingOutput } from './output-file';
import { GZIP_OPTIONS, TarLayout } from './tar-stream';

/** Small blocks (headers, configs) are handed to zlib in batches of this size, not one by one. */
const BATCH = 64 * 1024;

export class BundleArchiveWriter {
  private readonly layout = new TarLayout();
  private batch: Buffer[] = [];
  private batchBytes = 0;

  private constructor(
    private readonly osName: 'linux' | 'windows',
    private readonly file: PendingOutput,
    private readonly gz: Gzip,
    private readonly written: Promise<void>,
  ) {}

  /** Starts `out` (a .tar.gz); fails at once, with its name, when its folder is not writable. */
  static async open(out: string, osName: 'linux' | 'windows'): Promise<BundleArchiveWriter> {
    await fsp.access(path.dirname(out), fsp.constants.W_OK).catch((e: NodeJS.ErrnoException) => {
      throw new Error(`cannot write ${out}: ${e.code ?? e.message} (its folder)`);
    });
    const file = await openOutputFile(out);
    const gz = createGzip(GZIP_OPTIONS);
    const written = (async (): Promise<void> => {
      for await (const chunk of gz) await file.handle.write(chunk as Buffer);
    })();
    // Seen by finish(); until then a failed write only stops the compression.
    written.catch(() => undefined);
    return new BundleArchiveWriter(osName, file, gz, written);
  }

  /** Adds a recorded file under files/ (`nodePath` is the node's path; a clash keeps the first). */
  add(nodePath: string, data: Uint8Array): void {
    const rel = nodePathToBundleRel(this.osName, nodePath);
    if (rel === '' || rel.split('/').includes('..')) return;
    this.push(this.layout.entry(`files/${rel}`, data) ?? []);
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
