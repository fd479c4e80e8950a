/**
 * Creates an output file (a bundle, an export) the way a root process must in a directory that
 * others may write: the bytes go to a fresh temp file in the same directory, opened with
 * O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 under a random name (a planted `<out>.partial`
 * symlink or file is never opened), are fsynced, then renamed over `out`. rename() replaces a
 * symlink at `out` itself instead of writing through it, so nothing outside `out` is touched.
 */
import { constants, promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

/** Any async byte source: a Node stream, or tar's Minipass pack stream. */
export type ByteSource = AsyncIterable<Uint8Array>;

/** Bundles describe a node's configuration: readable by their owner only. */
export const OUTPUT_MODE = 0o600;

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export function outputTempName(out: string): string {
  return path.join(
    path.dirname(out),
    `.${path.basename(out)}.${randomBytes(8).toString('hex')}.partial`,
  );
}

/** Writes whatever `source` produces to `out` atomically (see above). */
export async function writeOutputFile(out: string, source: ByteSource | Uint8Array): Promise<void> {
  const tmp = outputTempName(out);
  const handle = await fsp.open(tmp, CREATE_FLAGS, OUTPUT_MODE);
  let renamed = false;
  try {
    // The mode given to open() is filtered by the umask; 0600 is what we promise.
    await handle.chmod(OUTPUT_MODE);
    if (source instanceof Uint8Array) await handle.writeFile(source);
    else for await (const chunk of source) await handle.write(chunk);
    await handle.sync();
    await handle.close();
    await fsp.rename(tmp, out);
    renamed = true;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}

/**
 * Creates the folder of a folder bundle: it must not exist yet (an existing folder could hold
 * planted symlinks the writes would follow), and it is private (0700).
 */
export async function createOutputDir(dir: string): Promise<void> {
  try {
    await fsp.mkdir(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      throw new Error(`${dir} already exists; a folder bundle is written into a new folder`, {
        cause: e,
      });
    throw e;
  }
  await fsp.chmod(dir, 0o700);
}

/** A new file inside a folder this process just created (never follows a link, never reuses). */
export async function writeNewPrivateFile(file: string, data: Buffer | string): Promise<void> {
  const handle = await fsp.open(file, CREATE_FLAGS, OUTPUT_MODE);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}
