import { describe, expect, it } from 'vitest';
import type { HnsModel } from '../../../shared/model/hns';
import { parseCollectionObject } from '../../host/windows/collect-result';
import { normalizeHns } from './hns-normalize';
import type { NormalizedHns } from './hns-model';
import { endpointState, networkType } from './hns-enums';
import { loadFixture, rawSamples } from './testing/sample-fixtures';

/** A converted sample, read the way a live scan is read: collection parser, then normaliser. */
function fromSample(prefix: string): NormalizedHns {
  const s = rawSamples().find((x) => x.file.startsWith(prefix));
  if (!s) throw new Error(`no sample ${prefix}`);
  const parsed = parseCollectionObject(loadFixture(s.file));
  if (!parsed.ok || !parsed.collection.hns) throw new Error(`fixture ${s.file} unreadable`);
  return normalizeHns(parsed.collection.hns);
}

describe('normalizeHns over every real sample', () => {
  it.each(rawSamples().map((s) => [s.file]))(
    '%s normalises without throwing and keeps every object with an ID',
    (file) => {
      const m = fromSample(file.slice(0, 2));
      const all = [...m.networks, ...m.endpoints, ...m.namespaces, ...m.policyLists];
      expect(all.length).toBeGreaterThan(0);
      for (const o of all) expect(o.id).toMatch(/^[0-9a-f-]+$/);
    },
  );

  it('01 hnsdiag table: names, network names and load-balancer references', () => {
    const m = fromSample('01');
    expect(m.networks.map((n) => [n.name, n.type])).toEqual([
      ['nat', 'Unknown'],
      ['External', 'Unknown'],
      ['vxlan0', 'Unknown'],
    ]);
    expect(m.endpoints.every((e) => e.networkName === 'vxlan0' && !e.isRemote)).toBe(true);
    expect(m.policyLists[1]).toMatchObject({
      id: 'af826f8b-9f78-41ea-bc9e-6e433f8784df',
      endpoints: ['fc0bbb8f-52a6-486f-bff8-10ab92859006', '07f382ab-8884-40ba-8adf-efe4c92e8608'],
      vips: ['10.96.0.10'],
      policyTypes: ['ELB'],
    });
  });

  it('02 Calico endpoint: AttachedSharing, namespace, containers, policies', () => {
    const [e] = fromSample('02').endpoints;
    expect(e).toMatchObject({
      id: 'c9385412-bdef-49f5-88b0-c9d484ef6716',
      name: '4a625a2b10a33b0dea96fe8743fb8e13504481ee9f481d179f8e75b8c98611d2_Calico',
      schema: 'v1',
      state: 'AttachedSharing',
      stateCode: 3,
      isRemote: false,
      networkId: '06560ccd-89f3-4c69-a1a1-e9e368201482',
      networkName: 'Calico',
      namespaceId: '4ea04396-a6e5-478f-915e-909b8c80b2ef',
      ip: '10.42.213.221',
      prefixLength: 26,
      gateway: '10.42.213.193',
      mac: '0E-2A-0A-2A-D5-DD',
    });
    expect(e?.sharedContainers).toHaveLength(2);
    expect(e?.policies.map((p) => p.type)).toEqual(['OutBoundNAT', 'ROUTE', 'PA', 'ACL']);
    expect(e?.policies[1]?.settings).toMatchObject({
      DestinationPrefix: '10.43.0.0/16',
      NeedEncap: true,
    });
  });

  it('03 flannel vxlan0: non-persistent overlay with remote subnet routes and localised extensions', () => {
    const [n] = fromSample('03').networks;
    expect(n).toMatchObject({
      name: 'vxlan0',
      nonPersistent: true,
      flags: 8,
      managementIp: '172.27.1.88',
    });
    expect(n?.extensions.map((x) => [x.name, x.enabled])).toEqual([
      ['Microsoft Windows-Filterplattform', false],
      ['Microsoft Azure VFP Switch Extension', true],
      ['Microsoft-NDIS-Aufzeichnung', true],
    ]);
    expect(n?.policies.map((p) => p.type)).toEqual(['HostRoute', 'RemoteSubnetRoute']);
  });

  it('04 and 07 nat networks: NAT- and ICS-backed, subnet where the sample kept it', () => {
    const [nat] = fromSample('04').networks;
    expect(nat).toMatchObject({
      id: '55fedb88-4b11-4da4-8cd1-59970718a804',
      name: 'nat',
      natName: 'NATF7437238-4A6F-4E71-8718-78A394A7F770',
      nonPersistent: true,
      stateCode: 1,
    });
    expect(nat?.subnets).toEqual([{ prefix: '172.29.144.0/20', gateway: '172.29.144.1' }]);
    const [ics] = fromSample('07').networks;
    expect(ics).toMatchObject({
      name: 'nat',
      natName: 'ICS3A058A10-E5D6-4AA7-857C-02B4F3F118B5',
      nonPersistent: false,
    });
  });

  it('05, 06 and 12 External/Transparent networks: type, subnet, management IP, adapter', () => {
    expect(fromSample('05').networks[0]).toMatchObject({
      name: 'External',
      type: 'Overlay',
      subnets: [{ prefix: '192.168.255.0/30', gateway: '192.168.255.1' }],
      managementIp: '10.7.0.25',
      adapterName: 'Ethernet 2',
    });
    expect(fromSample('06').networks[0]).toMatchObject({
      name: 'External',
      managementIp: '10.12.12.157',
      subnets: [{ prefix: '192.168.255.0/30' }],
    });
    const m12 = fromSample('12');
    expect(m12.networks.map((n) => [n.name, n.type])).toEqual([
      ['vmxnet3 Ethernet Adapter - Virtual Switch', 'Transparent'],
    ]);
    expect(m12.dropped).toEqual([{ kind: 'network', reason: 'item 1 has no ID' }]);
  });

  it('08 kube-proxy load balancers: references, source VIP, state; System.Object[] is not a VIP', () => {
    const [lb] = fromSample('08').policyLists;
    expect(lb).toMatchObject({
      id: 'd680d0e7-185b-46a7-b097-37a8b439f588',
      networkId: '93c59a4b-f5c0-42aa-be09-e7480de1ff3d',
      endpoints: ['c55b2c86-bd06-400e-bca7-8fb7de11e635'],
      vips: [],
      sourceVip: '10.244.178.2',
      isApplied: false,
      stateCode: 2,
      policyTypes: ['ELB'],
    });
  });

  it('09 and 10 namespaces: orphan (compartment 0, no containers), default, and ResourceList members', () => {
    const m9 = fromSample('09');
    expect(
      m9.namespaces.map((n) => [
        n.id,
        n.compartmentId,
        n.isDefault,
        n.containers.length,
        n.endpoints.length,
      ]),
    ).toEqual([
      ['37b9e55c-5ec5-45b6-969f-8585a89dc6e5', 0, false, 0, 0],
      ['910f7d92-ba2d-4c3f-98ae-7c0ac590d2dc', 1, true, 0, 0],
    ]);
    expect(m9.dropped).toEqual([{ kind: 'namespace', reason: 'item 2 has no ID' }]);
    expect(fromSample('10').namespaces[0]).toMatchObject({
      id: '7cb720c0-ac4c-4266-92e1-dc277b2a9b94',
      endpoints: ['7cc03af7-2978-449f-9968-595862b80f8b'],
      containers: ['291cd4892b99', '291cd4892b99', '0f70f0bcccaf'],
      compartmentId: 6,
      schema: 'v1',
    });
  });

  it('11 nat endpoint created but never attached; 15 remote endpoint (State 1 is normal there)', () => {
    expect(fromSample('11').endpoints[0]).toMatchObject({
      name: 'default-test_nat',
      state: 'Created',
      stateCode: 1,
      sharedContainers: [],
      networkName: 'nat',
      isRemote: false,
    });
    expect(fromSample('15').endpoints[0]).toMatchObject({
      isRemote: true,
      state: 'Created',
      mac: '00-11-22-33-44-55',
      ip: '10.244.0.4',
    });
  });

  it('13 and 14 hnsdiag: key/value load balancer; EKS endpoints with a cid- name', () => {
    expect(fromSample('13').policyLists[0]).toMatchObject({
      vips: ['172.30.0.1'],
      endpoints: ['78c19c4d-7edf-43bd-ab2a-5ccf97f214fe'],
    });
    const m14 = fromSample('14');
    expect(m14.networks.map((n) => n.name)).toEqual(['vpcbr06684cbed472', 'nat']);
    expect(m14.endpoints.filter((e) => e.name.startsWith('cid-'))).toHaveLength(1);
  });
});

describe('the v2 schema (HostNetworkingService v2 / hns.v2.psm1 / hcn)', () => {
  const v2 = normalizeHns({
    source: 'HNS',
    networks: [
      {
        ID: '5E2837E0-1E0D-461E-833B-AFBD2AFB4583',
        Name: 'Calico',
        Type: 'Overlay',
        Flags: 8,
        Ipams: [
          {
            Type: 'Static',
            Subnets: [
              {
                IpAddressPrefix: '10.244.1.0/24',
                Routes: [{ NextHop: '10.244.1.1', DestinationPrefix: '0.0.0.0/0' }],
              },
            ],
          },
        ],
        Policies: [{ Type: 'NetAdapterName', Settings: { NetworkAdapterName: 'Ethernet' } }],
        SchemaVersion: { Major: 2, Minor: 2 },
      },
    ],
    endpoints: [
      {
        ID: 'A1B2C3D4-0000-0000-0000-000000000001',
        Name: 'abc_Calico',
        HostComputeNetwork: '5E2837E0-1E0D-461E-833B-AFBD2AFB4583',
        HostComputeNamespace: 'B1062982-2B18-4B4F-B3D5-A78DDB9CDD49',
        IpConfigurations: [{ IpAddress: '10.244.1.7', PrefixLength: 24 }],
        MacAddress: '0e-2a-0a-f4-01-07',
        Flags: 0,
        Policies: [{ Type: 'OutBoundNAT', Settings: { Exceptions: ['10.96.0.0/12'] } }],
        SchemaVersion: { Major: 2, Minor: 0 },
      },
      {
        ID: 'A1B2C3D4-0000-0000-0000-000000000002',
        Name: 'remote',
        HostComputeNetwork: '5e2837e0-1e0d-461e-833b-afbd2afb4583',
        Flags: 1,
        IpConfigurations: { IpAddress: '10.244.2.9' },
      },
    ],
    namespaces: [
      {
        ID: 'B1062982-2B18-4B4F-B3D5-A78DDB9CDD49',
        Type: 'Guest',
        NamespaceId: 5,
        Resources: [{ Type: 'Container', Data: { Id: 'x' } }],
      },
    ],
    policyLists: [
      {
        ID: 'C0000000-0000-0000-0000-000000000001',
        HostComputeEndpoints: ['A1B2C3D4-0000-0000-0000-000000000001'],
        SourceVIP: '10.244.1.2',
        FrontendVIPs: ['10.96.0.10'],
        PortMappings: [{ Protocol: 17, InternalPort: 53, ExternalPort: 53 }],
      },
    ],
  });

  it('reads Ipams subnets with the default route as gateway, and nested policy settings', () => {
    expect(v2.networks[0]).toMatchObject({
      schema: 'v2',
      type: 'Overlay',
      subnets: [{ prefix: '10.244.1.0/24', gateway: '10.244.1.1' }],
      nonPersistent: true,
    });
    expect(v2.networks[0]?.policies).toEqual([
      { type: 'NetAdapterName', settings: { NetworkAdapterName: 'Ethernet' } },
    ]);
  });

  it('reads endpoints by HostComputeNetwork/Namespace and IpConfigurations; Flags bit 1 is remote', () => {
    expect(v2.endpoints[0]).toMatchObject({
      schema: 'v2',
      networkId: '5e2837e0-1e0d-461e-833b-afbd2afb4583',
      networkName: 'Calico',
      namespaceId: 'b1062982-2b18-4b4f-b3d5-a78ddb9cdd49',
      ip: '10.244.1.7',
      prefixLength: 24,
      mac: '0E-2A-0A-F4-01-07',
      isRemote: false,
    });
    expect(v2.endpoints[0]?.policies[0]).toEqual({
      type: 'OutBoundNAT',
      settings: { Exceptions: ['10.96.0.0/12'] },
    });
    expect(v2.endpoints[1]).toMatchObject({
      isRemote: true,
      ip: '10.244.2.9',
      networkName: 'Calico',
    });
  });

  it('reads v2 namespaces (type, compartment) and fills membership from the endpoints', () => {
    expect(v2.namespaces[0]).toMatchObject({
      schema: 'v2',
      type: 'Guest',
      compartmentId: 5,
      endpoints: ['a1b2c3d4-0000-0000-0000-000000000001'],
    });
  });

  it('reads v2 load balancers', () => {
    expect(v2.policyLists[0]).toMatchObject({
      schema: 'v2',
      endpoints: ['a1b2c3d4-0000-0000-0000-000000000001'],
      vips: ['10.96.0.10'],
      sourceVip: '10.244.1.2',
      policyTypes: ['LoadBalancer'],
      policies: [
        { type: 'PortMapping', settings: { Protocol: 17, InternalPort: 53, ExternalPort: 53 } },
      ],
    });
  });
});

describe('enums', () => {
  it('maps endpoint State numbers and names (docs/knowledge/windows-hns.md#field-names)', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => endpointState(n).state)).toEqual([
      'Uninitialized',
      'Created',
      'Attached',
      'AttachedSharing',
      'Detached',
      'Degraded',
      'Destroyed',
    ]);
    expect(endpointState('3')).toEqual({ state: 'AttachedSharing', stateCode: 3 });
    expect(endpointState('attachedsharing')).toEqual({ state: 'AttachedSharing', stateCode: 3 });
    expect(endpointState('Quarantined')).toEqual({ state: 'Quarantined' });
    expect(endpointState(9)).toEqual({ stateCode: 9 });
    expect(endpointState(null)).toEqual({});
  });

  it('spells network types one way, keeps unknown ones, never guesses numbers', () => {
    expect(
      ['nat', 'NAT', 'l2bridge', 'L2BRIDGE', 'overlay', 'ics', 'transparent', 'l2tunnel'].map(
        networkType,
      ),
    ).toEqual(['NAT', 'NAT', 'L2Bridge', 'L2Bridge', 'Overlay', 'ICS', 'Transparent', 'L2Tunnel']);
    expect(networkType('SomethingNew')).toBe('SomethingNew');
    expect(networkType(7)).toBe('Unknown(7)');
    expect(networkType(undefined)).toBe('Unknown');
  });
});

describe('untrusted input', () => {
  it('drops what is unusable, unwraps 5.1 arrays and single objects, never throws', () => {
    const m = normalizeHns({
      networks: 'System.Object[]',
      endpoints: [
        null,
        1,
        'a',
        { Name: 'no id' },
        { ID: '{ABC}', State: 'x', Policies: 'System.Object[]', SharedContainers: 'c1' },
      ],
      namespaces: { value: [{ ID: 'N1' }], Count: 1 },
      policyLists: {
        ID: 'single',
        References: '/endpoints/E1',
        Policies: { Type: 'ELB', VIPs: '10.0.0.1' },
      },
    });
    expect(m.networks).toEqual([]);
    expect(m.endpoints).toHaveLength(1);
    expect(m.endpoints[0]).toMatchObject({
      id: 'abc',
      state: 'x',
      sharedContainers: ['c1'],
      policies: [{ type: 'System.Object[]', settings: {} }],
    });
    expect(m.dropped).toEqual([
      { kind: 'network', reason: 'item 0 is not an object' },
      { kind: 'endpoint', reason: 'item 0 is not an object' },
      { kind: 'endpoint', reason: 'item 1 is not an object' },
      { kind: 'endpoint', reason: 'item 2 is not an object' },
      { kind: 'endpoint', reason: 'item 3 has no ID (name no id)' },
    ]);
    expect(m.namespaces.map((n) => n.id)).toEqual(['n1']);
    expect(m.policyLists[0]).toMatchObject({ id: 'single', endpoints: ['e1'], vips: ['10.0.0.1'] });
    expect(normalizeHns({})).toMatchObject({
      source: 'unknown',
      networks: [],
      endpoints: [],
      namespaces: [],
      policyLists: [],
    });
  });

  it('keeps the raw object only when asked', () => {
    const input = { networks: [{ ID: 'N', Name: 'nat', Type: 'nat' }] };
    expect(normalizeHns(input).networks[0]?.raw).toBeUndefined();
    expect(normalizeHns(input, { keepRaw: true }).networks[0]?.raw).toBe(input.networks[0]);
  });

  it('is an HnsModel (shared contract)', () => {
    const model: HnsModel = normalizeHns({ networks: [{ ID: 'N', Name: 'nat', Type: 'nat' }] });
    expect(model.networks[0]?.type).toBe('NAT');
  });
});
