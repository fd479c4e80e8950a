/**
 * A `serve` whose "live node" is held in memory (BundleHost.fromMemory), so a spec needs neither
 * root nor a runtime: a healthy containerd whose root-only socket refuses a non-root scan with
 * EACCES (newcomer review, journey 5), or a healthy node whose containerd log still holds an old
 * error that no check explains now.
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

const HEALTHY_FILES: [string, Buffer][] = [
  ['/etc/containerd/config.toml', Buffer.from('version = 2\n')],
  [
    '/etc/cni/net.d/10-bridge.conflist',
    Buffer.from('{"cniVersion":"1.0.0","name":"cbr0","plugins":[{"type":"bridge"}]}'),
  ],
  ['/opt/cni/bin/bridge', Buffer.from('#!/bin/sh\n')],
];
const PROCESSES = [
  { name: 'containerd', args: ['/usr/bin/containerd'] },
  { name: 'kubelet', args: ['/usr/bin/kubelet', `--container-runtime-endpoint=unix://${SOCK}`] },
];

/** The old error a healthy node's log still holds (the conf dir has a valid config now). */
export const OLD_LOG_LINE =
  'E1204 09:12:01.000000 1 cri.go:1] failed to load cni during init: cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config';

export function oldLogNodeHost(): BundleHost {
  return BundleHost.fromMemory(
    'kind-node with an old log line',
    {
      format: BUNDLE_FORMAT,
      host: { os: 'linux', hostname: 'kind-node', elevated: true },
      processes: PROCESSES,
      paths: { [SOCK]: { type: 'socket' } },
      logs: [{ source: 'file', path: '/var/log/containerd.log' }],
    },
    new Map([...HEALTHY_FILES, ['/var/log/containerd.log', Buffer.from(`${OLD_LOG_LINE}\n`)]]),
  );
}

export function deniedNodeHost(): BundleHost {
  return BundleHost.fromMemory(
    'non-root scan of kind-node',
    {
      format: BUNDLE_FORMAT,
      host: { os: 'linux', hostname: 'kind-node', elevated: false },
      processes: PROCESSES,
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
    new Map(HEALTHY_FILES),
  );
}

export interface MemoryServer {
  url: string;
  close(): Promise<void>;
}

export async function serveMemoryNode(
  host: () => BundleHost,
  opts: { rerunElevated?: string; liveChosen?: boolean } = {},
): Promise<MemoryServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-denied-'));
  const progress = new ProgressBus();
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir: path.join(dir, 'state') }),
    demosDir: path.join(ROOT, 'assets', 'demo'),
    openLiveHost: async () => host(),
    // The node this server is about, as `serve --root` makes it: the UI opens on it.
    liveChosen: true,
    ...opts,
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
