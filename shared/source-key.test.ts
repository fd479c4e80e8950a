import { describe, expect, it } from 'vitest';
import { parseSourceKey, sourceKey } from './source-key';
import type { ScanRequest } from './api';

describe('sourceKey', () => {
  it('round-trips every kind of source', () => {
    const sources: ScanRequest[] = [
      { source: 'live' },
      { source: 'bundle', bundleId: 'b-1' },
      { source: 'demo', demoId: 'minikube-conflict' },
      { source: 'target', targetId: 'container:podman/kind-control-plane' },
      { source: 'target', targetId: 'ssh:admin@[fe80::1%eth0]:2222' },
      { source: 'target', targetId: 'kubectl:arn:aws:eks:eu-west-1:1:cluster/x/node-1' },
    ];
    for (const s of sources) expect(parseSourceKey(sourceKey(s))).toEqual(s);
    expect(sources.slice(0, 4).map(sourceKey)).toEqual([
      'live',
      'bundle:b-1',
      'demo:minikube-conflict',
      // The address names the node itself, so a link survives a restart (issue 22).
      'target:container:podman/kind-control-plane',
    ]);
  });

  it('refuses a target that is not a remote node, or that carries what a target never holds', () => {
    for (const text of [
      'target:t-0123456789abcdef',
      'target:local',
      'target:bundle:/etc/passwd',
      'target:root:/',
      'target:ssh:a b',
      'target:ssh:a;rm -rf',
      'target:container:podman/x\nfoo',
      `target:ssh:${'a'.repeat(1100)}`,
    ])
      expect(parseSourceKey(text)).toBeNull();
  });

  it('refuses what it never writes', () => {
    for (const text of ['', 'LIVE', 'bundle:', 'demo:../x', 'host:a', `bundle:${'a'.repeat(200)}`])
      expect(parseSourceKey(text)).toBeNull();
  });
});
