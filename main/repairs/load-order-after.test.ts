import { afterEach, describe, expect, it } from 'vitest';
import { prepareRepair } from './prepare';
import {
  makeNodeTree,
  plugins,
  removeTree,
  sample,
  shadowedNode,
  criDisabledNode,
  type TreeSpec,
} from './testing/node-tree';
import { testEnvironment } from './testing/env';
import type { RepairPreview } from '../../shared/model/repair';

const roots: string[] = [];
function node(spec: TreeSpec): string {
  const r = makeNodeTree(spec);
  roots.push(r);
  return r;
}
afterEach(() => {
  while (roots.length) removeTree(roots.pop() as string);
});

async function preview(root: string, id: string): Promise<RepairPreview> {
  const p = await prepareRepair(testEnvironment(root), id);
  if (!p.ok) throw new Error(p.reason);
  return p.preview;
}

const lane = (side: { entries: { name: string; role: string }[] } | undefined) =>
  side?.entries.map((e) => `${e.name} ${e.role}`);

describe('the load order after a repair, in its preview', () => {
  it('disabling the shadowing defaults: the cluster config is in use after', async () => {
    const p = await preview(
      node(shadowedNode()),
      'cni.conf.shadowed-by-default:disable-files:containerd',
    );
    expect(p.loadOrder).toHaveLength(1);
    const lo = p.loadOrder![0]!;
    expect(lo.runtime).toBe('containerd');
    expect(lane(lo.before)).toEqual([
      '00-podman-bridge.conflist in-use',
      '10-containerd-net.conflist never-read',
      '10-flannel.conflist never-read',
    ]);
    expect(lane(lo.after)).toEqual([
      '00-podman-bridge.conflist.disabled disabled',
      '10-containerd-net.conflist.disabled disabled',
      '10-flannel.conflist in-use',
    ]);
    expect(lo.inUseBefore).toBe('00-podman-bridge.conflist');
    expect(lo.inUseAfter).toBe('10-flannel.conflist');
  });

  it('re-enabling a disabled candidate: from no config to that one', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/10-flannel.conflist.mk_disabled': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
    });
    const lo = (await preview(root, 'cni.conf.none:rename-file:containerd')).loadOrder![0]!;
    expect(lane(lo.before)).toEqual(['10-flannel.conflist.mk_disabled disabled']);
    expect(lane(lo.after)).toEqual(['10-flannel.conflist in-use']);
  });

  it('setting conf_dir: the lane moves to the folder the cluster config is in', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/.keep': '',
      'etc/cni/net.mk/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
    });
    const lo = (
      await preview(root, 'cni.dir.mismatch:containerd-set-conf-dir:containerd-etc-cni-net.mk')
    ).loadOrder![0]!;
    expect(lo.before?.confDir).toBe('/etc/cni/net.d');
    expect(lo.after?.confDir).toBe('/etc/cni/net.mk');
    expect(lo.inUseBefore).toBeUndefined();
    expect(lo.inUseAfter).toBe('10-flannel.conflist');
  });

  it('a repair that touches no conf dir and no CNI setting has no lane', async () => {
    const p = await preview(
      node(criDisabledNode()),
      'containerd.cri.disabled:containerd-enable-cri',
    );
    expect(p.loadOrder).toBeUndefined();
  });
});
