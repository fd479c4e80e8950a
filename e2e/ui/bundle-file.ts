/** A customer's bundle as a support engineer receives it: a demo node packed as .tar.gz. */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create as tarCreate } from 'tar';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function packDemoBundle(demo: string, file: string): Promise<void> {
  await tarCreate(
    { gzip: true, file, cwd: path.join(ROOT, 'assets', 'demo', demo), portable: true },
    ['manifest.json', 'files'],
  );
}
