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
import { osErrorWords } from '../../shared/os-error';

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

/** An output file being written: its temp file's handle until commit() renames it to `out`. */
export interface PendingOutput {
  readonly handle: fsp.FileHandle;
  /** fsyncs, closes and renames the temp file over `out`. */
  commit(): Promise<void>;
  /** Closes and removes the temp file (after a failure); a no-op once committed. */
  discard(): Promise<void>;
}

/** Opens the private temp file that becomes `out` on commit() (see above). */
export async function openOutputFile(out: string): Promise<PendingOutput> {
  const tmp = outputTempName(out);
  // The temp file's random name means nothing to the user: name the file they asked for.
  const handle = await fsp.open(tmp, CREATE_FLAGS, OUTPUT_MODE).catch((e: unknown) => {
    throw new Error(
      `cannot write ${out}: ${osErrorWords(e) ?? (e as Error).message} (its folder)`,
      {
        cause: e,
      },
    );
  });
  let done = false;
  const discard = async (): Promise<void> => {
    if (done) return;
    done = true;
    await handle.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
  };
  try {
    // The mode given to open() is filtered by the umask; 0600 is what we promise.
    await handle.chmod(OUTPUT_MODE);
  } catch (e) {
    await discard();
    throw e;
  }
  return {
    handle,
    discard,
    async commit() {
      try {
        await handle.sync();
        await handle.close();
        await fsp.rename(tmp, out);
        done = true;
      } finally {
        await discard();
      }
    },
  };
}

/** Writes whatever `source` produces to `out` atomically (see above). */
export async function writeOutputFile(out: string, source: ByteSource | Uint8Array): Promise<void> {
  const pending = await openOutputFile(out);
  try {
    if (source instanceof Uint8Array) await pending.handle.writeFile(source);
    else for await (const chunk of source) await pending.handle.write(chunk);
    await pending.commit();
  } finally {
    await pending.discard();
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
