/**
 * The viewers over HTTP (`serve`) and IPC (desktop): the same routes as every other operation,
 * behind the same token, validated by the same dispatcher, answering the same envelopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CHANNELS, HTTP_ROUTES, type Envelope } from '../../shared/api';
import type { FileView } from '../../shared/api-viewers';
import { createDispatcher } from '../shared-server/dispatch';
import { createEngineBackend, type EngineBackend } from '../shared-server/engine-backend';
import { ProgressBus } from '../shared-server/progress';
import { registerIpcHandlers, type InvokeEventLike } from '../desktop/ipc-handlers';
import { appPageUrl } from '../desktop/sender';
import { startWebServer, type WebServer } from './server';
import { raw } from './test-client.testutil';

const TOKEN = 'tok_' + 'v'.repeat(39);
let backend: EngineBackend;
let server: WebServer;
let scanId: string;
const ipc = new Map<string, (e: InvokeEventLike, p: unknown) => Promise<unknown>>();
const PAGE = appPageUrl('/opt/cni-doctor/dist/renderer/index.html');

const post = (route: string, body: unknown, token = TOKEN) =>
  raw(server.port, {
    method: 'POST',
    path: route,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  backend = await createEngineBackend({
    door: 'web',
    progress: new ProgressBus(),
    repairs: {
      preview: async () => Promise.reject(new Error('no')),
      apply: async () => Promise.reject(new Error('no')),
      undo: async () => Promise.reject(new Error('no')),
      history: async () => [],
      undoPreview: async () => Promise.reject(new Error('no')),
      record: async () => Promise.reject(new Error('no')),
    },
    demosDir: join(process.cwd(), 'assets', 'demo'),
  });
  const dispatcher = createDispatcher({ backend });
  server = await startWebServer({ dispatcher, progress: new ProgressBus(), token: TOKEN });
  registerIpcHandlers({
    ipcMain: { handle: (c, h) => void ipc.set(c, h) },
    dispatcher,
    pageUrl: PAGE,
    saveExport: async () => null,
  });
  scanId = (await backend.scan({ source: 'demo', demoId: 'windows-antrea-containerd' })).scanId;
});
afterAll(async () => {
  await server.close();
  await backend.dispose();
});

const PATH = 'C:\\etc\\cni\\net.d\\10-antrea.conflist';

describe('viewers on both doors', () => {
  it('HTTP and IPC give the same file answer', async () => {
    const http = await post(HTTP_ROUTES.viewFile, { scanId, path: PATH });
    expect(http.status).toBe(200);
    const viaHttp = JSON.parse(http.body) as Envelope<FileView>;
    const viaIpc = (await ipc.get(CHANNELS.viewFile)?.(
      { senderFrame: { url: PAGE, parent: null } },
      { scanId, path: PATH },
    )) as Envelope<FileView>;
    expect(viaHttp).toEqual(viaIpc);
    expect(viaHttp.ok && viaHttp.result.lines).toContain('      "type": "antrea",');
  });

  it('HTTP maps refusals to status codes and asks for the token', async () => {
    expect((await post(HTTP_ROUTES.viewFile, { scanId, path: PATH }, 'wrong')).status).toBe(401);
    expect(
      (await post(HTTP_ROUTES.viewFile, { scanId, path: 'C:\\Windows\\win.ini' })).status,
    ).toBe(404);
    expect((await post(HTTP_ROUTES.viewFile, { scanId, path: PATH, from: -5 })).status).toBe(400);
    expect((await post(HTTP_ROUTES.viewLog, { scanId, path: PATH, line: 1, x: 1 })).status).toBe(
      400,
    );
    const cri = await post(HTTP_ROUTES.criRaw, { scanId });
    expect(cri.status).toBe(200);
    expect(cri.body).toContain('npipe:////./pipe/containerd-containerd');
  });

  it('IPC refuses another page', async () => {
    expect(
      await ipc.get(CHANNELS.criRaw)?.(
        { senderFrame: { url: 'https://evil.example/', parent: null } },
        { scanId },
      ),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});
