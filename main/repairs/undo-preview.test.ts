import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRepair } from './apply';
import { toRepairRecord } from './history';
import { JournalStore } from './journal/store';
import { previewUndo } from './undo-preview';
import {
  criDisabledNode,
  makeNodeTree,
  removeTree,
  shadowedNode,
  type TreeSpec,
  snapshotTree,
} from './testing/node-tree';
import { fakeServices, newStateDir, testEnvironment } from './testing/env';

const ENABLE_CRI = 'containerd.cri.disabled:containerd-enable-cri';
const SHADOW = 'cni.conf.shadowed-by-default:disable-files:containerd';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeTree(dirs.pop() as string);
});
function setup(spec: TreeSpec, services?: ReturnType<typeof fakeServices>) {
  const root = makeNodeTree(spec);
  const stateDir = newStateDir();
  dirs.push(root, path.dirname(stateDir));
  return { root, env: testEnvironment(root, { stateDir, ...(services && { services }) }) };
}

describe('previewUndo', () => {
  it('names the files a rename repair puts back, touching nothing', async () => {
    const { root, env } = setup(shadowedNode());
    const r = await applyRepair(env, SHADOW);
    expect(r.status).toBe('applied');
    const before = snapshotTree(root);
    const p = await previewUndo(env, r.entry as string);
    expect(snapshotTree(root)).toEqual(before);
    expect(p.refusedBecause).toEqual([]);
    expect(p.changes.length).toBeGreaterThan(0);
    for (const c of p.changes) {
      expect(c.action).toBe('rename-back');
      expect(c.from).toBe(`${c.path}.disabled`);
      // Renamed back as it is: the content does not change.
      expect(c.diff).toBe('');
    }
  });

  it('diffs an edited file from its current content to the backup, and restarts the service', async () => {
    const { env } = setup(criDisabledNode(), fakeServices(['containerd']));
    const r = await applyRepair(env, ENABLE_CRI);
    const p = await previewUndo(env, r.entry as string);
    expect(p.services).toEqual(['containerd']);
    expect(p.changes).toHaveLength(1);
    expect(p.changes[0]).toMatchObject({ path: '/etc/containerd/config.toml', action: 'restore' });
    expect(p.changes[0]?.diff).toMatch(/^--- a\/etc\/containerd\/config\.toml\n\+\+\+ b/);
    expect(p.changes[0]?.diff).toMatch(/^\+.*disabled_plugins/m);
  });

  it('says why undo would be refused when a file changed since the repair', async () => {
    const { root, env } = setup(criDisabledNode(), fakeServices(['containerd']));
    const r = await applyRepair(env, ENABLE_CRI);
    writeFileSync(path.join(root, 'etc/containerd/config.toml'), 'version = 2\n# edited\n');
    const p = await previewUndo(env, r.entry as string);
    expect(p.refusedBecause.join(' ')).toMatch(/config\.toml/);
  });

  it('keeps the verification rescan before/after in the journal', async () => {
    const { env } = setup(shadowedNode());
    const r = await applyRepair(env, SHADOW);
    const entry = await new JournalStore(env.stateDir).load(r.entry as string);
    const rec = toRepairRecord(entry!);
    expect(rec.findingId).toBeTruthy();
    const rescan = rec.verification?.rescan;
    expect(rescan?.gone.map((f) => f.id)).toContain(rec.findingId);
    expect(rescan?.appeared.map((f) => f.id)).not.toContain(rec.findingId);
    const lo = rescan?.loadOrder.find((l) => l.runtime === 'containerd');
    expect(lo?.inUseBefore).not.toBe(lo?.inUseAfter);
    expect(lo?.inUseAfter).toBe('10-flannel.conflist');
  });
});
