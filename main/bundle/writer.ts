/** Writes a recorded bundle as a folder or as a .tar.gz (bundle-format.md layout). */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { create as tarCreate } from 'tar';
import type { BundleManifest } from './manifest';
import type { RecordedFile } from '../host/recording-host';
import { nodePathToBundleRel } from '../host/paths';

export async function writeBundleDir(
  dir: string,
  osName: 'linux' | 'windows',
  manifest: BundleManifest,
  files: RecordedFile[],
): Promise<void> {
  await fsp.mkdir(path.join(dir, 'files'), { recursive: true });
  for (const f of files) {
    const rel = nodePathToBundleRel(osName, f.path);
    if (rel === '' || rel.split('/').includes('..')) continue;
    const dest = path.join(dir, 'files', ...rel.split('/'));
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    // A recorded path can be both a file and (for another probe) a dir prefix only if the node
    // changed mid-scan; the first writer wins and the clash is skipped rather than fatal.
    await fsp.writeFile(dest, f.data).catch(() => undefined);
  }
  await fsp.writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Writes `<out>` atomically: a temp folder is packed into `<out>.partial`, then renamed. */
export async function writeBundleArchive(
  out: string,
  osName: 'linux' | 'windows',
  manifest: BundleManifest,
  files: RecordedFile[],
): Promise<void> {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-bundle-'));
  try {
    await writeBundleDir(tmp, osName, manifest, files);
    const partial = `${out}.partial`;
    await tarCreate({ gzip: true, file: partial, cwd: tmp, portable: true }, [
      'manifest.json',
      'files',
    ]);
    await fsp.rename(partial, out);
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}
