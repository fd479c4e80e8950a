import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../run-cli.testutil';

const DEMO = (name: string) => join(process.cwd(), 'assets', 'demo', name);

describe('cni-doctor compare', () => {
  it("two bundles as text: what is gone, and containerd's load order then and now; exit 0 when nothing was added", async () => {
    const r = await runCli(
      'compare',
      '--before',
      DEMO('minikube-conflict'),
      '--after',
      `bundle:${DEMO('healthy-node')}`,
    );
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^before: .*minikube-conflict/m);
    expect(r.out).toMatch(
      /Gone — only in the older scan \([1-9]\d*\)\n {2}ERROR .*\[cni\.conf\.shadowed-by-default/,
    );
    expect(r.out).toMatch(
      /Load order of containerd \(\/etc\/cni\/net\.d\)\n {2}in use: 10-containerd-net\.conflist → 10-calico\.conflist/,
    );
    expect(r.out).toMatch(/10-kindnet\.conflist +then 2\. \S+ +now — +gone/);
    // The load order comes first, with both lanes.
    expect(r.out.indexOf('Load order of containerd')).toBeLessThan(r.out.indexOf('Added —'));
    expect(r.out).toMatch(
      /then: ★ 10-containerd-net\.conflist \(in use\) {2}‖ containerd stops here ‖ ○ 10-kindnet/,
    );
    expect(r.out).toMatch(/now: {2}★ 10-calico\.conflist \(in use\)/);
    expect(r.code).toBe(r.out.match(/Added — only in the newer scan \(0\)/) ? 0 : 3);
  });

  it('--json: the comparison document; a bundle against a node disk made from it, after a fix', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cni-doctor-compare-cli-'));
    try {
      cpSync(join(DEMO('minikube-conflict'), 'files'), root, { recursive: true });
      renameSync(
        join(root, 'etc/cni/net.d/10-containerd-net.conflist'),
        join(root, 'etc/cni/net.d/10-containerd-net.conflist.mk_disabled'),
      );
      const r = await runCli(
        'compare',
        '--before',
        DEMO('minikube-conflict'),
        '--after',
        `root:${root}`,
        '--json',
      );
      const c = JSON.parse(r.out) as import('../../../shared/model/compare').ScanComparison;
      expect(c.schema).toBe('cni-doctor.comparison/v1');
      expect(c.after.label).toBe(`root:${root}`);
      expect(c.gone.map((f) => f.rule)).toContain('cni.conf.shadowed-by-default');
      const lo = c.loadOrder.find((l) => l.runtime === 'containerd');
      expect(lo?.inUseBefore).toBe('10-containerd-net.conflist');
      expect(lo?.inUseAfter).toBe('10-kindnet.conflist');
      expect(
        lo?.rows.find((x) => x.name === '10-containerd-net.conflist.mk_disabled'),
      ).toMatchObject({
        change: 'added',
        after: { role: 'disabled' },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a node against itself exits 0 and says every finding is the same', async () => {
    const r = await runCli(
      'compare',
      '--before',
      DEMO('healthy-node'),
      '--after',
      DEMO('healthy-node'),
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Added — only in the newer scan \(0\)/);
    expect(r.out).toMatch(/Load order of containerd \(\/etc\/cni\/net\.d\): the same/);
  });

  it('usage errors exit 2 with one line', async () => {
    const missing = await runCli('compare', '--before', DEMO('healthy-node'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/compare needs --before NODE and --after NODE/);
    const bad = await runCli('compare', '--before', 'nosuch:x', '--after', DEMO('healthy-node'));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--before: unknown target kind/);
    const gone = await runCli(
      'compare',
      '--before',
      '/nonexistent/bundle',
      '--after',
      DEMO('healthy-node'),
    );
    expect(gone.code).toBe(2);
    expect(gone.err.trim().split('\n')).toHaveLength(1);
  });
});
