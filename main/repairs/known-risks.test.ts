import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRepair } from './apply';
import { prepareRepair } from './prepare';
import { makeNodeTree, removeTree, shadowedNode, snapshotTree } from './testing/node-tree';
import { newStateDir, testEnvironment } from './testing/env';

const SHADOW = 'cni.conf.shadowed-by-default:disable-files:containerd';
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeTree(dirs.pop() as string);
});

/** The shadowed node, but the config that would take over (flannel) lacks its plugin. */
function fallbackWithoutPlugin(): string {
  const spec = shadowedNode();
  delete spec['opt/cni/bin/flannel'];
  const root = makeNodeTree(spec);
  dirs.push(root);
  return root;
}
function stateDir(): string {
  const s = newStateDir();
  dirs.push(path.dirname(s));
  return s;
}

describe('the preview accounts for what the scan already found', () => {
  it('rates disabling the default high when the config taking over already lacks a plugin', async () => {
    const env = testEnvironment(fallbackWithoutPlugin(), { stateDir: stateDir() });
    const p = await prepareRepair(env, SHADOW);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.scan.report.findings.map((f) => f.rule)).toContain('cni.plugin.missing');
    expect(p.preview.risk).toBe('high');
    expect(p.preview.notes.join(' ')).toMatch(
      /takes over after this repair already has a problem the scan found: "10-flannel\.conflist needs plugin "flannel"/,
    );
  });

  it('and applying it anyway is rolled back, naming the new error by its title', async () => {
    const root = fallbackWithoutPlugin();
    const before = snapshotTree(root);
    const env = testEnvironment(root, { stateDir: stateDir() });
    const r = await applyRepair(env, SHADOW);
    expect(r.status).toBe('rolled-back');
    expect(r.reason).toMatch(/the rescan found a new error: "10-flannel\.conflist needs plugin/);
    expect(snapshotTree(root, { skip: ['var'] })).toEqual(before);
  });

  it('keeps the plan low risk when the configs that remain are sound', async () => {
    const root = makeNodeTree(shadowedNode());
    dirs.push(root);
    const p = await prepareRepair(testEnvironment(root, { stateDir: stateDir() }), SHADOW);
    expect(p.ok && p.preview.risk).toBe('low');
  });
});
