/**
 * Compare and Watch through the dispatcher every door uses: real demo scans compared, a node
 * disk (the engine's --root mode) in a temp folder changed on disk and seen as stale.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressEvent, StaleEvent } from '../../shared/api';
import { openHost } from '../../main/engine/open-host';
import { createDispatcher, type Dispatcher } from './dispatch';
import { createEngineBackend, type EngineBackend } from './engine-backend';
import { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';
import { WATCH_REASONS } from './watch-session';
import { until } from '../../shared/until.testutil';

const DEMOS = join(process.cwd(), 'assets', 'demo');
const noRepairs: RepairPort = {
  preview: async () => {
    throw new Error('no repairs here');
  },
  apply: async () => {
    throw new Error('no repairs here');
  },
  undo: async () => {
    throw new Error('no repairs here');
  },
  history: async () => [],
  undoPreview: async () => {
    throw new Error('no repairs here');
  },
  record: async () => {
    throw new Error('no repairs here');
  },
};

let backend: EngineBackend | undefined;
const temps: string[] = [];
afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

async function start(extra: Partial<Parameters<typeof createEngineBackend>[0]> = {}) {
  const progress = new ProgressBus();
  backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: noRepairs,
    demosDir: DEMOS,
    ...extra,
  });
  const dispatch = createDispatcher({ backend });
  const call = async <T>(op: Parameters<Dispatcher>[0], payload?: unknown): Promise<T> => {
    const env = await dispatch(op, payload);
    if (!env.ok) throw new Error(`${env.error.code}: ${env.error.message}`);
    return env.result as T;
  };
  return { progress, dispatch, call };
}

/** The minikube demo's files as a node disk (what `serve --root DIR` scans). */
function nodeDisk(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-watch-disk-'));
  temps.push(dir);
  cpSync(join(DEMOS, 'minikube-conflict', 'files'), dir, { recursive: true });
  return dir;
}

describe('compare', () => {
  it('two demos: what the conflicted node has and the healthy one does not, and the load orders', async () => {
    const { call } = await start();
    const shown = await call<{ scanId: string }>('scan', {
      source: 'demo',
      demoId: 'minikube-conflict',
    });
    const r = await call<import('../../shared/api').CompareResponse>('compare', {
      before: { scanId: shown.scanId },
      after: { source: 'demo', demoId: 'healthy-node' },
    });
    const c = r.comparison;
    expect(r.beforeScanId).toBe(shown.scanId);
    expect(c.before.label).toMatch(/minikube/i);
    expect(c.after.label).toMatch(/healthy/i);
    expect(c.gone.map((f) => f.rule)).toContain('cni.conf.shadowed-by-default');
    expect(c.gone[0]?.severity).toBe('error');
    const lo = c.loadOrder.find((l) => l.runtime === 'containerd');
    expect(lo?.inUseBefore).toBe('10-containerd-net.conflist');
    expect(lo?.inUseAfter).toBe('10-calico.conflist');
    expect(lo?.rows.find((x) => x.name === '10-kindnet.conflist')?.change).toBe('gone');

    // The side scanned for the comparison did not become the current scan.
    const held = await call<import('../../shared/api').HeldScan[]>('listScans');
    expect(held.map((h) => h.label)).toEqual([c.after.label, c.before.label]);
    expect(held.find((h) => h.current)?.scanId).toBe(shown.scanId);
  });

  it('a scan against itself: nothing added, gone or changed', async () => {
    const { call } = await start();
    const a = await call<{ scanId: string; report: { findings: unknown[] } }>('scan', {
      source: 'demo',
      demoId: 'windows-antrea-containerd',
    });
    const r = await call<import('../../shared/api').CompareResponse>('compare', {
      before: { scanId: a.scanId },
      after: { scanId: a.scanId },
    });
    expect(r.comparison.added).toEqual([]);
    expect(r.comparison.gone).toEqual([]);
    expect(r.comparison.changed).toEqual([]);
    expect(r.comparison.unchanged).toBe(a.report.findings.length);
  });

  it('scans made for comparisons never push out the scan the screens show', async () => {
    const root = nodeDisk();
    const { call } = await start({ openLiveHost: () => openHost({ root }) });
    const shown = await call<{ scanId: string }>('scan', {
      source: 'demo',
      demoId: 'minikube-conflict',
    });
    // Every live side is a new scan: eight of them, more than the engine holds.
    for (let i = 0; i < 4; i++)
      await call('compare', { before: { source: 'live' }, after: { source: 'live' } });
    const held = await call<import('../../shared/api').HeldScan[]>('listScans');
    expect(held.length).toBeLessThanOrEqual(6);
    expect(held.find((h) => h.current)?.scanId).toBe(shown.scanId);
    await expect(
      call('compare', { before: { scanId: shown.scanId }, after: { scanId: shown.scanId } }),
    ).resolves.toBeDefined();
  });

  it('refuses scans it does not hold and requests that are not ids', async () => {
    const { dispatch } = await start();
    const gone = await dispatch('compare', {
      before: { scanId: 's-0000000000000000' },
      after: { source: 'live' },
    });
    expect(gone).toMatchObject({ ok: false, error: { code: 'not-found' } });
    for (const bad of [
      { before: { scanId: '../etc' }, after: { source: 'live' } },
      { before: { source: 'bundle', bundleId: 'b-1', path: '/etc' }, after: { source: 'live' } },
      { before: { source: 'live' } },
      { before: { source: 'live' }, after: { source: 'live' }, extra: 1 },
    ])
      expect(await dispatch('compare', bad)).toMatchObject({
        ok: false,
        error: { code: 'bad-request' },
      });
  });
});

describe('watch', () => {
  it('a node disk changed after its scan: a stale event, the scan marked stale, a rescan is fresh', async () => {
    const root = nodeDisk();
    const { call, progress } = await start({
      openLiveHost: () => openHost({ root }),
      watch: { debounceMs: 50, pollMs: 200 },
    });
    const events: ProgressEvent[] = [];
    progress.subscribe((e) => events.push(e));
    const first = await call<{ scanId: string }>('scan', { source: 'live' });
    await until(
      async () => (await status(call, first.scanId)).watching !== undefined,
      'the first scan to be watched',
    );
    const before = await status(call, first.scanId);
    expect(before).toMatchObject({ available: true, stale: false });
    expect(before.watching?.paths).toBeGreaterThanOrEqual(2);

    // What minikube's fix does by hand: rename the default config out of the loadable set.
    renameSync(
      join(root, 'etc/cni/net.d/10-containerd-net.conflist'),
      join(root, 'etc/cni/net.d/10-containerd-net.conflist.mk_disabled'),
    );
    await until(
      async () => (await status(call, first.scanId)).stale,
      'the first scan to turn stale',
    );
    const after = await status(call, first.scanId);
    expect(after.changed).toContain('/etc/cni/net.d');
    const stale = events.find((e): e is StaleEvent => e.kind === 'stale');
    expect(stale?.scanIds).toContain(first.scanId);

    const second = await call<{ scanId: string }>('scan', { source: 'live' });
    expect(second.scanId).not.toBe(first.scanId);
    await until(
      async () => (await status(call, second.scanId)).watching !== undefined,
      'the second scan to be watched',
    );
    expect((await status(call, second.scanId)).stale).toBe(false);
    // The first scan stays stale; the comparison says what the change did.
    const r = await call<import('../../shared/api').CompareResponse>('compare', {
      before: { scanId: first.scanId },
      after: { scanId: second.scanId },
    });
    expect(r.comparison.gone.map((f) => f.rule)).toContain('cni.conf.shadowed-by-default');

    // A config file replaced after the second scan makes it stale too.
    writeFileSync(join(root, 'etc/containerd/config.toml.new'), 'version = 2\n');
    renameSync(
      join(root, 'etc/containerd/config.toml.new'),
      join(root, 'etc/containerd/config.toml'),
    );
    await until(
      async () => (await status(call, second.scanId)).stale,
      'the second scan to turn stale',
    );
    expect((await status(call, second.scanId)).changed).toContain('/etc/containerd/config.toml');
  });

  it('bundles and demos never go stale: Watch is not available, with the reason', async () => {
    const { call } = await start();
    const demo = await call<{ scanId: string }>('scan', { source: 'demo', demoId: 'healthy-node' });
    expect(await status(call, demo.scanId)).toEqual({
      scanId: demo.scanId,
      available: false,
      reason: WATCH_REASONS.recording,
      stale: false,
    });
    expect((await status(call, 's-0000000000000000')).available).toBe(false);
  });
});

type Call = <T>(op: Parameters<Dispatcher>[0], payload?: unknown) => Promise<T>;
const status = (call: Call, scanId: string) =>
  call<import('../../shared/api').WatchStatus>('watchStatus', { scanId });
