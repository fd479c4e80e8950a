import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/model/report';
import { tieNodeToScan } from './tie';
import { buildClusterView, matchSignature } from './view';

// Recorded from a real single-node Kubernetes v1.32 (fixtures/cluster/README.md).
const dir = new URL('../../fixtures/cluster/lab-v1.32/stuck/', import.meta.url);
const load = (f: string): unknown => JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
const answers = { nodes: load('nodes.json'), pods: load('pods.json'), events: load('events.json') };

describe('the cluster view from recorded API answers', () => {
  const view = buildClusterView(answers, { now: new Date('2026-12-04T19:07:00Z') });
  const node = view.nodes[0];

  it('lists the node with its Ready condition and runtime', () => {
    expect(view.nodes.map((n) => n.name)).toEqual(['lab-node']);
    expect(node?.ready.status).toBe('True');
    expect(node?.runtime).toBe('containerd://1.6.20');
    expect(node?.os).toBe('linux');
  });

  it('groups the pods stuck in sandbox creation by the signature of their latest message', () => {
    expect(node?.stuckCount).toBe(4);
    expect(node?.stuck.map((g) => [g.key, g.pods.length])).toEqual([
      ['linux.cni.plugin-not-found', 4],
    ]);
    const pod = node?.stuck[0]?.pods[0];
    expect(pod?.message).toMatch(
      /^Failed to create pod sandbox: .*failed to find plugin "flannel"/,
    );
    // The running pod's old event does not make it stuck.
    expect(node?.stuck[0]?.pods.map((p) => p.name)).not.toContain('web');
  });

  it('ties each stuck pod to the node finding that explains it, after a scan through kubectl', () => {
    const report = load('scan-through-kubectl.json') as Report;
    const tied = tieNodeToScan(node!, report, 'kubectl:lab-node');
    expect(tied.scan?.top?.rule).toBe('cni.plugin.missing');
    for (const p of tied.stuck.flatMap((g) => g.pods))
      expect(p.explainedBy).toMatchObject({
        rule: 'cni.plugin.missing',
        severity: 'error',
        how: expect.stringContaining('linux.cni.plugin-not-found'),
      });
    expect(tied.cni?.from).toMatch(/node scan: 10-lab\.conflist/);
  });

  it('prefers a specific signature to the generic "failed to setup network" one', () => {
    const m =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "x": plugin type="flannel" failed (add): failed to find plugin "flannel" in path [/usr/lib/cni]';
    expect(matchSignature(m, 'linux')?.id).toBe('linux.cni.plugin-not-found');
    expect(matchSignature('failed to setup network for sandbox "x": boom', 'linux')?.id).toBe(
      'linux.sandbox.containerd-network-setup-failed',
    );
  });

  it('reads hostile or partial answers without crashing, saying nothing it was not told', () => {
    for (const junk of [null, 5, 'x', { items: 'x' }, { items: [null, 1, { metadata: 3 }] }]) {
      const v = buildClusterView({ nodes: junk, pods: junk, events: junk });
      expect(v.nodes).toEqual([]);
      expect(v.elsewhere).toEqual([]);
    }
    // Pods without their node: kept aside, not lost.
    const v = buildClusterView({ nodes: {}, pods: answers.pods, events: answers.events });
    expect(v.elsewhere).toHaveLength(4);
  });
});

describe('the CNIConfigProblem condition the node reporter sets (recorded)', () => {
  const rdir = new URL('../../fixtures/cluster/lab-v1.32/reporter/', import.meta.url);
  const rload = (f: string): unknown => JSON.parse(readFileSync(new URL(f, rdir), 'utf8'));
  const view = buildClusterView({
    nodes: rload('nodes.json'),
    pods: rload('pods.json'),
    events: rload('events.json'),
  });

  it('is shown on the node, and makes --scan visit it', async () => {
    const node = view.nodes[0];
    expect(node?.cniCondition).toMatchObject({
      status: 'True',
      reason: 'CniPluginMissing',
      message: expect.stringContaining('[cni.plugin.missing]'),
    });
    const { nodesWorthScanning } = await import('./scan-node');
    expect(nodesWorthScanning(view).map((n) => n.name)).toEqual(['lab-node']);
    // The reporter's own DaemonSet pod is not taken for the CNI.
    expect(node?.cni).toBeUndefined();
  });
});
