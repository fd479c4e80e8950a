/**
 * Writes a recorded bundle as a folder or as a .tar.gz (bundle-format.md layout). Both are
 * private to their owner (0600 files, 0700 folders) and never written through a link: see
 * output-file.ts.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { BundleManifest } from './manifest';
import type { RecordedFile } from '../host/recording-host';
import { nodePathToBundleRel } from '../conventions/node-paths';
import { createOutputDir, writeNewPrivateFile } from './output-file';
import { BundleArchiveWriter } from './archive-writer';

/** Fills a folder this process has just created (empty, private) with the bundle's layout. */
async function populateBundleDir(
  dir: string,
  osName: 'linux' | 'windows',
  manifest: BundleManifest,
  files: RecordedFile[],
): Promise<void> {
  await fsp.mkdir(path.join(dir, 'files'), { mode: 0o700 });
  for (const f of files) {
    const rel = nodePathToBundleRel(osName, f.path);
    if (rel === '' || rel.split('/').includes('..')) continue;
    const dest = path.join(dir, 'files', ...rel.split('/'));
    await fsp.mkdir(path.dirname(dest), { recursive: true, mode: 0o700 });
    // A recorded path can be both a file and (for another probe) a dir prefix only if the node
    // changed mid-scan; the first writer wins and the clash is skipped rather than fatal.
    await writeNewPrivateFile(dest, f.data).catch(() => undefined);
  }
  await writeNewPrivateFile(
    path.join(dir, 'manifest.json'),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
}

/** Writes a folder bundle at `dir`, which must not exist yet. */
export async function writeBundleDir(
  dir: string,
  osName: 'linux' | 'windows',
  manifest: BundleManifest,
  files: RecordedFile[],
): Promise<void> {
  await createOutputDir(dir);
  await populateBundleDir(dir, osName, manifest, files);
}

/**
 * Writes `<out>` atomically, 0600, through a fresh temp file in the same folder: the files are
 * tarred and gzipped straight from memory, then manifest.json (archive-writer.ts).
 */
export async function writeBundleArchive(
  out: string,
  osName: 'linux' | 'windows',
  manifest: BundleManifest,
  files: RecordedFile[],
): Promise<void> {
  const archive = await BundleArchiveWriter.open(out, osName);
  try {
    for (const f of files) archive.add(f.path, f.data);
    await archive.finish(manifest);
  } finally {
    await archive.abort();
  }
}
