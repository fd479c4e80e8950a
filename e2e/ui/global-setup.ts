/**
 * Builds the app when needed, starts `node bin/cni-doctor.mjs serve --port 0 --bundle …` and hands the URL it
 * prints (with its token) to the tests through CNI_DOCTOR_URL. The returned function stops it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { findElectronBinary } from '../electron/electron-binary';
import { ROOT, startServe } from './serve-process';

function built(): boolean {
  const need = [
    'dist/cli.cjs',
    'dist/renderer/index.html',
    'dist/desktop/main.cjs',
    'dist/desktop/preload.cjs',
  ].map((p) => path.join(ROOT, p));
  return need.every((p) => existsSync(p) && statSync(p).size > 0);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  // The list reporter shows skipped tests without their reason; say it once, plainly.
  const electronBinary = findElectronBinary();
  if (!electronBinary.ok)
    console.log(
      `Electron window tests (e2e/electron) will be SKIPPED: no Electron binary on this machine: ${electronBinary.reason}`,
    );
  if (!built() || process.env.E2E_REBUILD === '1') {
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  // Started on a recorded healthy node, so the first screen does not depend on this machine;
  // the specs open the demo they need.
  const { url, stop } = await startServe(['--bundle', 'assets/demo/healthy-node'], {
    // The Cluster screen reads API answers recorded from a real cluster, not this machine's
    // kubeconfig (fixtures/cluster/README.md).
    CNI_DOCTOR_KUBECTL: path.join(ROOT, 'fixtures/cluster/replay-kubectl.mjs'),
  });
  process.env.CNI_DOCTOR_URL = url;
  return stop;
}
