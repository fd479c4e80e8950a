import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as tarCreate } from 'tar';
import type { RepairPreview } from '../../shared/api';
import { BundleHost } from '../../main/host/bundle-host';
import { memoryNode } from '../../main/host/memory-node.testutil';
import { createDispatcher } from './dispatch';
import { createEngineBackend, type EngineBackend } from './engine-backend';
import { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';

const DEMOS = join(process.cwd(), 'assets', 'demo');
const OFFERED = 'cni.conf.shadowed-by-default:disable-files:containerd';

function spyRepairs(
  preview: Partial<RepairPreview> = {},
): RepairPort & { preview: ReturnType<typeof vi.fn>; apply: ReturnType<typeof vi.fn> } {
  const needsElevation = preview.needsElevation ?? false;
  const plan = {
    repairId: OFFERED,
    rule: 'cni.conf.shadowed-by-default',
    findingId: 'f',
    kind: 'disable-files',
    title: 't',
    risk: 'low',
    needsElevation,
    steps: [],
    podImpact: 'none',
    services: [],
    inputs: [],
    notes: [],
  } as const;
  const p: RepairPreview = {
    repairId: OFFERED,
    title: 't',
    plan: { ...plan, steps: [], services: [], inputs: [], notes: [] },
    description: [],
    diffs: [],
    services: [],
    podImpact: 'none',
    risk: 'low',
    needsElevation,
    notes: [],
    previewToken: 'tok-12345678',
  };
  return {
    preview: vi.fn(async () => p),
    apply: vi.fn(async () => ({
      entry: 'e-1',
      repair: OFFERED,
      status: 'applied' as const,
      reason: '',
      verification: null,
    })),
    undo: vi.fn(async () => ({
      entry: 'e-1',
      repair: OFFERED,
      status: 'undone' as const,
      reason: '',
      verification: null,
    })),
    history: vi.fn(async () => []),
    undoPreview: vi.fn(async () => Promise.reject(new Error('no journal'))),
    record: vi.fn(async () => Promise.reject(new Error('no journal'))),
  };
}

let backend: EngineBackend | undefined;
afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
});

describe('engine backend', () => {
  it("scans a demo by id, with the top finding and the Inventory's rows on demand", async () => {
    backend = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: spyRepairs(),
      demosDir: DEMOS,
    });
    const r = await backend.scan({ source: 'demo', demoId: 'minikube-conflict' });
    expect(r.report.summary?.topFindingId).toMatch(/^cni.conf.shadowed-by-default/);
    expect(r.canApply).toBe(false);
    const inv = await backend.inventory({ scanId: r.scanId, tab: 'cni' });
    expect(inv.rows[0]?.[0]).toBe('/etc/cni/net.d');
    expect((await backend.listDemos(undefined)).map((d) => d.id)).toEqual([
      'windows-antrea-containerd',
      'minikube-conflict',
      'healthy-node',
    ]);
  });

  it('emits scan progress', async () => {
    const progress = new ProgressBus();
    const seen: string[] = [];
    progress.subscribe((e) => e.kind === 'scan' && seen.push(e.step));
    backend = await createEngineBackend({
      door: 'web',
      progress,
      repairs: spyRepairs(),
      demosDir: DEMOS,
    });
    await backend.scan({ source: 'demo', demoId: 'healthy-node' });
    expect(seen[0]).toBe('opening');
    expect(seen).toContain('CNI configuration');
    expect(seen.at(-1)).toBe('done');
  });

  it('refuses a repair id that no finding of the current scan offers; the repair engine is never asked', async () => {
    const repairs = spyRepairs();
    backend = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs,
      demosDir: DEMOS,
      openLiveHost: () => BundleHost.open(join(DEMOS, 'minikube-conflict')),
    });
    const dispatch = createDispatcher({ backend });
    expect(
      await dispatch('previewRepair', { scanId: 's-0000000000000000', repairId: OFFERED }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    }); // nothing scanned yet
    const { scanId } = await backend.scan({ source: 'live' });
    for (const repairId of [
      'cni.conf.none:enable-disabled',
      'containerd.cri.disabled:remove-entry',
      'hns.endpoint.stale:hns-remove-endpoints',
    ]) {
      expect(await dispatch('previewRepair', { scanId, repairId })).toMatchObject({
        ok: false,
        error: { code: 'not-found' },
      });
      expect(
        await dispatch('applyRepair', { scanId, repairId, previewToken: 'tok-12345678' }),
      ).toMatchObject({ ok: false, error: { code: 'not-found' } });
    }
    expect(repairs.preview).not.toHaveBeenCalled();
    expect(repairs.apply).not.toHaveBeenCalled();
    expect(await dispatch('previewRepair', { scanId, repairId: OFFERED })).toMatchObject({
      ok: true,
    });
    expect(repairs.preview).toHaveBeenCalledOnce();
  });

  it('never applies a repair to a recording', async () => {
    const repairs = spyRepairs();
    backend = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs,
      demosDir: DEMOS,
    });
    const { scanId } = await backend.scan({ source: 'demo', demoId: 'minikube-conflict' });
    await expect(
      backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-12345678' }),
    ).rejects.toMatchObject({ code: 'refused' });
    await expect(backend.previewRepair({ scanId, repairId: OFFERED })).rejects.toThrow(
      /cni-doctor fix/,
    );
    expect(repairs.apply).not.toHaveBeenCalled();
    expect(repairs.preview).not.toHaveBeenCalled();
  });

  describe('on the live node', () => {
    const live = () => BundleHost.open(join(DEMOS, 'minikube-conflict'));

    it('applies only the plan that was previewed', async () => {
      const repairs = spyRepairs();
      backend = await createEngineBackend({
        door: 'web',
        progress: new ProgressBus(),
        repairs,
        demosDir: DEMOS,
        openLiveHost: live,
        elevated: true,
      });
      const { scanId } = await backend.scan({ source: 'live' });
      // Nothing previewed yet: nothing to apply.
      await expect(
        backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-12345678' }),
      ).rejects.toMatchObject({ code: 'refused' });
      await backend.previewRepair({ scanId, repairId: OFFERED });
      await expect(
        backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-stale000' }),
      ).rejects.toMatchObject({ code: 'refused' });
      expect(repairs.apply).not.toHaveBeenCalled();
      expect(
        await backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-12345678' }),
      ).toMatchObject({ status: 'applied' });
      expect(repairs.apply).toHaveBeenCalledOnce();
      // One plan for the preview; apply does not plan again here (the engine's apply checks the
      // token against its own single rescan).
      expect(repairs.preview).toHaveBeenCalledOnce();
      // After a repair the node changed: the old scan no longer vouches for repair ids.
      await expect(backend.previewRepair({ scanId, repairId: OFFERED })).rejects.toMatchObject({
        code: 'not-found',
      });
    });

    it("pins the scan a repair was planned from: 8 later scans do not evict it, and the journal's record names it", async () => {
      const repairs = spyRepairs();
      repairs.record = vi.fn(async (entryId: string) => ({
        id: entryId,
        repair: OFFERED,
        rule: 'cni.conf.shadowed-by-default',
        title: 't',
        status: 'verified' as const,
        createdAt: '2026-01-01T00:00:00Z',
        appliedAt: null,
        finishedAt: null,
        hostname: 'n',
        root: '/',
        reason: null,
        files: [],
        verification: null,
        rollback: null,
        undo: null,
      }));
      backend = await createEngineBackend({
        door: 'web',
        progress: new ProgressBus(),
        repairs,
        demosDir: DEMOS,
        openLiveHost: live,
        elevated: true,
      });
      const before = await backend.scan({ source: 'live' });
      const scanId = before.scanId;
      await backend.previewRepair({ scanId, repairId: OFFERED });
      await backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-12345678' });
      for (let i = 0; i < 8; i++) await backend.scan({ source: 'live' });
      const held = await backend.listScans(undefined);
      expect(held.map((h) => h.scanId)).toContain(before.scanId);
      expect(
        await backend.repairRecord({ entryId: 'e-1', source: { source: 'live' } }),
      ).toMatchObject({
        beforeScanId: before.scanId,
      });
      const after = held.find((h) => h.current)?.scanId ?? '';
      const c = await backend.compare({
        before: { scanId: before.scanId },
        after: { scanId: after },
      });
      expect(c.beforeScanId).toBe(before.scanId);
    });

    it('a repair that needs root goes to the elevated runner, never to the in-process engine', async () => {
      const repairs = spyRepairs({ needsElevation: true });
      const runElevated = vi.fn(async (id: string, _token: string) => ({
        entry: 'e-2',
        repair: id,
        status: 'applied' as const,
        reason: '',
        verification: null,
      }));
      backend = await createEngineBackend({
        door: 'desktop',
        progress: new ProgressBus(),
        repairs,
        demosDir: DEMOS,
        openLiveHost: live,
        elevated: false,
        runElevated,
      });
      const { scanId } = await backend.scan({ source: 'live' });
      await backend.previewRepair({ scanId, repairId: OFFERED });
      expect(
        await backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-12345678' }),
      ).toMatchObject({ entry: 'e-2' });
      expect(runElevated).toHaveBeenCalledWith(OFFERED, 'tok-12345678');
      expect(repairs.apply).not.toHaveBeenCalled();
    });

    it('without a way to elevate, says how to run it instead', async () => {
      const repairs = spyRepairs({ needsElevation: true });
      backend = await createEngineBackend({
        door: 'web',
        progress: new ProgressBus(),
        repairs,
        demosDir: DEMOS,
        openLiveHost: live,
        elevated: false,
      });
      const { scanId } = await backend.scan({ source: 'live' });
      await backend.previewRepair({ scanId, repairId: OFFERED });
      await expect(
        backend.applyRepair({ scanId, repairId: OFFERED, previewToken: 'tok-12345678' }),
      ).rejects.toThrow(/sudo cni-doctor fix/);
      expect(repairs.apply).not.toHaveBeenCalled();
    });
  });

  describe('bundles', () => {
    it('opens an uploaded .tar.gz and scans it by id; ids it did not hand out are unknown', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-bt-'));
      try {
        const file = join(dir, 'b.tar.gz');
        await tarCreate(
          { gzip: true, file, cwd: join(DEMOS, 'windows-antrea-containerd'), portable: true },
          ['manifest.json', 'files'],
        );
        backend = await createEngineBackend({
          door: 'web',
          progress: new ProgressBus(),
          repairs: spyRepairs(),
          demosDir: DEMOS,
          tmpRoot: dir,
        });
        const info = await backend.openBundle({
          kind: 'upload',
          fileName: 'customer.tar.gz',
          data: readFileSync(file),
        });
        expect(info).toMatchObject({
          name: 'customer.tar.gz',
          os: 'windows',
          hostname: 'win-node-1',
        });
        expect(info.bundleId).toMatch(/^b-[a-f0-9]{16}$/);
        const r = await backend.scan({ source: 'bundle', bundleId: info.bundleId });
        expect(r.report.node.os).toBe('windows');
        expect((await backend.listBundles(undefined)).map((b) => b.bundleId)).toEqual([
          info.bundleId,
        ]);
        await expect(
          backend.scan({ source: 'bundle', bundleId: 'b-0000000000000000' }),
        ).rejects.toMatchObject({ code: 'not-found' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses bytes that are not a bundle, and keeps nothing', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-bt-'));
      try {
        backend = await createEngineBackend({
          door: 'web',
          progress: new ProgressBus(),
          repairs: spyRepairs(),
          demosDir: DEMOS,
          tmpRoot: dir,
        });
        await expect(
          backend.openBundle({
            kind: 'upload',
            fileName: 'x.tar.gz',
            data: Buffer.from('not gzip at all'),
          }),
        ).rejects.toMatchObject({ code: 'bad-request' });
        expect(await backend.listBundles(undefined)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('serve --bundle: the given bundle is the default source and is scanned before anyone asks', async () => {
      backend = await createEngineBackend({
        door: 'web',
        progress: new ProgressBus(),
        repairs: spyRepairs(),
        demosDir: DEMOS,
        initialBundle: join(DEMOS, 'healthy-node'),
      });
      const info = await backend.info(undefined);
      expect(info.defaultSource?.source).toBe('bundle');
      const r = await backend.scan(info.defaultSource ?? { source: 'live' });
      expect(r.report.findings).toEqual([]);
    });
  });
});

describe('engine backend: which node the UI opens on (issue 22)', () => {
  it('with no node given, opens on the picker: no default source, and nothing is scanned', async () => {
    const progress = new ProgressBus();
    const steps: string[] = [];
    progress.subscribe((e) => void (e.kind === 'scan' && steps.push(e.step)));
    const b = await createEngineBackend({
      door: 'web',
      progress,
      repairs: spyRepairs(),
      demosDir: DEMOS,
      // A laptop: podman's conflist in /etc/cni/net.d, but no kubelet.
      openLiveHost: async () =>
        memoryNode({ files: { '/etc/cni/net.d/87-podman-bridge.conflist': '{}' } }),
    });
    try {
      const info = await b.info(undefined);
      expect(info.defaultSource).toBeNull();
      // No kubelet configuration: this machine is not offered first.
      expect(info.thisMachineIsNode).toBeUndefined();
      expect(await b.listScans(undefined)).toEqual([]);
      expect(steps).toEqual([]);
    } finally {
      await b.dispose();
    }
  });

  it('says why this machine looks like a node when its kubelet configuration exists', async () => {
    const b = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: spyRepairs(),
      demosDir: DEMOS,
      openLiveHost: () => BundleHost.open(join(DEMOS, 'minikube-conflict')),
    });
    try {
      expect((await b.info(undefined)).thisMachineIsNode).toBe(
        '/var/lib/kubelet/config.yaml exists',
      );
    } finally {
      await b.dispose();
    }
  });

  it('serve --target opens on that node; --root (liveChosen) on this machine', async () => {
    const t = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: spyRepairs(),
      demosDir: DEMOS,
      initialTarget: 'container:podman/no-such-node-for-this-test',
    });
    const l = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: spyRepairs(),
      demosDir: DEMOS,
      openLiveHost: () => BundleHost.open(join(DEMOS, 'healthy-node')),
      liveChosen: true,
    });
    try {
      expect((await t.info(undefined)).defaultSource).toEqual({
        source: 'target',
        targetId: 'container:podman/no-such-node-for-this-test',
      });
      expect((await l.info(undefined)).defaultSource).toEqual({ source: 'live' });
    } finally {
      await t.dispose();
      await l.dispose();
    }
  });

  it('history and export act on the node the page names, and say a recording has no journal here', async () => {
    const repairs = spyRepairs();
    const b = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs,
      demosDir: DEMOS,
      openLiveHost: () => BundleHost.open(join(DEMOS, 'healthy-node')),
    });
    try {
      // Another tab scanned a demo last: the page that shows this machine still gets its journal.
      await b.scan({ source: 'demo', demoId: 'minikube-conflict' });
      await b.history({ source: { source: 'live' } });
      expect(repairs.history).toHaveBeenLastCalledWith(undefined);
      expect(await b.history({ source: { source: 'demo', demoId: 'minikube-conflict' } })).toEqual(
        [],
      );
      await expect(
        b.exportBundle({ source: { source: 'demo', demoId: 'minikube-conflict' } }),
      ).rejects.toMatchObject({ code: 'refused' });
      // A target nobody opened in this session is not reached.
      await expect(
        b.history({ source: { source: 'target', targetId: 'ssh:admin@elsewhere' } }),
      ).rejects.toMatchObject({ code: 'not-found' });
      await expect(
        b.exportBundle({ source: { source: 'target', targetId: 'ssh:admin@elsewhere' } }),
      ).rejects.toMatchObject({ code: 'not-found' });
    } finally {
      await b.dispose();
    }
  });
});

describe('engine backend memory', () => {
  it('keeps a recording that is used again, and forgets scans nobody asked for in a while', async () => {
    const b = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: spyRepairs(),
      demosDir: DEMOS,
      openLiveHost: () => BundleHost.open(join(DEMOS, 'healthy-node')),
    });
    try {
      const first = await b.scan({ source: 'demo', demoId: 'minikube-conflict' });
      for (let i = 0; i < 8; i++) {
        await b.scan({ source: 'live' });
        expect((await b.scan({ source: 'demo', demoId: 'minikube-conflict' })).scanId).toBe(
          first.scanId,
        );
        expect((await b.inventory({ scanId: first.scanId, tab: 'cni' })).scanId).toBe(first.scanId);
      }
      const windows = await b.scan({ source: 'demo', demoId: 'windows-antrea-containerd' });
      for (let i = 0; i < 8; i++) await b.scan({ source: 'live' });
      await expect(b.inventory({ scanId: windows.scanId, tab: 'cni' })).rejects.toMatchObject({
        code: 'not-found',
      });
      // Asking for it again scans it again.
      expect(
        (await b.scan({ source: 'demo', demoId: 'windows-antrea-containerd' })).scanId,
      ).not.toBe(windows.scanId);
    } finally {
      await b.dispose();
    }
  });
});
