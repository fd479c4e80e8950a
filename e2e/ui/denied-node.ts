/**
 * A `serve` whose "live node" is a node the scan may not fully look at: a healthy containerd whose
 * root-only socket refuses a non-root scan with EACCES (newcomer review, journey 5). Held in
 * memory (BundleHost.fromMemory), so the spec needs neither root nor a runtime.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_FORMAT } from '../../main/bundle/manifest';
import { BundleHost } from '../../main/host/bundle-host';
import { createDispatcher } from '../../app/shared-server/dispatch';
import { createEngineBackend } from '../../app/shared-server/engine-backend';
import { engineRepairs } from '../../app/shared-server/engine-repairs';
import { ProgressBus } from '../../app/shared-server/progress';
import { startWebServer } from '../../app/web/server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOCK = '/run/containerd/containerd.sock';
export const RERUN = 'sudo cni-doctor serve --port 8080';

export function deniedNodeHost(): BundleHost {
  return BundleHost.fromMemory(
    'non-root scan of kind-node',
    {
      format: BUNDLE_FORMAT,
      host: { os: 'linux', hostname: 'kind-node', elevated: false },
      processes: [
        { name: 'containerd', args: ['/usr/bin/containerd'] },
        {
          name: 'kubelet',
          args: ['/usr/bin/kubelet', `--container-runtime-endpoint=unix://${SOCK}`],
        },
      ],
      paths: { [SOCK]: { type: 'socket' } },
      cri: [
        {
          endpoint: `unix://${SOCK}`,
          api: null,
          error: {
            code: 14,
            message: `No connection established. Last error: connect EACCES ${SOCK}`,
          },
        },
      ],
    },
    new Map([
      ['/etc/containerd/config.toml', Buffer.from('version = 2\n')],
      [
        '/etc/cni/net.d/10-bridge.conflist',
        Buffer.from('{"cniVersion":"1.0.0","name":"cbr0","plugins":[{"type":"bridge"}]}'),
      ],
      ['/opt/cni/bin/bridge', Buffer.from('#!/bin/sh\n')],
    ]),
  );
}

export async function serveDeniedNode(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-denied-'));
  const progress = new ProgressBus();
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir: path.join(dir, 'state') }),
    demosDir: path.join(ROOT, 'assets', 'demo'),
    openLiveHost: async () => deniedNodeHost(),
    rerunElevated: RERUN,
    tmpRoot: dir,
    rememberFile: path.join(dir, 'last-target'),
  });
  const server = await startWebServer({
    dispatcher: createDispatcher({ backend }),
    progress,
    staticDir: path.join(ROOT, 'dist', 'renderer'),
  });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await backend.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
