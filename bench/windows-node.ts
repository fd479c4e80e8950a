/**
 * A synthetic Windows node bundle at scale: N HNS endpoints and M policy lists in the v1 field
 * names Get-HnsEndpoint / Get-HnsPolicyList return (docs/knowledge/windows-hns.md#field-names), a containerd + Antrea
 * CNI layout, and the usual pipes and services.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const guid = (n: number, salt: number): string => {
  const h = (n * 2654435761 + salt * 40503).toString(16).padStart(8, '0').slice(-8);
  return `${h}-${(n & 0xffff).toString(16).padStart(4, '0')}-4${(salt & 0xfff).toString(16).padStart(3, '0')}-8000-${n.toString(16).padStart(12, '0')}`;
};

export async function makeWindowsBundle(
  dir: string,
  opts: { endpoints: number; policyLists: number },
): Promise<void> {
  const networks = [
    {
      ID: guid(1, 1),
      Name: 'antrea-hnsnetwork',
      Type: 'Transparent',
      Subnets: [{ AddressPrefix: '10.244.3.0/24', GatewayAddress: '10.244.3.1' }],
      State: 1,
    },
    {
      ID: guid(2, 1),
      Name: 'nat',
      Type: 'NAT',
      Subnets: [{ AddressPrefix: '172.19.208.0/20', GatewayAddress: '172.19.208.1' }],
      State: 1,
    },
  ];
  const endpoints = Array.from({ length: opts.endpoints }, (_, i) => ({
    ID: guid(i, 7),
    Name: `${i.toString(16).padStart(64, '0')}_antrea-hnsnetwork`,
    VirtualNetwork: networks[0]?.ID,
    VirtualNetworkName: 'antrea-hnsnetwork',
    IPAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    MacAddress: `00-15-5D-${((i >> 16) & 255).toString(16).padStart(2, '0')}-${((i >> 8) & 255).toString(16).padStart(2, '0')}-${(i & 255).toString(16).padStart(2, '0')}`,
    State: i % 50 === 0 ? 1 : 3,
    IsRemoteEndpoint: i % 3 === 0,
    SharedContainers: i % 50 === 0 ? [] : [i.toString(16).padStart(64, '0')],
    Namespace: i % 50 === 0 ? undefined : { ID: guid(i, 9) },
  }));
  const policyLists = Array.from({ length: opts.policyLists }, (_, i) => ({
    ID: guid(i, 11),
    References: [`/endpoints/${endpoints[i % Math.max(1, endpoints.length)]?.ID}`],
    Policies: [
      {
        Type: 'ELB',
        Protocol: 6,
        InternalPort: 8080,
        ExternalPort: 80,
        VIPs: [`10.96.${(i >> 8) & 255}.${i & 255}`],
      },
    ],
  }));
  const manifest = {
    format: 'cni-doctor.bundle/v1',
    host: { os: 'windows', hostname: 'win-node-scale', osVersion: '10.0.20348', elevated: true },
    processes: [
      {
        name: 'kubelet.exe',
        pid: 100,
        args: [
          'C:\\k\\kubelet.exe',
          '--container-runtime-endpoint=npipe:////./pipe/containerd-containerd',
        ],
      },
      {
        name: 'containerd.exe',
        pid: 101,
        args: [
          'C:\\Program Files\\containerd\\containerd.exe',
          '--config',
          'C:\\Program Files\\containerd\\config.toml',
        ],
      },
    ],
    services: [
      { name: 'containerd', state: 'running' },
      { name: 'kubelet', state: 'running' },
      { name: 'antrea-agent', state: 'running' },
      { name: 'ovs-vswitchd', state: 'running' },
    ],
    versions: { kubelet: 'v1.27.4', containerd: '1.7.2', antrea: 'v1.12.0' },
    pipes: ['containerd-containerd', 'cnisock'],
    paths: {
      'C:\\etc\\cni\\net.d': { type: 'dir', entries: ['10-antrea.conflist'] },
      'C:\\opt\\cni\\bin': { type: 'dir', entries: ['antrea.exe', 'host-local.exe'] },
    },
    hns: { networks, endpoints, namespaces: [], policyLists },
  };
  const put = async (rel: string, text: string): Promise<void> => {
    const p = path.join(dir, rel);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await fsp.writeFile(p, text);
  };
  await put('manifest.json', JSON.stringify(manifest));
  await put(
    'files/C/Program Files/containerd/config.toml',
    'version = 2\n[plugins."io.containerd.grpc.v1.cri".cni]\n  bin_dir = "C:/opt/cni/bin"\n  conf_dir = "C:/etc/cni/net.d"\n',
  );
  await put(
    'files/C/etc/cni/net.d/10-antrea.conflist',
    JSON.stringify(
      {
        cniVersion: '0.3.0',
        name: 'antrea',
        plugins: [{ type: 'antrea', ipam: { type: 'host-local' }, capabilities: { dns: true } }],
      },
      null,
      2,
    ),
  );
}
