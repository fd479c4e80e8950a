/**
 * Flow 5 (skeleton): a repair through the UI against the real containerd lab (e2e/lab/harness.ts).
 * To be filled in once the repair engine is wired into the doors:
 *   1. startLab({ name: 'ui-repair', confDirFiles: { '10-containerd-net.conflist': …, '20-cluster.conflist': … } })
 *      so the lab's containerd uses a runtime default that shadows a cluster config;
 *   2. start `serve` (as root) with its live host pointed at the lab (lab.scanTarget());
 *   3. in the page: Overview → the shadowed-by-default finding → Preview repair → check the diff and
 *      the services listed → Apply… → Apply; watch the progress line; expect "applied" and the
 *      verification "the finding is gone after a rescan";
 *   4. the lab's CRI Status reports the cluster network (lab.waitForStatus);
 *   5. Undo from the History screen; the default config is back; lab.stop() leaves nothing behind.
 */
import { test } from '@playwright/test';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test.describe('repair through the UI against the containerd lab', () => {
  test.skip(!existsSync(path.join(ROOT, 'e2e', 'lab', 'harness.ts')), 'no containerd lab in this checkout');
  test.fixme(true, 'waits for the repair engine to be wired into serve (app/shared-server/engine-repairs.ts) and for a serve option that scans the lab instead of /');
  test('disable a shadowing default config, verify, undo', async () => {});
});
