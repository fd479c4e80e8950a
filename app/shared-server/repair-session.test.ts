/**
 * Two tabs on two nodes (issue 22 point 2): every repair, undo and journal read acts on the node
 * of the page that asked (its scanId or its source), never on whatever another tab scanned last.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScanRequest } from '../../shared/api';
import { openHost } from '../../main/engine/open-host';
import { createDispatcher } from './dispatch';
import { createEngineBackend, type EngineBackend } from './engine-backend';
import { engineRepairs } from './engine-repairs';
import { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';
import { TargetRegistry } from './targets';

const DEMOS = join(process.cwd(), 'assets', 'demo');
const DEMO = join(DEMOS, 'minikube-conflict', 'files');
const REPAIR = 'cni.conf.shadowed-by-default:disable-files:containerd';
const LIVE: ScanRequest = { source: 'live' };
const DEMO_B: ScanRequest = { source: 'demo', demoId: 'minikube-conflict' };

/** A Linux node disk (the minikube demo's files) to repair under --root. */
function nodeDisk(root: string): void {
  for (const d of ['etc/cni/net.d', 'etc/containerd', 'opt/cni/bin'])
    mkdirSync(join(root, d), { recursive: true });
  for (const f of readdirSync(join(DEMO, 'etc/cni/net.d')))
    copyFileSync(join(DEMO, 'etc/cni/net.d', f), join(root, 'etc/cni/net.d', f));
  copyFileSync(join(DEMO, 'etc/containerd/config.toml'), join(root, 'etc/containerd/config.toml'));
  for (const b of ['bridge', 'host-local', 'loopback', 'portmap', 'ptp', 'firewall', 'tuning']) {
    writeFileSync(join(root, 'opt/cni/bin', b), '#!/bin/sh\n');
    chmodSync(join(root, 'opt/cni/bin', b), 0o755);
  }
}

let dir = '';
let backend: EngineBackend | undefined;
afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('repairs act on the node of the page that asked', () => {
  it('tab A previews on its node disk, tab B scans another node, tab A applies and undoes on its own node', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cni-doctor-two-tabs-'));
    const root = join(dir, 'node');
    nodeDisk(root);
    const conf = join(root, 'etc/cni/net.d/10-containerd-net.conflist');
    backend = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: engineRepairs({ root, stateDir: join(dir, 'state'), verifyTimeoutMs: 2000 }),
      demosDir: DEMOS,
      openLiveHost: () => openHost({ root }),
      tmpRoot: dir,
    });
    const dispatch = createDispatcher({ backend });

    const a = await backend.scan(LIVE); // tab A
    const preview = await backend.previewRepair({ scanId: a.scanId, repairId: REPAIR });
    const b = await backend.scan(DEMO_B); // tab B: another node, scanned last
    // Tab B's scan is a recording: its own repair is refused, and never reaches A's node.
    await expect(backend.previewRepair({ scanId: b.scanId, repairId: REPAIR })).rejects.toThrow(
      /recording/,
    );
    expect(existsSync(conf)).toBe(true);

    const applied = await backend.applyRepair({
      scanId: a.scanId,
      repairId: REPAIR,
      previewToken: preview.previewToken,
    });
    expect(applied).toMatchObject({ status: 'applied', verification: { resolved: true } });
    expect(existsSync(`${conf}.disabled`)).toBe(true);

    await backend.scan(DEMO_B); // tab B again, last once more
    const history = await backend.history({ source: LIVE });
    expect(history.map((h) => h.repair)).toEqual([REPAIR]);
    const entryId = history[0]?.id ?? '';
    expect(await backend.repairRecord({ entryId, source: LIVE })).toMatchObject({
      status: 'verified',
      beforeScanId: a.scanId,
    });
    const undoPreview = await backend.previewUndo({ entryId, source: LIVE });
    expect(undoPreview.changes.map((c) => c.path).join('\n')).toContain('10-containerd-net');
    // Undo from tab B's node (a recording) is refused, not turned into an undo on A.
    await expect(backend.undo({ entryId, source: DEMO_B })).rejects.toMatchObject({
      code: 'refused',
    });
    expect(existsSync(`${conf}.disabled`)).toBe(true);
    expect(await backend.undo({ entryId, source: LIVE })).toMatchObject({ status: 'undone' });
    expect(existsSync(conf)).toBe(true);

    // The old scan of A no longer vouches for repairs after they changed A: scan again.
    await expect(
      backend.previewRepair({ scanId: a.scanId, repairId: REPAIR }),
    ).rejects.toMatchObject({ code: 'not-found' });
    // A scan the server never made (or evicted) is "scan again", never another node's scan.
    expect(
      await dispatch('previewRepair', { scanId: 's-0000000000000000', repairId: REPAIR }),
    ).toMatchObject({ ok: false, error: { code: 'not-found', message: /scan the node again/ } });
    // The doors refuse a repair or an undo that does not name its scan or its node.
    expect(await dispatch('previewRepair', { repairId: REPAIR })).toMatchObject({
      ok: false,
      error: { code: 'bad-request' },
    });
    expect(await dispatch('undo', { entryId })).toMatchObject({
      ok: false,
      error: { code: 'bad-request' },
    });
  });

  it("undo, its preview and the journal's record go to the node the request names, whichever was scanned last", async () => {
    const targets = new TargetRegistry(async () => ({ targets: [], notes: [] }));
    const nodeB = targets.add('container:podman/node-b').targetId;
    const port = {
      preview: vi.fn(),
      apply: vi.fn(),
      history: vi.fn(async () => []),
      undo: vi.fn(async () => ({
        entry: 'e-1',
        repair: REPAIR,
        status: 'undone' as const,
        reason: '',
        verification: null,
      })),
      undoPreview: vi.fn(async () => ({ entry: 'e-1', changes: [], actions: [] })),
      record: vi.fn(async () => Promise.reject(new Error('no journal'))),
    };
    backend = await createEngineBackend({
      door: 'web',
      progress: new ProgressBus(),
      repairs: port as unknown as RepairPort,
      demosDir: DEMOS,
      targets,
      openLiveHost: () => openHost({ root: join(DEMO, '..', 'no-such-root') }),
    });
    const B: ScanRequest = { source: 'target', targetId: nodeB };
    const nodeBTarget = { kind: 'container', engine: 'podman', name: 'node-b' };

    await backend.scan(DEMO_B); // another tab's scan, last
    await backend.undo({ entryId: 'e-1', source: LIVE });
    expect(port.undo).toHaveBeenLastCalledWith('e-1', expect.any(Function), undefined);
    await backend.undo({ entryId: 'e-1', source: B });
    expect(port.undo).toHaveBeenLastCalledWith('e-1', expect.any(Function), nodeBTarget);
    await backend.previewUndo({ entryId: 'e-1', source: LIVE });
    expect(port.undoPreview).toHaveBeenLastCalledWith('e-1', undefined);
    await backend.previewUndo({ entryId: 'e-1', source: B });
    expect(port.undoPreview).toHaveBeenLastCalledWith('e-1', nodeBTarget);
    await expect(backend.repairRecord({ entryId: 'e-1', source: B })).rejects.toThrow();
    expect(port.record).toHaveBeenLastCalledWith('e-1', nodeBTarget);
    await expect(backend.repairRecord({ entryId: 'e-1', source: LIVE })).rejects.toThrow();
    expect(port.record).toHaveBeenLastCalledWith('e-1', undefined);
    // History without a node named is this machine's, not the last scanned node's.
    await backend.history({ source: B });
    expect(port.history).toHaveBeenLastCalledWith(nodeBTarget);
    await backend.history(undefined);
    expect(port.history).toHaveBeenLastCalledWith(undefined);
  });
});
