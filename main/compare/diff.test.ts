import { describe, expect, it } from 'vitest';
import type { Finding } from '../../shared/model/finding';
import { scanMemoryNode, type MemoryNodeSpec } from '../host/memory-node.testutil';
import { compareLoadOrder, findingChanges } from './diff';
import { compareResults } from './index';

const FLANNEL = JSON.stringify({
  name: 'cbr0',
  cniVersion: '0.3.1',
  plugins: [{ type: 'flannel', delegate: { isDefaultGateway: true } }, { type: 'portmap' }],
});
const CONTAINERD_NET = JSON.stringify({
  cniVersion: '1.0.0',
  name: 'containerd-net',
  plugins: [{ type: 'bridge', ipam: { type: 'host-local' } }, { type: 'portmap' }],
});

const node = (conf: Record<string, string>): MemoryNodeSpec => ({
  files: {
    '/etc/containerd/config.toml': 'version = 2\n',
    ...Object.fromEntries(Object.entries(conf).map(([n, t]) => [`/etc/cni/net.d/${n}`, t])),
  },
  paths: {
    '/opt/cni/bin': { type: 'dir', entries: ['bridge', 'flannel', 'host-local', 'portmap'] },
  },
  running: ['containerd'],
});

async function side(label: string, conf: Record<string, string>) {
  const s = await scanMemoryNode(node(conf));
  return { scan: { label, os: 'linux' as const }, report: s.report, snapshot: s.snapshot };
}

const finding = (over: Partial<Finding> = {}): Finding => ({
  id: 'cni.conf.invalid:/etc/cni/net.d/10-a.conf',
  rule: 'cni.conf.invalid',
  severity: 'error',
  title: 'a config does not parse',
  summary: 'containerd stops at it',
  evidence: [{ kind: 'file', path: '/etc/cni/net.d/10-a.conf', lines: [{ line: 1, text: '{' }] }],
  repairs: [],
  ...over,
});

describe('compareResults on real scans', () => {
  it('before and after disabling the shadowing default: the finding is gone, the load order moved', async () => {
    const before = await side('before', {
      '10-containerd-net.conflist': CONTAINERD_NET,
      '10-flannel.conflist': FLANNEL,
    });
    const after = await side('after', {
      '10-containerd-net.conflist.disabled': CONTAINERD_NET,
      '10-flannel.conflist': FLANNEL,
    });
    const c = compareResults(before, after);
    expect(c.schema).toBe('cni-doctor.comparison/v1');
    expect(c.gone.map((f) => f.rule)).toContain('cni.conf.shadowed-by-default');
    expect(c.added.map((f) => f.rule)).not.toContain('cni.conf.shadowed-by-default');
    expect(c.checks).toContainEqual(
      expect.objectContaining({
        rule: 'cni.conf.shadowed-by-default',
        before: 'fail',
        after: 'pass',
      }),
    );
    const lo = c.loadOrder.find((l) => l.runtime === 'containerd');
    expect(lo?.inUseBefore).toBe('10-containerd-net.conflist');
    expect(lo?.inUseAfter).toBe('10-flannel.conflist');
    expect(lo?.changed).toBe(true);
    const row = (n: string) => lo?.rows.find((r) => r.name === n);
    expect(row('10-containerd-net.conflist')?.change).toBe('gone');
    expect(row('10-containerd-net.conflist.disabled')).toMatchObject({
      change: 'added',
      after: { role: 'disabled' },
    });
    expect(row('10-flannel.conflist')).toMatchObject({
      change: 'role',
      before: { position: 2, role: 'never-read' },
      after: { role: 'in-use', network: 'cbr0' },
    });
  });

  it('a scan against itself: nothing added, gone or changed, every finding unchanged', async () => {
    const a = await side('a', {
      '10-containerd-net.conflist': CONTAINERD_NET,
      '10-flannel.conflist': FLANNEL,
    });
    const c = compareResults(a, a);
    expect(c.added).toEqual([]);
    expect(c.gone).toEqual([]);
    expect(c.changed).toEqual([]);
    expect(c.checks).toEqual([]);
    expect(c.unchanged).toBe(a.report.findings.length);
    expect(c.loadOrder.every((l) => !l.changed && l.rows.every((r) => r.change === 'same'))).toBe(
      true,
    );
  });

  it('the same finding with another subject file is a changed finding, not added and gone', async () => {
    const before = await side('before', { '10-flannel.conflist': '{ "name": "cbr0", ' });
    const after = await side('after', {
      '10-flannel.conflist': '{ "name": "cbr0", "plugins": [ }',
    });
    const c = compareResults(before, after);
    const invalid = c.changed.find((f) => f.after.rule === 'cni.conf.invalid');
    expect(invalid, JSON.stringify(c, null, 1)).toBeDefined();
    expect(c.added.some((f) => f.rule === 'cni.conf.invalid')).toBe(false);
    const ev = invalid?.changes.find((x) => x.field === 'evidence');
    expect(ev).toMatchObject({ addedCount: expect.any(Number), removedCount: expect.any(Number) });
    if (ev?.field !== 'evidence') throw new Error('no evidence change');
    expect(ev.added.join('\n')).toMatch(/plugins/);
  });
});

describe('findingChanges', () => {
  it('names each field that differs: severity, title, summary, evidence, repairs', () => {
    const a = finding();
    const b = finding({
      severity: 'warning',
      title: 'another title',
      summary: 'another summary',
      evidence: [
        {
          kind: 'file',
          path: '/etc/cni/net.d/10-a.conf',
          lines: [{ line: 1, text: '{', highlight: true }],
        },
        { kind: 'text', text: 'also this' },
      ],
      repairs: [{ id: 'cni.conf.invalid:disable', title: 'Disable it', needsElevation: true }],
    });
    const ch = findingChanges(a, b);
    expect(ch.map((c) => c.field)).toEqual(['severity', 'title', 'summary', 'evidence', 'repairs']);
    expect(ch[0]).toEqual({ field: 'severity', before: 'error', after: 'warning' });
    expect(ch[3]).toEqual({
      field: 'evidence',
      added: ['/etc/cni/net.d/10-a.conf — line 1: {', 'also this'],
      removed: ['/etc/cni/net.d/10-a.conf — line 1: {'],
      addedCount: 2,
      removedCount: 1,
    });
    expect(ch[4]).toEqual({ field: 'repairs', added: ['cni.conf.invalid:disable'], removed: [] });
  });

  it('equal findings (keys in another order) have no changes', () => {
    const a = finding();
    const b = finding({
      evidence: [
        { lines: [{ text: '{', line: 1 }], path: '/etc/cni/net.d/10-a.conf', kind: 'file' },
      ],
    });
    expect(findingChanges(a, b)).toEqual([]);
  });

  it('50,000 changed evidence items: exact counts, bounded lines', () => {
    const many = (tag: string): Finding['evidence'] =>
      Array.from({ length: 50_000 }, (_, i) => ({ kind: 'text' as const, text: `${tag} ${i}` }));
    const [ev] = findingChanges(finding({ evidence: many('a') }), finding({ evidence: many('b') }));
    expect(ev).toMatchObject({ field: 'evidence', addedCount: 50_000, removedCount: 50_000 });
    if (ev?.field !== 'evidence') throw new Error('no evidence change');
    expect(ev.added).toHaveLength(20);
  });
});

describe('compareLoadOrder', () => {
  it('a conf dir only one scan has: every row added, changed', () => {
    const lo = compareLoadOrder('crio', 'CRI-O', undefined, {
      confDir: '/etc/cni/net.d',
      entries: [{ name: '10-a.conflist', role: 'in-use' }],
    });
    expect(lo.rows).toEqual([
      { name: '10-a.conflist', after: { position: 1, role: 'in-use' }, change: 'added' },
    ]);
    expect(lo.changed).toBe(true);
    expect(lo.inUseAfter).toBe('10-a.conflist');
  });

  it('same files, same roles, other places: moved', () => {
    const lo = compareLoadOrder(
      'containerd',
      'containerd',
      {
        confDir: '/d',
        entries: [
          { name: 'a', role: 'ignored' },
          { name: 'b', role: 'ignored' },
        ],
      },
      {
        confDir: '/d',
        entries: [
          { name: 'b', role: 'ignored' },
          { name: 'a', role: 'ignored' },
        ],
      },
    );
    expect(lo.rows.map((r) => r.change)).toEqual(['moved', 'moved']);
  });
});
