import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InventoryPage } from '../../shared/api-inventory';
import { known } from '../../shared/model/fact';
import type { Snapshot } from '../../shared/model/snapshot';
import { makeWindowsBundle } from '../../bench/windows-node';
import { createDispatcher } from './dispatch';
import { createEngineBackend, type EngineBackend } from './engine-backend';
import { capText } from './hns-objects';
import { InventoryPages } from './inventory-pages';
import { TAB_TABLES } from '../../shared/inventory-rows';
import { BundleHost } from '../../main/host/bundle-host';
import { scanHost } from '../../main/engine/scan';
import { ProgressBus } from './progress';

const ENDPOINTS = 20_000;
const DEMOS = join(process.cwd(), 'assets', 'demo');
const repairs = {
  preview: vi.fn(),
  apply: vi.fn(),
  undo: vi.fn(),
  history: vi.fn(async () => []),
  undoPreview: vi.fn(),
  record: vi.fn(),
};

let dir: string;
let backend: EngineBackend;
let scanId: string;
let rawEndpoints: Record<string, unknown>[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cni-doctor-inventory-'));
  const bundle = join(dir, 'big');
  await makeWindowsBundle(bundle, { endpoints: ENDPOINTS, policyLists: 100 });
  rawEndpoints = (
    JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as {
      hns: { endpoints: Record<string, unknown>[] };
    }
  ).hns.endpoints;
  backend = await createEngineBackend({
    door: 'web',
    progress: new ProgressBus(),
    repairs,
    demosDir: DEMOS,
    initialBundle: bundle,
  });
  scanId = (await backend.scan(backend.defaultSource ?? { source: 'live' })).scanId;
}, 60_000);

afterAll(async () => {
  await backend.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const ips = (p: InventoryPage): string[] => p.rows.map((r) => r[2] ?? '');

describe('Inventory windows from the engine', () => {
  it('answers a window of the 20,000 HNS endpoints, with every table of the tab', async () => {
    const p = await backend.inventory({ scanId, tab: 'hns-endpoints', offset: 100, limit: 50 });
    expect(p.tables).toEqual([
      expect.objectContaining({ title: 'HNS endpoints', total: ENDPOINTS, objects: 'endpoint' }),
    ]);
    expect(p.matched).toBe(ENDPOINTS);
    expect(p.offset).toBe(100);
    expect(p.rows).toHaveLength(50);
    // In the order the node listed them (the snapshot's ids are lower-case GUIDs).
    expect(p.rows[0]?.[0]).toBe(String(rawEndpoints[100]?.ID).toLowerCase());
    expect(JSON.stringify(p).length).toBeLessThan(20_000);

    const tail = await backend.inventory({ scanId, tab: 'hns-endpoints', offset: 19_990 });
    expect(tail.rows).toHaveLength(10);
    const past = await backend.inventory({ scanId, tab: 'hns-endpoints', offset: 5_000_000 });
    expect(past).toMatchObject({ offset: ENDPOINTS, rows: [] });
  });

  it('builds the rows once per scan and keeps sorted orders', async () => {
    const a = await backend.inventory({ scanId, tab: 'hns-endpoints', limit: 1 });
    const b = await backend.inventory({ scanId, tab: 'hns-endpoints', limit: 1 });
    expect(b.rows[0]).toBe(a.rows[0]);
    // Count the sorts (typed-array sorts: a row order is a Uint32Array) rather than time them.
    const typedSort = vi.spyOn(Object.getPrototypeOf(Uint32Array.prototype) as Uint32Array, 'sort');
    try {
      await backend.inventory({ scanId, tab: 'hns-endpoints', sort: { column: 1 }, offset: 9000 });
      expect(typedSort).toHaveBeenCalledTimes(1);
      // The second window of the same order is a slice of the kept order, not a sort.
      await backend.inventory({ scanId, tab: 'hns-endpoints', sort: { column: 1 }, offset: 9200 });
      expect(typedSort).toHaveBeenCalledTimes(1);
    } finally {
      typedSort.mockRestore();
    }
  });

  it('sorts the whole table: digit runs by value, both directions', async () => {
    const asc = await backend.inventory({
      scanId,
      tab: 'hns-endpoints',
      sort: { column: 2 },
      limit: 260,
    });
    // 10.0.0.9 before 10.0.0.10, 10.0.0.99 before 10.0.0.100 (not string order).
    expect(ips(asc).slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `10.0.0.${i}`));
    expect(ips(asc)[256]).toBe('10.0.1.0');
    const desc = await backend.inventory({
      scanId,
      tab: 'hns-endpoints',
      sort: { column: 2, descending: true },
      limit: 2,
    });
    expect(ips(desc)).toEqual(['10.0.78.31', '10.0.78.30']);
  });

  it('filters on any cell, ignoring case, and pages through the matches', async () => {
    const id = String(rawEndpoints[4321]?.ID).toUpperCase();
    const one = await backend.inventory({ scanId, tab: 'hns-endpoints', filter: id });
    expect(one.matched).toBe(1);
    expect(one.rows[0]?.[2]).toBe('10.0.16.225');
    // Every 50th endpoint is only Created (stale), the rest AttachedSharing.
    const created = await backend.inventory({
      scanId,
      tab: 'hns-endpoints',
      filter: 'created',
      sort: { column: 2, descending: true },
      offset: 1,
      limit: 2,
    });
    expect(created.matched).toBe(ENDPOINTS / 50);
    expect(created.rows.every((r) => r[4] === 'Created')).toBe(true);
    // Descending from endpoint 19,950 (10.0.77.238); offset 1 skips it.
    expect(ips(created)).toEqual(['10.0.77.188', '10.0.77.138']);
    const none = await backend.inventory({ scanId, tab: 'hns-endpoints', filter: 'no such text' });
    expect(none).toMatchObject({ matched: 0, rows: [] });
  });

  it('answers the small tabs of a Linux demo the same way', async () => {
    const linux = await backend.scan({ source: 'demo', demoId: 'minikube-conflict' });
    const cni = await backend.inventory({ scanId: linux.scanId, tab: 'cni' });
    expect(cni.tables.map((t) => t.title)).toEqual([
      'CNI configuration folders (in load order)',
      'CNI plugin folders',
    ]);
    expect(cni.rows.filter((r) => r[0] === '/etc/cni/net.d').map((r) => r[2])).toEqual([
      '10-containerd-net.conflist',
      '10-kindnet.conflist',
      '100-crio-bridge.conflist',
      '87-podman-bridge.conflist',
    ]);
    const bins = await backend.inventory({ scanId: linux.scanId, tab: 'cni', table: 1 });
    expect(bins.table).toBe(1);
    await expect(
      backend.inventory({ scanId: linux.scanId, tab: 'cni', table: 2 }),
    ).rejects.toMatchObject({ code: 'not-found' });
    await expect(
      backend.inventory({ scanId: linux.scanId, tab: 'cni', sort: { column: 7 } }),
    ).rejects.toMatchObject({ code: 'bad-request' });
    const hns = await backend.inventory({ scanId: linux.scanId, tab: 'hns-endpoints' });
    expect(hns.tables[0]?.note).toBe('not a Windows node');
  });
});

describe('the tables of a scan are built once', () => {
  it("builds the other tabs right after the first answer, so the next tab's click finds them", async () => {
    const snap = (await scanHost(await BundleHost.open(join(DEMOS, 'healthy-node')))).snapshot;
    const pages = new InventoryPages();
    const scan = {};
    const scanId = 's-0000000000000001';
    const spy = vi.spyOn(TAB_TABLES, 'kubelet');
    try {
      pages.page(scan, snap, { scanId, tab: 'cni' });
      expect(spy).not.toHaveBeenCalled();
      await new Promise((r) => setImmediate(r));
      expect(spy).toHaveBeenCalledTimes(1);
      const k = pages.page(scan, snap, { scanId, tab: 'kubelet' });
      expect(k.tables[0]?.title).toBe('kubelet settings');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('every answer stays small whatever the node holds', () => {
  const pipesOf = (names: string[]): Snapshot =>
    ({ windows: { pipes: known(names), hns: known({}) } }) as unknown as Snapshot;

  it('cuts huge cells and stops a window before 1 MiB of rows', () => {
    const pages = new InventoryPages();
    const scan = {};
    const names = Array.from({ length: 1000 }, (_, i) => `${i}-${'\u0001'.repeat(100_000)}`);
    const p = pages.page(scan, pipesOf(names), {
      scanId: 's-0000000000000000',
      tab: 'pipes',
      limit: 1000,
    });
    expect(p.rows[0]?.[0]?.length).toBe(4096);
    expect(p.rows[0]?.[0]?.endsWith('…')).toBe(true);
    // Each cell is ~24 KiB as JSON (control characters escape to \u0001): about 40 fit.
    expect(p.rows.length).toBeGreaterThan(30);
    expect(p.rows.length).toBeLessThan(50);
    expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(1.1 * 1024 * 1024);
    // The next window starts where this one stopped.
    const next = pages.page(scan, pipesOf(names), {
      scanId: 's-0000000000000000',
      tab: 'pipes',
      offset: p.rows.length,
    });
    expect(next.rows[0]?.[0]?.startsWith(`\\\\.\\pipe\\${p.rows.length}-`)).toBe(true);
  });

  it('caps pretty-printed JSON so that it still fits once escaped', () => {
    const text = JSON.stringify({ a: '"'.repeat(3_000_000) }, null, 2);
    const { text: cut, cut: wasCut } = capText(text, 1024 * 1024);
    expect(wasCut).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(1024 * 1024);
    expect(capText('{}', 100)).toEqual({ text: '{}', cut: false });
  });
});

describe('hostile Inventory requests are refused before the engine sees them', () => {
  const ok = { scanId: 's-0123456789abcdef', tab: 'hns-endpoints' };
  it.each([
    [{ ...ok, limit: 0 }],
    [{ ...ok, limit: 1001 }],
    [{ ...ok, limit: 1e9 }],
    [{ ...ok, offset: -1 }],
    [{ ...ok, offset: 1.5 }],
    [{ ...ok, offset: '10' }],
    [{ ...ok, table: 17 }],
    [{ ...ok, tab: 'secrets' }],
    [{ ...ok, sort: { column: -1 } }],
    [{ ...ok, sort: { column: 1, by: 'x' } }],
    [{ ...ok, filter: 'x'.repeat(201) }],
    [{ ...ok, filter: { $regex: '.*' } }],
    [{ ...ok, path: '/etc/shadow' }],
    [{ ...ok, scanId: '../../etc' }],
    [{ tab: 'cni' }],
  ])('inventory %j', async (payload) => {
    const spy = { ...backend, inventory: vi.fn(backend.inventory) };
    const env = await createDispatcher({ backend: spy })('inventory', payload);
    expect(env).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(spy.inventory).not.toHaveBeenCalled();
  });

  it.each([
    [{ scanId: 's-0123456789abcdef', kind: 'endpoint', id: '../../x' }],
    [{ scanId: 's-0123456789abcdef', kind: 'endpoint', id: 'a b' }],
    [{ scanId: 's-0123456789abcdef', kind: 'endpoint', id: 'x'.repeat(200) }],
    [{ scanId: 's-0123456789abcdef', kind: 'file', id: 'abc' }],
    [{ scanId: 's-0123456789abcdef', kind: 'endpoint' }],
  ])('hnsObject %j', async (payload) => {
    const spy = { ...backend, hnsObject: vi.fn(backend.hnsObject) };
    const env = await createDispatcher({ backend: spy })('hnsObject', payload);
    expect(env).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(spy.hnsObject).not.toHaveBeenCalled();
  });
});

describe('an HNS object as the node returned it', () => {
  it('finds an endpoint by the id a row shows, in any case, with or without braces', async () => {
    const raw = rawEndpoints[777] as Record<string, unknown>;
    const id = String(raw.ID);
    for (const asked of [id.toLowerCase(), `{${id.toUpperCase()}}`]) {
      const o = await backend.hnsObject({ scanId, kind: 'endpoint', id: asked });
      expect(o.id).toBe(id.toLowerCase());
      expect(JSON.parse(o.json)).toEqual(raw);
      expect(o.json).toContain('\n  "IPAddress": "10.0.3.9"');
      expect(o.truncatedFrom).toBeUndefined();
    }
    const net = await backend.hnsObject({
      scanId,
      kind: 'network',
      id: (await backend.inventory({ scanId, tab: 'hns-networks' })).rows[0]?.[0] ?? '',
    });
    expect(JSON.parse(net.json)).toMatchObject({ Name: 'antrea-hnsnetwork', Type: 'Transparent' });
  });

  it('says not-found for an id of another kind, an unknown id, or a node without HNS', async () => {
    const id = String(rawEndpoints[1]?.ID);
    await expect(backend.hnsObject({ scanId, kind: 'network', id })).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(
      backend.hnsObject({ scanId, kind: 'endpoint', id: '00000000-0000-0000-0000-000000000000' }),
    ).rejects.toMatchObject({ code: 'not-found' });
    const linux = await backend.scan({ source: 'demo', demoId: 'healthy-node' });
    await expect(
      backend.hnsObject({ scanId: linux.scanId, kind: 'endpoint', id }),
    ).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('HNS') });
  });
});
