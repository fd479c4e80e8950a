/**
 * `serve` for the real containerd lab: the engine's live host (this machine, as `cni-doctor serve`
 * uses it) finds the lab's containerd through its process and --config, and the kubelet stand-in's
 * flags name its socket — exactly how it reads a real node. Repairs run with the real repair
 * environment; the lab's containerd is a plain process, so the service manager restarts it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openHost } from '../../main/engine/open-host';
import { createDispatcher } from '../../app/shared-server/dispatch';
import { createEngineBackend } from '../../app/shared-server/engine-backend';
import { engineRepairs } from '../../app/shared-server/engine-repairs';
import { ProgressBus } from '../../app/shared-server/progress';
import { startWebServer } from '../../app/web/server';
import { ProcessServiceManager } from '../../main/repairs/services/process';
import type { Lab } from '../lab/harness';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface LabServer {
  url: string;
  stateDir: string;
  close(): Promise<void>;
}

export async function serveLab(lab: Lab): Promise<LabServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-lab-'));
  const stateDir = path.join(dir, 'state');
  const services = new ProcessServiceManager({
    // lab.restart() stops and starts the lab's containerd itself.
    containerd: {
      start: () => lab.restart(),
      stop: async () => undefined,
      isActive: async () => lab.pid !== null,
    },
  });
  const progress = new ProgressBus();
  // The lab's containerd is healthy: a CRI deadline far above its normal answer (tens of ms)
  // keeps a loaded machine from turning into a different diagnosis (CRI unknown).
  const criDeadlineMs = 30_000;
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir, services, verifyTimeoutMs: 30_000, criDeadlineMs }),
    demosDir: path.join(ROOT, 'assets', 'demo'),
    openLiveHost: () => openHost({ criDeadlineMs }),
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
    stateDir,
    close: async () => {
      await server.close();
      await backend.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
