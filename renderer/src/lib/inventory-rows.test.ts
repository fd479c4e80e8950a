import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BundleHost } from '../../../main/host/bundle-host';
import { scanHost } from '../../../main/engine/scan';
import {
  cniTables,
  endpointTables,
  hnsEndpointTables,
  kubeletTables,
  pipeTables,
  runtimeTables,
} from './inventory-rows';

const demo = (id: string) => join(process.cwd(), 'assets', 'demo', id);

describe('inventory tables from a real snapshot', () => {
  it('lists the conf dir in load order with the parse result of each file', async () => {
    const { snapshot } = await scanHost(await BundleHost.open(demo('minikube-conflict')));
    const [conf] = cniTables(snapshot);
    const etc = conf?.rows.filter((r) => r[0] === '/etc/cni/net.d').map((r) => [r[1], r[2], r[5]]);
    expect(etc).toEqual([
      ['1', '10-containerd-net.conflist', 'network "containerd-net"'],
      ['2', '10-kindnet.conflist', 'network "kindnet"'],
      ['3', '100-crio-bridge.conflist', 'network "crio"'],
      ['4', '87-podman-bridge.conflist', 'network "podman"'],
    ]);
    expect(runtimeTables(snapshot)[0]?.rows).toContainEqual([
      'containerd',
      'cni conf_dir',
      '/etc/cni/net.d',
      '/etc/containerd/config.toml:16',
    ]);
    expect(kubeletTables(snapshot)[0]?.rows.some((r) => r[1] === 'runtime endpoint')).toBe(true);
    expect(endpointTables(snapshot)[1]?.rows[0]?.slice(3, 5)).toEqual(['true', 'true']);
    expect(hnsEndpointTables(snapshot)[0]?.note).toBe('not a Windows node');
  });

  it('shows Windows HNS objects and pipes', async () => {
    const { snapshot } = await scanHost(await BundleHost.open(demo('windows-antrea-containerd')));
    expect(hnsEndpointTables(snapshot)[0]?.rows).toHaveLength(1);
    expect(pipeTables(snapshot)[0]?.rows).toEqual([
      ['\\\\.\\pipe\\containerd-containerd'],
      ['\\\\.\\pipe\\openvswitch'],
    ]);
  });
});
