import { describe, expect, it } from 'vitest';
import { ID_PATTERNS } from '../../shared/api';
import { TargetRegistry } from './targets';

const discovered = () =>
  new TargetRegistry(async () => ({
    targets: [
      {
        target: 'container:podman/kind-control-plane',
        what: 'kind cluster kind (control-plane) via podman',
        source: 'kind',
      },
    ],
    notes: [],
  }));

describe('TargetRegistry', () => {
  it('names a node by its own target form, so an address means the same node after a restart', async () => {
    const a = await discovered().list();
    const b = await discovered().list();
    expect(a.targets[0]?.targetId).toBe('container:podman/kind-control-plane');
    expect(b.targets[0]?.targetId).toBe(a.targets[0]?.targetId);
    expect(ID_PATTERNS.targetId.test(a.targets[0]?.targetId ?? '')).toBe(true);
  });

  it('answers only for targets it listed or that were typed, never for text from an address', async () => {
    const r = discovered();
    // Not listed yet, not typed: a pasted link cannot make this machine reach it.
    expect(r.get('container:podman/kind-control-plane')).toBeUndefined();
    await r.list();
    expect(r.get('container:podman/kind-control-plane')).toEqual({
      kind: 'container',
      engine: 'podman',
      name: 'kind-control-plane',
    });
    expect(r.get('ssh:admin@node1')).toBeUndefined();
    expect(r.add(' ssh:admin@node1 ').targetId).toBe('ssh:admin@node1');
    expect(r.get('ssh:admin@node1')).toMatchObject({ kind: 'ssh', host: 'node1', user: 'admin' });
  });

  it('refuses typed text that is not a remote node, with the parser words', () => {
    const r = discovered();
    expect(() => r.add('local')).toThrow(/only container:, ssh:, kubectl:/);
    expect(() => r.add('ssh:-oProxyCommand=x')).toThrow();
  });
});
