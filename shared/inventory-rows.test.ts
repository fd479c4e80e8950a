import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BundleHost } from '../main/host/bundle-host';
import { scanHost } from '../main/engine/scan';
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

describe('HNS endpoints: State and Stale agree with hns.endpoint.stale', () => {
  it('an endpoint HNS calls Attached whose sandbox is gone reads "Attached" and "stale: …" with the same reason as the finding', async () => {
    const { snapshot } = await scanHost(await BundleHost.open(demo('windows-antrea-containerd')));
    const hns = snapshot.windows?.hns;
    if (!hns?.known) throw new Error('demo has HNS');
    const sid = 'c'.repeat(64);
    hns.value.endpoints.push({
      id: 'LEFTOVER-1',
      name: `${sid}_antrea`,
      isRemote: false,
      sharedContainers: [],
      namespaceId: '11111111-2222-3333-4444-555555555555',
      state: 'Attached',
    });
    snapshot.cri = [
      {
        endpoint: 'npipe:////./pipe/containerd-containerd',
        api: 'runtime.v1',
        sandboxes: [{ id: 'd'.repeat(64), name: 'p', namespace: 'n', state: 'SANDBOX_READY' }],
        error: null,
      },
    ];
    const row = hnsEndpointTables(snapshot)[0]?.rows.find((r) => r[0] === 'LEFTOVER-1');
    const { evaluate } = await import('../main/engine/evaluate');
    const finding = evaluate(snapshot).report.findings.find((f) => f.rule === 'hns.endpoint.stale');
    const ev = finding?.evidence.find((e) => e.kind === 'hns' && e.id === 'LEFTOVER-1');
    expect(row?.[4]).toBe('Attached');
    expect(row?.[8]).toMatch(
      /^stale: HNS state Attached, attached to namespace 11111111 whose sandbox cccccccccccc no longer exists$/,
    );
    expect(ev?.kind === 'hns' && ev.detail).toContain(row?.[8]?.slice('stale: '.length));
  });
});
