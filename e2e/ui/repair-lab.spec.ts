/**
 * Flow 5 (skeleton): a repair through the UI against the real containerd lab (e2e/lab/harness.ts).
 * The doors already run repairs end to end on a node disk (repair-flow.spec.ts); what the lab adds
 * is a real containerd reloading its CNI config and a real pod getting the cluster network. To fill in:
 *   1. startLab({ name: 'ui-repair', confDirFiles: { '10-containerd-net.conflist': …, '20-cluster.conflist': … } })
 *      so the lab's containerd uses a runtime default that shadows a cluster config;
 *   2. start a server as node-disk.ts does, with the engine's live host and repair environment pointed
 *      at the lab (lab.scanTarget(): its config.toml, socket and conf dir) and a process service manager
 *      that restarts the lab's containerd;
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
  test.fixme(true, 'needs a host/repair environment that scans the lab instead of / (the lab is not at the default paths) and root');
  test('disable a shadowing default config, verify, undo', async () => {});
});
