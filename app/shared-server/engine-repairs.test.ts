import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import type { ProgressEvent } from '../../shared/api';
import { openHost } from '../../main/engine/open-host';
import { createDispatcher } from './dispatch';
import { createEngineBackend, type EngineBackend } from './engine-backend';
import { engineRepairs, phaseOf } from './engine-repairs';
import { ProgressBus } from './progress';

const DEMO = join(process.cwd(), 'assets', 'demo', 'minikube-conflict', 'files');
const REPAIR = 'cni.conf.shadowed-by-default:disable-files:containerd';

/** A Linux node disk (the minikube demo's files) to repair under --root: no root, no services needed. */
function nodeDisk(root: string): void {
  mkdirSync(join(root, 'etc/cni/net.d'), { recursive: true });
  mkdirSync(join(root, 'etc/containerd'), { recursive: true });
  mkdirSync(join(root, 'opt/cni/bin'), { recursive: true });
  for (const f of readdirSync(join(DEMO, 'etc/cni/net.d')))
    copyFileSync(join(DEMO, 'etc/cni/net.d', f), join(root, 'etc/cni/net.d', f));
  copyFileSync(join(DEMO, 'etc/containerd/config.toml'), join(root, 'etc/containerd/config.toml'));
  for (const b of ['bridge', 'host-local', 'loopback', 'portmap', 'ptp', 'firewall', 'tuning']) {
    writeFileSync(join(root, 'opt/cni/bin', b), '#!/bin/sh\n');
    chmodSync(join(root, 'opt/cni/bin', b), 0o755);
  }
}

let dir: string;
let backend: EngineBackend;
let events: ProgressEvent[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cni-doctor-repair-door-'));
  const root = join(dir, 'node');
  nodeDisk(root);
  const progress = new ProgressBus();
  events = [];
  progress.subscribe((e) => events.push(e));
  backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ root, stateDir: join(dir, 'state'), verifyTimeoutMs: 2000 }),
    demosDir: undefined,
    openLiveHost: () => openHost({ root }),
    tmpRoot: dir,
  });
});
afterEach(async () => {
  await backend.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('repairs through the doors, on a node disk', () => {
  it('preview → apply (verified) → history → undo, with progress', async () => {
    const dispatch = createDispatcher({ backend });
    const scan = await dispatch('scan', { source: 'live' });
    if (!scan.ok) throw new Error(scan.error.message);
    expect(scan.result.canApply).toBe(true);
    const scanId = scan.result.scanId;

    const preview = await dispatch('previewRepair', { scanId, repairId: REPAIR });
    if (!preview.ok) throw new Error(preview.error.message);
    expect(preview.result.description.join('\n')).toContain('10-containerd-net.conflist.disabled');
    expect(preview.result.needsElevation).toBe(false);

    const applied = await dispatch('applyRepair', {
      scanId,
      repairId: REPAIR,
      previewToken: preview.result.previewToken,
    });
    if (!applied.ok) throw new Error(applied.error.message);
    expect(applied.result).toMatchObject({ status: 'applied', verification: { resolved: true } });
    expect(existsSync(join(dir, 'node/etc/cni/net.d/10-containerd-net.conflist.disabled'))).toBe(
      true,
    );
    const phases = events
      .filter((e) => e.kind === 'repair')
      .map((e) => (e.kind === 'repair' ? e.phase : ''));
    expect(phases[0]).toBe('planning');
    expect(phases).toContain('applying');
    expect(phases).toContain('verifying');
    expect(phases.at(-1)).toBe('done');

    // The finding is gone after a rescan; the repair id with it.
    const after = await dispatch('scan', { source: 'live' });
    expect(
      after.ok &&
        after.result.report.findings.some((f) => f.rule === 'cni.conf.shadowed-by-default'),
    ).toBe(false);
    const afterId = after.ok ? after.result.scanId : '';
    expect(await dispatch('previewRepair', { scanId: afterId, repairId: REPAIR })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });

    const history = await dispatch('history', undefined);
    if (!history.ok) throw new Error(history.error.message);
    expect(history.result).toHaveLength(1);
    expect(history.result[0]).toMatchObject({ repair: REPAIR, status: 'verified' });

    const undone = await dispatch('undo', {
      entryId: history.result[0]?.id,
      source: { source: 'live' },
    });
    expect(undone).toMatchObject({ ok: true, result: { status: 'undone' } });
    expect(existsSync(join(dir, 'node/etc/cni/net.d/10-containerd-net.conflist'))).toBe(true);
  });

  it('apply refuses a preview token from another plan; nothing changes', async () => {
    const { scanId } = await backend.scan({ source: 'live' });
    await expect(
      backend.applyRepair({ scanId, repairId: REPAIR, previewToken: 'AAAAAAAAAAAAAAAA' }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect(existsSync(join(dir, 'node/etc/cni/net.d/10-containerd-net.conflist'))).toBe(true);
  });

  it('names journal transitions in the UI words', () => {
    expect(phaseOf('planned').phase).toBe('planning');
    expect(phaseOf('step-2:done')).toEqual({ phase: 'applying', message: 'step 2 done' });
    expect(phaseOf('revert-1:started').phase).toBe('rolling-back');
    expect(phaseOf('applied').phase).toBe('verifying');
    expect(phaseOf('verified').phase).toBe('done');
    expect(phaseOf('rolled-back').phase).toBe('failed');
  });
});
