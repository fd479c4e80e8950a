import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertSample, sampleIds, type SampleFixture } from './sample-convert';
import { parseFormatList } from './format-list';
import { parseDisplayValue } from './display-value';
import { parseJsonLenient } from './json-lenient';
import { rawSamples } from './sample-fixtures';

const samples = rawSamples();
const converted = new Map(
  samples.map((s) => [s.file.slice(0, 2), convertSample(s.file, s.text, s.origin)]),
);
const get = (id: string): SampleFixture => {
  const f = converted.get(id);
  if (!f) throw new Error(`sample ${id} missing`);
  return f;
};

describe('sample conversion', () => {
  it('has a recipe for every sample and a sample for every recipe', () => {
    expect(samples.map((s) => s.file.slice(0, 2))).toEqual(sampleIds());
  });

  it.each(samples.map((s) => [s.file, s]))('%s matches its committed fixture', (_f, s) => {
    const fixture = converted.get(s.file.slice(0, 2));
    const text = `${JSON.stringify(fixture, null, 2)}\n`;
    if (process.env.UPDATE_FIXTURES === '1') writeFileSync(s.fixturePath, text);
    expect(existsSync(s.fixturePath), `${s.fixturePath} missing: run with UPDATE_FIXTURES=1`).toBe(
      true,
    );
    expect(readFileSync(s.fixturePath, 'utf8')).toBe(text);
  });

  it('01: hnsdiag table → 3 networks, 6 endpoints, 4 load balancers with endpoint references', () => {
    const h = get('01').hns;
    expect(h.networks.map((n) => n.Name)).toEqual(['nat', 'External', 'vxlan0']);
    expect(h.endpoints).toHaveLength(6);
    expect(h.endpoints.every((e) => e.VirtualNetworkName === 'vxlan0')).toBe(true);
    expect(h.policyLists).toHaveLength(4);
    expect(h.policyLists[1]).toEqual({
      ID: 'af826f8b-9f78-41ea-bc9e-6e433f8784df',
      Policies: [{ Type: 'ELB', VIPs: ['10.96.0.10'] }],
      References: [
        '/endpoints/fc0bbb8f-52a6-486f-bff8-10ab92859006',
        '/endpoints/07f382ab-8884-40ba-8adf-efe4c92e8608',
      ],
    });
  });

  it('02: the list output, not the hnsdiag block above it; lossy fields are named', () => {
    const f = get('02');
    expect(f.hns.endpoints).toHaveLength(1);
    const e = f.hns.endpoints[0];
    expect(e).toMatchObject({
      ID: 'c9385412-bdef-49f5-88b0-c9d484ef6716',
      State: 3,
      VirtualNetworkName: 'Calico',
      PrefixLength: 26,
      Namespace: { ID: '4ea04396-a6e5-478f-915e-909b8c80b2ef' },
      DNSSuffix: 'rke2-tcp-reset-test.svc.cluster.local,svc.cluster.local,cluster.local',
    });
    expect(e?.SharedContainers).toHaveLength(2);
    expect(e?.Policies).toHaveLength(4);
    expect(f.sample.lossy).toEqual(
      expect.arrayContaining([
        'endpoints[0].Policies (only the first 4 items shown)',
        'endpoints[0].Policies[0].ExceptionList (array shown as System.Object[])',
      ]),
    );
  });

  it('03: word-wrapped list lines keep their spaces; the cut policy is dropped', () => {
    const n = get('03').hns.networks[0];
    expect(n?.Name).toBe('vxlan0');
    expect(n?.Extensions).toEqual([
      {
        Id: 'E7C3B2F0-F3C5-48DF-AF2B-10FED6D72E7A',
        IsEnabled: false,
        Name: 'Microsoft Windows-Filterplattform',
      },
      {
        Id: 'E9B59CFA-2BE1-4B21-828F-B6FBDBDDC017',
        IsEnabled: true,
        Name: 'Microsoft Azure VFP Switch Extension',
      },
      {
        Id: 'EA24CD6C-D17A-4348-9190-09F0D5BE83DD',
        IsEnabled: true,
        Name: 'Microsoft-NDIS-Aufzeichnung',
      },
    ]);
    expect(n?.Policies).toEqual([
      { Type: 'HostRoute' },
      {
        DestinationPrefix: '10.244.0.0/24',
        DistributedRouterMacAddress: 'c6:71:81:86:b2:77',
        IsolationId: 4096,
        ProviderAddress: '172.27.10.47',
        Type: 'RemoteSubnetRoute',
      },
    ]);
    expect(get('03').sample.truncated).toBe(true);
  });

  it('04: the subnet before the cut survives', () => {
    const n = get('04').hns.networks[0];
    expect(n).toMatchObject({
      Name: 'nat',
      Flags: 8,
      NatName: 'NATF7437238-4A6F-4E71-8718-78A394A7F770',
    });
    expect(n?.Subnets).toEqual([
      expect.objectContaining({
        AddressPrefix: '172.29.144.0/20',
        GatewayAddress: '172.29.144.1',
        IpSubnets: 'System.Object[]',
        ObjectType: 5,
      }),
    ]);
  });

  it('05: escaped, hard-wrapped JSON is rejoined (ObjectTyp|e) and read to the cut', () => {
    const n = get('05').hns.networks[0];
    expect(n).toMatchObject({
      ID: '9DD95ECE-3B9B-417B-9F43-7B58F5B390D1',
      Name: 'External',
      Type: 'Overlay',
      ManagementIP: '10.7.0.25',
      NetworkAdapterName: 'Ethernet 2',
    });
    expect((n?.Subnets as { ObjectType: number; AddressPrefix: string }[])[0]).toMatchObject({
      ObjectType: 5,
      AddressPrefix: '192.168.255.0/30',
    });
  });

  it('06: word wrap inside @{} lists', () => {
    const n = get('06').hns.networks[0];
    expect(n).toMatchObject({ Name: 'External', ManagementIP: '10.12.12.157', State: 1 });
    expect(n?.MacPools).toEqual([
      { EndMacAddress: '00-15-5D-C8-FF-FF', StartMacAddress: '00-15-5D-C8-F0-00' },
    ]);
  });

  it('07: mid-word console wrap (…@{I|d=…, InterfaceNotification|MissedCount) is rejoined without a space', () => {
    const n = get('07').hns.networks[0];
    expect(n).toMatchObject({ Name: 'nat', NatName: 'ICS3A058A10-E5D6-4AA7-857C-02B4F3F118B5' });
    expect((n?.Extensions as { Id: string; Name: string }[]).map((e) => e.Name)).toEqual([
      'Microsoft Windows 筛选平台',
      'Microsoft Azure VFP Switch Extension',
      'Microsoft NDIS 捕获',
    ]);
    expect(n?.Health).toMatchObject({
      InterfaceNotificationMissedCount: 0,
      LastUpdateTime: 133130762786637300,
    });
    expect(n).not.toHaveProperty('Resources');
  });

  it('08: two kube-proxy load balancers, the second cut short', () => {
    const h = get('08').hns;
    expect(h.policyLists.map((p) => p.ID)).toEqual([
      'D680D0E7-185B-46A7-B097-37A8B439F588',
      'F4F6A3DB-F234-49B2-960B-F0C45C25208B',
    ]);
    expect(h.policyLists[0]).toMatchObject({
      State: 2,
      IsApplied: false,
      References: ['/endpoints/c55b2c86-bd06-400e-bca7-8fb7de11e635'],
    });
  });

  it('09: three namespaces, the last without its ID', () => {
    const h = get('09').hns;
    expect(h.namespaces.map((n) => n.ID)).toEqual([
      '37B9E55C-5EC5-45B6-969F-8585A89DC6E5',
      '910F7D92-BA2D-4C3F-98AE-7C0AC590D2DC',
      undefined,
    ]);
    expect(h.namespaces[1]).toMatchObject({ IsDefault: true, CompartmentId: 1 });
  });

  it('10: hnsdiag -d JSON with ResourceList', () => {
    expect(get('10').hns.namespaces[0]).toMatchObject({
      ID: '7CB720C0-AC4C-4266-92E1-DC277B2A9B94',
      ResourceList: [{ Type: 'Endpoint', Data: { Id: '7CC03AF7-2978-449F-9968-595862B80F8B' } }],
    });
  });

  it('11 and 15: complete endpoint records', () => {
    expect(get('11').hns.endpoints[0]).toMatchObject({
      Name: 'default-test_nat',
      State: 1,
      SharedContainers: [],
      VirtualNetworkName: 'nat',
    });
    expect(get('15').hns.endpoints[0]).toMatchObject({
      IsRemoteEndpoint: true,
      State: 1,
      Type: 'l2bridge',
      MacAddress: '00:11:22:33:44:55',
    });
  });

  it('12: the error envelope is kept, the request body is not an object, wrapped words get their space back', () => {
    const f = get('12');
    expect(f.hns.errors).toEqual({
      create: { Error: 'An adapter was not found. ', ErrorCode: 2151350278, Success: false },
    });
    expect(f.hns.networks[0]).toMatchObject({
      Name: 'vmxnet3 Ethernet Adapter - Virtual Switch',
      Type: 'Transparent',
      ID: 'C156C7CA-7B7B-4AFE-9FEC-1EA1A8D48C84',
    });
    expect((f.hns.networks[1]?.Extensions as { Name: string }[]).map((e) => e.Name)).toEqual([
      'Microsoft Windows Filtering Platform',
      'Microsoft Azure VFP Switch Extension',
      'Microsoft NDIS Capture',
    ]);
  });

  it('13 and 14: key/value load balancers; a long cid- name that breaks the columns', () => {
    expect(get('13').hns.policyLists).toEqual([
      {
        ID: '3599612c-54b4-4b9d-9258-4fc5e2100549',
        Policies: [{ Type: 'ELB', VIPs: ['172.30.0.1'] }],
        References: ['/endpoints/78c19c4d-7edf-43bd-ab2a-5ccf97f214fe'],
      },
    ]);
    const e = get('14').hns.endpoints;
    expect(e).toHaveLength(11);
    expect(e.find((x) => String(x.Name).startsWith('cid-'))).toEqual({
      Name: 'cid-69c0f0e20c3fa8664ea297a06f7c73b205ac053f0928219c333731aa9f7ecd81',
      ID: '391799da-1903-461b-9fb7-8562ab235445',
      VirtualNetworkName: 'vpcbr06684cbed472',
    });
  });
});

describe('Format-List parsing details', () => {
  it('reads records, empty values, nested objects and arrays', () => {
    const r = parseFormatList(
      'A     : 1\nB     :\nC     : @{x=1; y=; z=System.Object[]}\nD     : {a, b}\n\nA     : True\n',
    );
    expect(r.records.map((x) => x.values)).toEqual([
      { A: 1, B: null, C: { x: 1, y: null, z: 'System.Object[]' }, D: ['a', 'b'] },
      { A: true },
    ]);
    expect(r.truncated).toBe(false);
  });

  it('shows what the display format lost', () => {
    expect(parseDisplayValue('{@{a=1}, @{a=2}, @{a=3}, @{a=4}...}', 'P').lossy).toEqual([
      'P (only the first 4 items shown)',
    ]);
  });

  it('the lenient JSON reader keeps complete members and drops the cut one', () => {
    expect(parseJsonLenient('{"a":1,"b":[1,2,{"c":"x"}],"d":"cu')).toEqual({
      value: { a: 1, b: [1, 2, { c: 'x' }] },
      truncated: true,
    });
    expect(parseJsonLenient('[{"a":1},{"b":2}]')).toEqual({
      value: [{ a: 1 }, { b: 2 }],
      truncated: false,
    });
  });
});
