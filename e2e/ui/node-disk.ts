/**
 * A Linux node disk in a temporary folder (the minikube demo's files) and a `serve`-equivalent
 * server whose "live node" is that disk (the engine's --root mode): repairs really rename files
 * there, so the UI's preview → apply → verify → undo runs end to end without root or a cluster.
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openHost } from '../../main/engine/open-host';
import { createDispatcher } from '../../app/shared-server/dispatch';
import { createEngineBackend } from '../../app/shared-server/engine-backend';
import { engineRepairs } from '../../app/shared-server/engine-repairs';
import { ProgressBus } from '../../app/shared-server/progress';
import { startWebServer } from '../../app/web/server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface DiskServer {
  url: string;
  root: string;
  close(): Promise<void>;
}

export async function serveNodeDisk(): Promise<DiskServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-disk-'));
  const root = path.join(dir, 'node');
  const demo = path.join(ROOT, 'assets', 'demo', 'minikube-conflict', 'files');
  for (const d of ['etc/cni/net.d', 'etc/containerd', 'opt/cni/bin'])
    mkdirSync(path.join(root, d), { recursive: true });
  for (const f of readdirSync(path.join(demo, 'etc/cni/net.d')))
    copyFileSync(path.join(demo, 'etc/cni/net.d', f), path.join(root, 'etc/cni/net.d', f));
  copyFileSync(
    path.join(demo, 'etc/containerd/config.toml'),
    path.join(root, 'etc/containerd/config.toml'),
  );
  for (const b of ['bridge', 'host-local', 'loopback', 'portmap', 'ptp', 'firewall', 'tuning']) {
    writeFileSync(path.join(root, 'opt/cni/bin', b), '#!/bin/sh\n');
    chmodSync(path.join(root, 'opt/cni/bin', b), 0o755);
  }
  const progress = new ProgressBus();
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ root, stateDir: path.join(dir, 'state'), verifyTimeoutMs: 3000 }),
    demosDir: path.join(ROOT, 'assets', 'demo'),
    openLiveHost: () => openHost({ root }),
    // The node this server is about, as `serve --root` makes it: the UI opens on it.
    liveChosen: true,
    tmpRoot: dir,
  });
  const server = await startWebServer({
    dispatcher: createDispatcher({ backend }),
    progress,
    staticDir: path.join(ROOT, 'dist', 'renderer'),
  });
  return {
    url: server.url,
    root,
    close: async () => {
      await server.close();
      await backend.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
