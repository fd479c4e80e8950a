import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { ExportedBundle } from '../shared-server/backend';
import { CHANNELS, type Envelope } from '../../shared/api';
import { createDispatcher } from '../shared-server/dispatch';
import { callsTotal, spyBackend, type SpyBackend } from '../shared-server/fake-backend.testutil';
import { registerIpcHandlers, type InvokeEventLike, type IpcMainLike } from './ipc-handlers';
import { appPageUrl } from './sender';

const PAGE = appPageUrl('/opt/cni-doctor/resources/app.asar/dist/renderer/index.html');
type Handler = (event: InvokeEventLike, payload: unknown) => Promise<unknown>;

let backend: SpyBackend;
let handlers: Map<string, Handler>;
let saveExport: Mock<(b: ExportedBundle) => Promise<string | null>>;
let chooseBundleFile: Mock<() => Promise<string | null>>;

const own: InvokeEventLike = { senderFrame: { url: `${PAGE}#/findings`, parent: null } };
const call = (channel: string, payload?: unknown, event: InvokeEventLike = own) =>
  handlers.get(channel)?.(event, payload) as Promise<Envelope<unknown>>;

beforeEach(() => {
  backend = spyBackend();
  handlers = new Map();
  const ipcMain: IpcMainLike = { handle: (c, h) => void handlers.set(c, h) };
  saveExport = vi.fn(async (_b: ExportedBundle): Promise<string | null> => '/home/u/node.tar.gz');
  chooseBundleFile = vi.fn(async (): Promise<string | null> => '/home/u/customer.tar.gz');
  registerIpcHandlers({
    ipcMain,
    dispatcher: createDispatcher({ backend, chooseBundleFile }),
    pageUrl: PAGE,
    saveExport,
  });
});

describe('IPC handlers', () => {
  it('register exactly one handler per DoctorApi channel', () => {
    expect([...handlers.keys()].sort()).toEqual(Object.values(CHANNELS).sort());
  });

  it('serve the app page', async () => {
    expect(
      await call(CHANNELS.scan, { source: 'demo', demoId: 'minikube-conflict' }),
    ).toMatchObject({ ok: true });
    // The request as the page sent it; IPC has no abort signal to pass (a window cannot leave
    // mid-request the way a browser tab can).
    expect(backend.scan).toHaveBeenCalledWith(
      { source: 'demo', demoId: 'minikube-conflict' },
      undefined,
    );
  });

  it('hand the Inventory window and HNS object requests to the engine as the HTTP door does', async () => {
    const page = { scanId: 's-0123456789abcdef', tab: 'hns-endpoints', offset: 400, limit: 200 };
    await call(CHANNELS.inventory, { ...page, sort: { column: 2, descending: true } });
    expect(backend.inventory).toHaveBeenCalledWith({
      ...page,
      sort: { column: 2, descending: true },
    });
    const obj = { scanId: 's-0123456789abcdef', kind: 'network', id: '{C08CB52A-1A3A-4A14}' };
    await call(CHANNELS.hnsObject, obj);
    expect(backend.hnsObject).toHaveBeenCalledWith(obj);
  });

  it('refuse every other sender: another file, a web page, an iframe, no frame', async () => {
    const strangers: InvokeEventLike[] = [
      { senderFrame: { url: 'file:///tmp/evil.html', parent: null } },
      {
        senderFrame: {
          url: appPageUrl('/opt/cni-doctor/resources/app.asar/dist/renderer/other.html'),
          parent: null,
        },
      },
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: 'devtools://devtools/bundled/inspector.html', parent: null } },
      { senderFrame: { url: PAGE, parent: {} } },
      { senderFrame: { url: 'not a url', parent: null } },
      { senderFrame: null },
    ];
    for (const ev of strangers) {
      for (const channel of Object.values(CHANNELS)) {
        expect(await call(channel, { source: 'live' }, ev)).toMatchObject({
          ok: false,
          error: { code: 'forbidden' },
        });
      }
    }
    expect(callsTotal(backend)).toBe(0);
    expect(chooseBundleFile).not.toHaveBeenCalled();
  });

  const hostile: [string, unknown][] = [
    [CHANNELS.scan, { source: 'demo', demoId: '../../etc/passwd' }],
    [CHANNELS.scan, { source: 'bundle', bundleId: '; rm -rf /' }],
    [CHANNELS.scan, { source: 'bundle', bundleId: 'b-0123456789abcdef', path: '/etc' }],
    [CHANNELS.scan, { source: 'root', root: '/' }],
    [CHANNELS.scan, 'live'],
    [CHANNELS.scan, undefined],
    [CHANNELS.previewRepair, { repairId: '../../etc/passwd' }],
    [CHANNELS.previewRepair, { repairId: '; rm -rf /' }],
    [CHANNELS.previewRepair, { repairId: 7 }],
    [CHANNELS.previewRepair, 'cni.conf.none:enable'],
    [
      CHANNELS.applyRepair,
      {
        repairId: 'cni.conf.none:enable',
        previewToken: 'abcdefgh',
        steps: [{ kind: 'write', path: '/etc/shadow' }],
      },
    ],
    [CHANNELS.undo, { entryId: '/var/lib/cni-doctor/journal/x' }],
    [CHANNELS.inventory, { scanId: 'x'.repeat(100_000) }],
    [CHANNELS.inventory, { scanId: 's-0123456789abcdef', tab: 'cni', limit: 100_000 }],
    [CHANNELS.hnsObject, { scanId: 's-0123456789abcdef', kind: 'endpoint', id: '../../etc' }],
    [CHANNELS.openBundle, { kind: 'path', path: '/etc/shadow' }],
    [CHANNELS.openBundle, { kind: 'upload', fileName: '../../x.tar.gz', data: new ArrayBuffer(4) }],
    [CHANNELS.openBundle, { kind: 'upload', fileName: 'x.tar.gz', data: 'H4sIAAAA' }],
    [CHANNELS.openBundle, { kind: 'upload', fileName: 'x.tar.gz', data: new ArrayBuffer(0) }],
    [CHANNELS.rules, { all: true }],
    [CHANNELS.scan, JSON.parse('{"__proto__":{"polluted":1},"source":"live"}')],
    [CHANNELS.previewRepair, { repairId: 'x', constructor: { prototype: { polluted: 1 } } }],
    [CHANNELS.scan, { source: 'live', a: { b: { c: { d: { e: {} } } } } }],
  ];

  it.each(hostile)(
    'refuse hostile payloads on %s before the engine sees them',
    async (channel, payload) => {
      expect(await call(channel, payload)).toMatchObject({
        ok: false,
        error: { code: 'bad-request' },
      });
      expect(callsTotal(backend)).toBe(0);
      expect(chooseBundleFile).not.toHaveBeenCalled();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('accept uploaded bytes as an ArrayBuffer (structured clone) and open the dialog only on request', async () => {
    expect(
      await call(CHANNELS.openBundle, {
        kind: 'upload',
        fileName: 'node.tar.gz',
        data: new Uint8Array([31, 139]).buffer,
      }),
    ).toMatchObject({ ok: true });
    expect(backend.openBundle.mock.calls[0]?.[0]).toMatchObject({
      kind: 'upload',
      fileName: 'node.tar.gz',
    });
    expect(await call(CHANNELS.openBundle, { kind: 'dialog' })).toMatchObject({ ok: true });
    expect(chooseBundleFile).toHaveBeenCalledOnce();
    // The path comes from the main process's own dialog, never from the page.
    expect(backend.openBundle.mock.calls[1]?.[0]).toEqual({
      kind: 'path',
      path: '/home/u/customer.tar.gz',
    });
  });

  it('export goes through the save dialog and returns no bytes to the page', async () => {
    const r = await call(CHANNELS.exportBundle);
    expect(r).toEqual({
      ok: true,
      result: { fileName: 'node.tar.gz', bytes: 4, savedTo: '/home/u/node.tar.gz' },
    });
    saveExport.mockResolvedValueOnce(null);
    expect(await call(CHANNELS.exportBundle)).toMatchObject({
      ok: true,
      result: { cancelled: true },
    });
  });
});
