import { existsSync, appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../shared/model/finding';
import { applyRepair } from './apply';
import { undoEntry } from './undo';
import { prepareRepair } from './prepare';
import { readHistory } from './history';
import { JournalStore } from './journal/store';
import { LocalNodeFs } from './node-fs';
import {
  criDisabledNode,
  leftovers,
  makeNodeTree,
  removeTree,
  shadowedNode,
  snapshotTree,
  type TreeSpec,
} from './testing/node-tree';
import { fakeServices, newStateDir, testEnvironment } from './testing/env';

const ENABLE_CRI = 'containerd.cri.disabled:containerd-enable-cri';
const SHADOW = 'cni.conf.shadowed-by-default:disable-files:containerd';

const dirs: string[] = [];
function node(spec: TreeSpec): string {
  const r = makeNodeTree(spec);
  dirs.push(r);
  return r;
}
function state(): string {
  const s = newStateDir();
  dirs.push(path.dirname(s));
  return s;
}
afterEach(() => {
  while (dirs.length) removeTree(dirs.pop() as string);
});

describe('apply → verify → undo', () => {
  it('enable CRI: edits, restarts containerd, verifies, and undo restores every byte', async () => {
    const root = node(criDisabledNode());
    const original = snapshotTree(root);
    const services = fakeServices(['containerd']);
    const env = testEnvironment(root, { stateDir: state(), services });
    const points: string[] = [];
    env.onTransition = (p) => points.push(p);

    const r = await applyRepair(env, ENABLE_CRI);
    expect(r).toMatchObject({
      status: 'applied',
      repair: ENABLE_CRI,
      verification: { passed: true, resolved: true, newFindings: [] },
    });
    expect(services.restarts).toEqual(['containerd']);
    expect(points).toEqual([
      'planned',
      'backed-up',
      'step-1:started',
      'step-1:temp-written',
      'step-1:done',
      'step-2:started',
      'step-2:done',
      'applied',
      'verified',
    ]);
    const after = snapshotTree(root, { skip: ['var'] });
    expect(after['etc/containerd/config.toml']).not.toEqual(original['etc/containerd/config.toml']);
    expect(leftovers(root)).toEqual([]);

    const entry = await new JournalStore(env.stateDir).load(r.entry as string);
    expect(entry).toMatchObject({
      status: 'verified',
      files: ['/etc/containerd/config.toml'],
      root,
      services: ['containerd'],
    });
    expect(entry?.steps.map((s) => s.state)).toEqual(['done', 'done']);
    expect(entry?.transitions.map((t) => t.status)).toEqual([
      'planned',
      'backed-up',
      'applying',
      'applied',
      'verified',
    ]);

    const ended = entry?.finishedAt;
    expect(ended).toEqual(expect.any(String));
    const u = await undoEntry(env, r.entry as string);
    expect(u).toMatchObject({ status: 'undone', entry: r.entry });
    // The undo has its own time; the apply's end is kept (newcomer review 1.8).
    const undone = await new JournalStore(env.stateDir).load(r.entry as string);
    expect(undone?.finishedAt).toBe(ended);
    expect(undone?.undoneAt).toEqual(expect.any(String));
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
    expect(services.restarts).toEqual(['containerd', 'containerd']);
    expect((await readHistory(env.stateDir)).entries[0]?.status).toBe('undone');
  });

  it('disable two shadowing defaults, then undo renames both back', async () => {
    const root = node(shadowedNode());
    const original = snapshotTree(root);
    const env = testEnvironment(root, { stateDir: state() });
    const r = await applyRepair(env, SHADOW);
    expect(r.status).toBe('applied');
    expect(readdirSync(path.join(root, 'etc/cni/net.d')).sort()).toEqual([
      '00-podman-bridge.conflist.disabled',
      '10-containerd-net.conflist.disabled',
      '10-flannel.conflist',
    ]);
    expect(r.verification?.confDirs).toEqual([{ path: '/etc/cni/net.d', valid: 1 }]);
    const u = await undoEntry(env, r.entry as string);
    expect(u.status).toBe('undone');
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
  });

  it('history lists entries newest first', async () => {
    const root = node({
      ...shadowedNode(),
      ...criDisabledNode(),
      'etc/containerd/config.toml': criDisabledNode()['etc/containerd/config.toml'] as string,
    });
    const env = testEnvironment(root, {
      stateDir: state(),
      services: fakeServices(['containerd']),
    });
    const a = await applyRepair(env, ENABLE_CRI);
    const b = await applyRepair(env, SHADOW);
    expect([a.status, b.status]).toEqual(['applied', 'applied']);
    const h = await readHistory(env.stateDir);
    expect(h.entries.map((e) => e.id)).toEqual([b.entry, a.entry]);
  });
});

describe('refusals touch nothing', () => {
  it('a file changed between preview and apply', async () => {
    const root = node(criDisabledNode());
    const env = testEnvironment(root, {
      stateDir: state(),
      services: fakeServices(['containerd']),
    });
    const p = await prepareRepair(env, ENABLE_CRI);
    if (!p.ok) throw new Error(p.reason);
    appendFileSync(path.join(root, 'etc/containerd/config.toml'), '# edited by someone else\n');
    const before = snapshotTree(root, { mtime: true });
    const r = await applyRepair(env, ENABLE_CRI, { previewToken: p.preview.previewToken });
    expect(r).toMatchObject({
      status: 'refused',
      entry: null,
      reason: expect.stringContaining('/etc/containerd/config.toml changed since the preview'),
    });
    expect(snapshotTree(root, { mtime: true })).toEqual(before);
    expect(existsSync(env.stateDir)).toBe(false);
  });

  it('a file appearing in the conf dir between preview and apply', async () => {
    const root = node(shadowedNode());
    const env = testEnvironment(root, { stateDir: state() });
    const p = await prepareRepair(env, SHADOW);
    if (!p.ok) throw new Error(p.reason);
    writeFileSync(path.join(root, 'etc/cni/net.d/05-new.conflist.bak'), '{}');
    const before = snapshotTree(root, { mtime: true });
    const r = await applyRepair(env, SHADOW, { previewToken: p.preview.previewToken });
    expect(r).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('/etc/cni/net.d changed since the preview'),
    });
    expect(snapshotTree(root, { mtime: true })).toEqual(before);
  });

  it('without root: lists the steps that need it and how to rerun, changes nothing', async () => {
    const root = node(criDisabledNode());
    class ReadOnlyFs extends LocalNodeFs {
      override async canWrite(): Promise<boolean> {
        return false;
      }
    }
    const env = {
      ...testEnvironment(root, {
        stateDir: state(),
        elevated: false,
        services: fakeServices(['containerd']),
      }),
      fs: new ReadOnlyFs(root),
    };
    const before = snapshotTree(root, { mtime: true });
    const r = await applyRepair(env, ENABLE_CRI);
    expect(r.status).toBe('refused');
    expect(r.reason).toMatch(/needs root/);
    expect(r.elevation?.steps).toEqual([
      '1. Edit /etc/containerd/config.toml (atomic replace; every other byte unchanged)',
    ]);
    expect(r.elevation?.rerun).toMatch(
      /cni-doctor fix containerd\.cri\.disabled:containerd-enable-cri --yes/,
    );
    // The hint names the same target (issue 9 item 9), as serve and the desktop show it too.
    expect(r.elevation?.rerun).toContain(`--yes --root ${root} --state-dir ${env.stateDir}`);
    expect(snapshotTree(root, { mtime: true })).toEqual(before);
    expect(existsSync(env.stateDir)).toBe(false);
  });

  it('a state dir inside a CNI conf dir', async () => {
    const root = node(shadowedNode());
    const env = testEnvironment(root, { stateDir: path.join(root, 'etc/cni/net.d/state') });
    const r = await applyRepair(env, SHADOW);
    expect(r).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/inside \/etc\/cni\/net\.d/),
    });
    expect(existsSync(path.join(root, 'etc/cni/net.d/state'))).toBe(false);
  });

  it('an id no finding offers', async () => {
    const root = node(shadowedNode());
    const r = await applyRepair(
      testEnvironment(root, { stateDir: state() }),
      'cni.conf.none:rename-file:containerd',
    );
    expect(r).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/no finding offers/),
    });
  });

  it('undo refuses when a file changed since the repair wrote it', async () => {
    const root = node(criDisabledNode());
    const env = testEnvironment(root, {
      stateDir: state(),
      services: fakeServices(['containerd']),
    });
    const r = await applyRepair(env, ENABLE_CRI);
    appendFileSync(path.join(root, 'etc/containerd/config.toml'), '# later edit\n');
    const before = snapshotTree(root, { mtime: true });
    const u = await undoEntry(env, r.entry as string);
    expect(u).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/config\.toml changed since the repair wrote it/),
    });
    expect(snapshotTree(root, { mtime: true })).toEqual(before);
  });
});

describe('automatic rollback', () => {
  it('when the rescan still shows the finding', async () => {
    const root = node(criDisabledNode());
    const original = snapshotTree(root);
    const services = fakeServices(['containerd']);
    const env = testEnvironment(root, { stateDir: state(), services });
    const stale = await env.scan();
    env.rescan = async () => stale;
    const r = await applyRepair(env, ENABLE_CRI);
    expect(r.status).toBe('rolled-back');
    expect(r.reason).toMatch(
      /verification failed: the problem is still there after a rescan \(".+"\); rolled back \(1 file\(s\) restored, containerd restarted\)/,
    );
    expect(r.verification).toMatchObject({ passed: false, resolved: false });
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
    expect(services.restarts).toEqual(['containerd', 'containerd']);
    const entry = await new JournalStore(env.stateDir).load(r.entry as string);
    expect(entry?.status).toBe('rolled-back');
    expect(entry?.steps.map((s) => s.state)).toEqual(['reverted', 'reverted']);
  });

  it('when a new error finding appears', async () => {
    const root = node(shadowedNode());
    const original = snapshotTree(root);
    const env = testEnvironment(root, { stateDir: state() });
    const extra: Finding = {
      id: 'cni.plugin.missing#containerd:10-flannel.conflist',
      rule: 'cni.plugin.missing',
      severity: 'error',
      title: 'flannel is missing from the CNI bin dir',
      summary: 's',
      evidence: [],
      repairs: [],
    };
    env.rescan = async () => {
      const r = await env.scan();
      return { ...r, report: { ...r.report, findings: [...r.report.findings, extra] } };
    };
    const r = await applyRepair(env, SHADOW);
    expect(r.status).toBe('rolled-back');
    // In words: the new finding's title, not its internal id.
    expect(r.reason).toContain(
      'the rescan found a new error: "flannel is missing from the CNI bin dir"',
    );
    expect(r.reason).not.toContain('cni.plugin.missing#');
    expect(r.verification?.newFindingTitles).toEqual([
      { id: extra.id, title: 'flannel is missing from the CNI bin dir' },
    ]);
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
  });

  it('when the restarted service does not come back', async () => {
    const root = node(criDisabledNode());
    const original = snapshotTree(root);
    const services = fakeServices(['containerd'], { failStart: (_n, attempt) => attempt === 1 });
    const env = testEnvironment(root, { stateDir: state(), services });
    const r = await applyRepair(env, ENABLE_CRI);
    expect(r.status).toBe('rolled-back');
    expect(r.reason).toMatch(
      /step 2 \(Restart .*containerd.*\) failed: containerd exited during start: invalid configuration; rolled back \(1 file\(s\) restored, containerd restarted\)/,
    );
    expect(r.verification).toBeNull();
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
    expect(services.starts).toEqual({ containerd: 2 });
    expect(await services.isActive('containerd')).toBe(true);
  });

  it('when the restarted runtime does not answer CRI', async () => {
    const root = node(criDisabledNode());
    const original = snapshotTree(root);
    const env = testEnvironment(root, {
      stateDir: state(),
      services: fakeServices(['containerd']),
    });
    env.rescan = async () => {
      const r = await env.scan();
      return {
        ...r,
        snapshot: {
          ...r.snapshot,
          cri: [
            {
              endpoint: 'unix:///run/containerd/containerd.sock',
              api: null,
              error: { code: 14, message: 'connect: connection refused' },
            },
          ],
        },
      };
    };
    const r = await applyRepair(env, ENABLE_CRI);
    expect(r.status).toBe('rolled-back');
    expect(r.verification?.cri).toEqual([
      {
        endpoint: 'unix:///run/containerd/containerd.sock',
        ok: false,
        detail: 'code 14: connect: connection refused',
      },
    ]);
    expect(r.reason).toMatch(
      /containerd does not answer CRI at unix:\/\/\/run\/containerd\/containerd\.sock/,
    );
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
  });

  it('keeps bytes it did not write before restoring over them', async () => {
    const root = node(criDisabledNode());
    const original = snapshotTree(root);
    const env = testEnvironment(root, {
      stateDir: state(),
      services: fakeServices(['containerd']),
    });
    const stale = await env.scan();
    env.rescan = async () => {
      // Someone edits the file while the repair is being verified.
      appendFileSync(path.join(root, 'etc/containerd/config.toml'), '# concurrent edit\n');
      return stale;
    };
    const r = await applyRepair(env, ENABLE_CRI);
    expect(r.status).toBe('rolled-back');
    expect(r.rollback?.conflicts).toHaveLength(1);
    expect(existsSync(r.rollback?.conflicts[0]?.savedAs as string)).toBe(true);
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(original);
  });
});
