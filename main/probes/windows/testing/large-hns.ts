/**
 * A large node's HNS lists in v1 shape, as the collection would parse them: thousands of
 * endpoints (mostly kube-proxy remote endpoints) and one kube-proxy load balancer per service port
 * (docs/knowledge/windows-node.md#scale: 2,000 services and ~5,000 remote endpoints are observed sizes).
 */
import type { RawHnsInput } from '../hns-model';

function guid(n: number, salt: number): string {
  const h = (n * 2654435761 + salt * 40503) >>> 0;
  const hex = h.toString(16).padStart(8, '0');
  const tail = n.toString(16).padStart(12, '0');
  return `${hex}-${hex.slice(0, 4)}-4${hex.slice(1, 4)}-a${hex.slice(5, 8)}-${tail}`;
}

export function largeHns(endpoints: number, policyLists: number): RawHnsInput {
  const networkId = guid(1, 1).toUpperCase();
  const eps = [];
  for (let i = 0; i < endpoints; i++) {
    const remote = i % 3 !== 0;
    eps.push({
      ID: guid(i, 2),
      Name: remote ? 'Ethernet' : `${guid(i, 9).replace(/-/g, '')}_Calico`,
      Version: 64424509440,
      State: remote ? 1 : 3,
      VirtualNetwork: networkId.toLowerCase(),
      VirtualNetworkName: 'Calico',
      Policies: remote
        ? [{ Type: 'PA', PA: `10.0.${i % 250}.${i % 200}` }]
        : [
            { Type: 'OutBoundNAT', ExceptionList: ['10.96.0.0/12', '10.244.0.0/16'] },
            { Type: 'ROUTE', DestinationPrefix: '10.96.0.0/12', NeedEncap: true },
          ],
      MacAddress: `0E-2A-0a-f4-${(i >> 8) & 255}-${i & 255}`,
      IPAddress: `10.244.${(i >> 8) & 255}.${i & 255}`,
      PrefixLength: 24,
      ...(remote
        ? { IsRemoteEndpoint: true }
        : { Namespace: { ID: guid(i, 3) }, SharedContainers: [guid(i, 4), guid(i, 5)] }),
    });
  }
  const lbs = [];
  for (let i = 0; i < policyLists; i++) {
    const refs = [];
    for (let k = 0; k < 3; k++) refs.push(`/endpoints/${guid((i * 7 + k) % endpoints, 2)}`);
    lbs.push({
      ActivityId: guid(i, 6).toUpperCase(),
      HostComputeNetwork: networkId,
      ID: guid(i, 7).toUpperCase(),
      IsApplied: true,
      State: 2,
      Version: 64424509440,
      References: refs,
      Policies: [
        {
          Type: 'ELB',
          ExternalPort: 80 + (i % 1000),
          InternalPort: 8080,
          Protocol: 6,
          IsDSR: true,
          SourceVIP: '10.244.1.2',
          VIPs: [`10.96.${(i >> 8) & 255}.${i & 255}`],
        },
      ],
      Health: { LastErrorCode: 0, LastUpdateTime: 133511593158285180 },
    });
  }
  const namespaces = eps
    .filter((_e, i) => i % 3 === 0)
    .map((e, i) => ({
      ID: guid(i * 3, 3).toUpperCase(),
      CompartmentId: i + 2,
      IsDefault: false,
      Containers: [],
      ResourceList: [{ Type: 'Endpoint', Data: { Id: e.ID.toUpperCase() } }],
    }));
  // Through JSON, so the objects look like freshly parsed collection output.
  return JSON.parse(
    JSON.stringify({
      source: 'HostNetworkingService',
      networks: [
        {
          ID: networkId,
          Name: 'Calico',
          Type: 'Overlay',
          Flags: 8,
          Subnets: [{ AddressPrefix: '10.244.0.0/16', GatewayAddress: '10.244.0.1' }],
        },
      ],
      endpoints: eps,
      namespaces,
      policyLists: lbs,
    }),
  ) as RawHnsInput;
}
