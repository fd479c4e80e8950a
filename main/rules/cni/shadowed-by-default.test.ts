import { describe, expect, it } from 'vitest';
import { scanMemoryNode, type MemoryNodeSpec } from '../../host/memory-node.testutil';

const FLANNEL = JSON.stringify({
  name: 'cbr0',
  cniVersion: '0.3.1',
  plugins: [{ type: 'flannel', delegate: { isDefaultGateway: true } }, { type: 'portmap' }],
});
const CRIO_BRIDGE = JSON.stringify({
  cniVersion: '1.0.0',
  name: 'crio',
  plugins: [{ type: 'bridge', ipam: { type: 'host-local' } }],
});
const CONTAINERD_NET = JSON.stringify({
  cniVersion: '1.0.0',
  name: 'containerd-net',
  plugins: [{ type: 'bridge', ipam: { type: 'host-local' } }, { type: 'portmap' }],
});

async function scan(conf: Record<string, string>, node: MemoryNodeSpec) {
  const result = await scanMemoryNode({
    ...node,
    files: {
      ...Object.fromEntries(Object.entries(conf).map(([n, t]) => [`/etc/cni/net.d/${n}`, t])),
      ...node.files,
    },
  });
  return result.findings('cni.conf.shadowed-by-default')[0];
}

describe('cni.conf.shadowed-by-default repairs', () => {
  it('offers no file disabling when CRI-O skipped the cluster config for a missing plugin (it would leave no network)', async () => {
    const f = await scan(
      { '10-flannel.conflist': FLANNEL, '100-crio-bridge.conflist': CRIO_BRIDGE },
      {
        files: { '/etc/crio/crio.conf': '[crio.network]\nplugin_dirs = ["/usr/libexec/cni/"]\n' },
        paths: {
          '/usr/libexec/cni': { type: 'dir', entries: ['bridge', 'host-local', 'portmap'] },
          '/opt/cni/bin': { type: 'dir', entries: ['flannel'] },
        },
        running: ['crio'],
      },
    );
    expect(f?.severity).toBe('error');
    expect(f?.repairs).toEqual([]);
    expect(f?.guidance).toMatch(/plugin binary is missing/);
  });

  it('disables the default that sorts before a usable cluster config', async () => {
    const f = await scan(
      { '10-containerd-net.conflist': CONTAINERD_NET, '10-flannel.conflist': FLANNEL },
      {
        files: { '/etc/containerd/config.toml': 'version = 2\n' },
        paths: {
          '/opt/cni/bin': { type: 'dir', entries: ['bridge', 'flannel', 'host-local', 'portmap'] },
        },
        running: ['containerd'],
      },
    );
    expect(f?.repairs.map((r) => r.title)).toEqual([
      'Disable 10-containerd-net.conflist so 10-flannel.conflist (flannel) is used',
    ]);
  });
});
