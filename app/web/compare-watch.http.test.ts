/**
 * Compare and Watch over both doors with the real engine: the renderer's own HTTP client against
 * `serve`, and the IPC handlers, give the same answers; a change on a node disk reaches the
 * browser's event stream as a `stale` event.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS, type Envelope, type ProgressEvent, type StaleEvent } from '../../shared/api';
import type { CompareResponse } from '../../shared/api-compare';
import { openHost } from '../../main/engine/open-host';
import { createHttpApi } from '../../renderer/src/api/http-client';
import { registerIpcHandlers, type InvokeEventLike } from '../desktop/ipc-handlers';
import { appPageUrl } from '../desktop/sender';
import { createDispatcher } from '../shared-server/dispatch';
import { createEngineBackend, type EngineBackend } from '../shared-server/engine-backend';
import { engineRepairs } from '../shared-server/engine-repairs';
import { ProgressBus } from '../shared-server/progress';
import { startWebServer, type WebServer } from './server';
import { until } from '../../shared/until.testutil';

const DEMOS = join(process.cwd(), 'assets', 'demo');
let backend: EngineBackend | undefined;
let server: WebServer | undefined;
const temps: string[] = [];
afterEach(async () => {
  await server?.close();
  await backend?.dispose();
  server = undefined;
  backend = undefined;
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

async function serve(root?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-compare-http-'));
  temps.push(dir);
  const progress = new ProgressBus();
  // Who listens to progress: the server subscribes each event stream as it connects.
  const subscribed = vi.spyOn(progress, 'subscribe');
  backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir: join(dir, 'state'), ...(root && { root }) }),
    demosDir: DEMOS,
    tmpRoot: dir,
    ...(root && { openLiveHost: () => openHost({ root }) }),
    watch: { debounceMs: 50, pollMs: 200 },
  });
  const dispatcher = createDispatcher({ backend });
  server = await startWebServer({ dispatcher, progress, token: 't'.repeat(43) });
  const api = createHttpApi({ token: server.token, baseUrl: `http://127.0.0.1:${server.port}` });
  return { api, dispatcher, subscribed };
}

describe('Compare over HTTP and IPC', () => {
  it('the same comparison through the browser client and the desktop IPC handler', async () => {
    const { api, dispatcher } = await serve();
    const a = await api.scan({ source: 'demo', demoId: 'minikube-conflict' });
    const req = {
      before: { scanId: a.scanId },
      after: { source: 'demo' as const, demoId: 'healthy-node' },
    };
    const viaHttp = await api.compare(req);
    expect(viaHttp.comparison.gone.map((f) => f.rule)).toContain('cni.conf.shadowed-by-default');
    expect((await api.listScans()).map((s) => s.scanId)).toEqual([viaHttp.afterScanId, a.scanId]);

    const handlers = new Map<string, (e: InvokeEventLike, p: unknown) => Promise<unknown>>();
    const page = appPageUrl('/opt/cni-doctor/dist/renderer/index.html');
    registerIpcHandlers({
      ipcMain: { handle: (c, h) => void handlers.set(c, h) },
      dispatcher,
      pageUrl: page,
      saveExport: async () => null,
    });
    const own: InvokeEventLike = { senderFrame: { url: page, parent: null } };
    const viaIpc = (await handlers.get(CHANNELS.compare)?.(own, req)) as Envelope<CompareResponse>;
    expect(viaIpc).toEqual({ ok: true, result: viaHttp });
    const status = (await handlers.get(CHANNELS.watchStatus)?.(own, {
      scanId: a.scanId,
    })) as Envelope<unknown>;
    expect(status).toMatchObject({ ok: true, result: { available: false, stale: false } });
  });

  it('a conf file written on the node disk reaches the browser as a stale event', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cni-doctor-compare-disk-'));
    temps.push(root);
    cpSync(join(DEMOS, 'minikube-conflict', 'files'), root, { recursive: true });
    const { api, subscribed } = await serve(root);
    const scan = await api.scan({ source: 'live' });
    const events: ProgressEvent[] = [];
    const streamsBefore = subscribed.mock.calls.length;
    const stop = api.onProgress((e) => events.push(e));
    try {
      await until(
        async () => (await api.watchStatus(scan.scanId)).watching !== undefined,
        'the scan to be watched',
      );
      await until(
        () => subscribed.mock.calls.length > streamsBefore,
        "the browser's event stream to be connected",
      );
      writeFileSync(join(root, 'etc/cni/net.d/05-cilium.conflist'), '{"name":"cilium"}');
      await until(() => events.some((e) => e.kind === 'stale'), 'a stale event in the browser');
      const stale = events.find((e): e is StaleEvent => e.kind === 'stale');
      expect(stale?.scanIds).toEqual([scan.scanId]);
      expect(stale?.changed).toEqual(['/etc/cni/net.d']);
      expect(await api.watchStatus(scan.scanId)).toMatchObject({ stale: true });
    } finally {
      stop();
    }
  });
});
