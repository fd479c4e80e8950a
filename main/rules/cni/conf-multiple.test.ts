import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../../host/memory-node.testutil';

const net = (name: string, type: string): string =>
  JSON.stringify({ cniVersion: '1.0.0', name, plugins: [{ type }] });

async function multiple(conf: Record<string, string>) {
  const scan = await scanMemoryNode({
    running: ['containerd'],
    files: {
      '/etc/containerd/config.toml': 'version = 2\n',
      ...Object.fromEntries(Object.entries(conf).map(([n, t]) => [`/etc/cni/net.d/${n}`, t])),
    },
    paths: { '/opt/cni/bin': { type: 'dir', entries: ['bridge', 'calico', 'flannel'] } },
  });
  return scan.findings('cni.conf.multiple')[0];
}

describe('cni.conf.multiple repairs', () => {
  it('offers to disable the configs not in use when a cluster config wins', async () => {
    const f = await multiple({
      '10-calico.conflist': net('k8s-pod-network', 'calico'),
      '20-flannel.conflist': net('cbr0', 'flannel'),
    });
    expect(f?.repairs.map((r) => r.title)).toEqual([
      'Disable the 1 config(s) not in use (keep 10-calico.conflist)',
    ]);
  });

  // Keeping the winner here would disable the cluster CNI and cement the default bridge.
  it('offers nothing when a runtime default wins over a cluster config', async () => {
    const f = await multiple({
      '10-containerd-net.conflist': net('containerd-net', 'bridge'),
      '10-flannel.conflist': net('cbr0', 'flannel'),
    });
    expect(f?.repairs).toEqual([]);
    expect(f?.guidance).toMatch(/cni\.conf\.shadowed-by-default/);
  });
});
