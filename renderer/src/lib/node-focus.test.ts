import { describe, expect, it } from 'vitest';
import type { ScanRequest, ScanResponse } from '../../../shared/api';
import { nodeFocus, nodeLine } from './node-focus';

function scanOf(request: ScanRequest, label: string, hostname?: string, transport?: string) {
  return {
    scanId: 's-0000000000000000',
    request,
    label,
    report: {
      node: { os: 'linux', source: 'live', ...(hostname && { hostname }) },
      ...(transport && { target: { target: label, transport } }),
    },
    evidenceTrimmed: {},
    canApply: true,
  } as unknown as ScanResponse;
}

describe('nodeFocus', () => {
  it('is undefined while no node is chosen (the picker shows)', () => {
    expect(nodeFocus(undefined, undefined)).toBeUndefined();
  });

  it("names a node container by its own name and its engine's exec, before and after its scan", () => {
    const src: ScanRequest = { source: 'target', targetId: 'container:podman/kind-control-plane' };
    expect(nodeLine(nodeFocus(src, undefined)!)).toBe(
      'Node: kind-control-plane via podman exec (container:podman/kind-control-plane)',
    );
    // The container's hostname is an opaque id: the node keeps the name the user knows.
    const scan = scanOf(src, 'container:podman/kind-control-plane', 'bb03fc76a5ae', 'podman exec');
    expect(nodeFocus(src, scan)).toEqual({
      name: 'kind-control-plane',
      via: 'podman exec (container:podman/kind-control-plane)',
    });
  });

  it('names ssh and kubectl nodes by host and node name', () => {
    expect(nodeFocus({ source: 'target', targetId: 'ssh:admin@node1:2222' }, undefined)).toEqual({
      name: 'node1',
      via: 'ssh (ssh:admin@node1:2222)',
    });
    expect(nodeFocus({ source: 'target', targetId: 'kubectl:prod/worker-3' }, undefined)).toEqual({
      name: 'worker-3',
      via: 'kubectl debug pod (kubectl:prod/worker-3)',
    });
  });

  it('names this machine, a bundle and a demo with their hostname and where the facts come from', () => {
    const live: ScanRequest = { source: 'live' };
    expect(nodeFocus(live, scanOf(live, 'live node', 'vm'))).toEqual({
      name: 'vm',
      via: 'this machine',
    });
    expect(nodeFocus(live, scanOf(live, 'node disk /mnt/n', 'n1'))?.via).toBe('node disk /mnt/n');
    const b: ScanRequest = { source: 'bundle', bundleId: 'b-1' };
    expect(nodeLine(nodeFocus(b, scanOf(b, 'ticket-4711.tar.gz', 'worker-2'))!)).toBe(
      'Node: worker-2 via bundle ticket-4711.tar.gz',
    );
  });

  it("never shows another source's hostname while the chosen node's scan is still running", () => {
    const live: ScanRequest = { source: 'live' };
    const demo: ScanRequest = { source: 'demo', demoId: 'minikube-conflict' };
    expect(nodeFocus(demo, scanOf(live, 'live node', 'vm'))).toEqual({
      name: 'demo node',
      via: 'a demo recording',
    });
  });
});
