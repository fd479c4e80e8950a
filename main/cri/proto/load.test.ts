// The definitions built by load.ts must turn CRI bytes into the very objects (and requests into
// the very bytes) @grpc/proto-loader 0.8 produced with the same options: the wire bytes and the
// objects below were recorded from proto-loader's loadSync of runtime-v1.proto before load.ts
// stopped using it. Key order included: the objects are compared as JSON text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { criRuntimeService } from './load';

const v1 = criRuntimeService('runtime.v1');
const decode = (method: string, hex: string): object => {
  const def = v1[method];
  if (!def) throw new Error(`no ${method}`);
  return def.responseDeserialize(Buffer.from(hex, 'hex')) as object;
};
const encode = (method: string, request: object): string => {
  const def = v1[method];
  if (!def) throw new Error(`no ${method}`);
  return def.requestSerialize(request).toString('hex');
};
/** Same keys in the same order, same values, same types (JSON text), and a deep equality. */
const expectSameObject = (actual: object, expected: object): void => {
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  expect(actual).toStrictEqual(expected);
};

describe('CRI answers decode to the objects proto-loader produced', () => {
  it('ListPodSandbox: int64 created_at as a decimal string, enums by name, defaults filled', () => {
    const list =
      '0a370a017812140a03776562120275311a0764656661756c74200218012095dac5a48accd6be182a0a0a' +
      '0361707012037765623a0472756e630a00';
    expectSameObject(decode('ListPodSandbox', list), {
      items: [
        {
          labels: { app: 'web' },
          annotations: {},
          id: 'x',
          metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 2 },
          state: 'SANDBOX_NOTREADY',
          createdAt: '1764666000123456789',
          runtimeHandler: 'runc',
        },
        // An item with no field set: every default, message fields null.
        {
          labels: {},
          annotations: {},
          id: '',
          metadata: null,
          state: 'SANDBOX_READY',
          createdAt: '0',
          runtimeHandler: '',
        },
      ],
    });
  });

  it('Status: conditions with defaults, the info map, an undeclared field skipped', () => {
    // Ends with field 3 (runtime_handlers, cri-api v0.30+), which the subset does not declare.
    const status =
      '0a550a410a0c4e6574776f726b526561647910001a154e6574776f726b506c7567696e4e6f74526561' +
      '64792218636e6920636f6e66696720756e696e697469616c697a65640a100a0c52756e74696d6552' +
      '656164791001120c0a06636f6e66696712027b7d1a020a00';
    expectSameObject(decode('Status', status), {
      info: { config: '{}' },
      status: {
        conditions: [
          {
            type: 'NetworkReady',
            status: false,
            reason: 'NetworkPluginNotReady',
            message: 'cni config uninitialized',
          },
          { type: 'RuntimeReady', status: true, reason: '', message: '' },
        ],
      },
    });
  });

  it('PodSandboxStatus: 2^53+1 stays exact, nested enums by name, repeated messages', () => {
    const pss =
      '0a300a017018002081808080808080102a160a0931302e38382e302e3512090a07666430303a3a353208' +
      '0a06120408021001';
    expectSameObject(decode('PodSandboxStatus', pss), {
      info: {},
      status: {
        labels: {},
        annotations: {},
        id: 'p',
        metadata: null,
        state: 'SANDBOX_READY',
        createdAt: '9007199254740993',
        network: { additionalIps: [{ ip: 'fd00::5' }], ip: '10.88.0.5' },
        linux: {
          namespaces: {
            options: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD', targetId: '' },
          },
        },
        runtimeHandler: '',
      },
    });
  });

  it('Version: an empty answer is every field at its default', () => {
    expectSameObject(decode('Version', ''), {
      version: '',
      runtimeName: '',
      runtimeVersion: '',
      runtimeApiVersion: '',
    });
  });
});

describe('CRI requests encode to the bytes proto-loader produced', () => {
  it('RunPodSandbox: camelCase fields, enum names, int64 strings, packed repeated int64', () => {
    const request = {
      config: {
        metadata: { name: 'probe', uid: 'u', namespace: 'ns', attempt: 1 },
        hostname: 'h',
        logDirectory: '/var/log/pods/x',
        dnsConfig: { servers: ['1.1.1.1'] },
        portMappings: [{ protocol: 'UDP', containerPort: 53 }],
        labels: { a: 'b' },
        linux: {
          cgroupParent: 'k',
          securityContext: {
            namespaceOptions: { network: 'NODE' },
            runAsUser: { value: '0' },
            supplementalGroups: ['1000', 2000],
            privileged: true,
          },
          sysctls: { 'net.ipv4.ip_forward': '1' },
        },
      },
      runtimeHandler: 'runc',
    };
    expect(encode('RunPodSandbox', request)).toBe(
      '0a700a100a0570726f62651201751a026e7320011201681a0f2f7661722f6c6f672f706f64732f782209' +
        '0a07312e312e312e312a040801103532060a0161120162422f0a016b12100a0208021a0208002a04e807' +
        'd00f30011a180a136e65742e697076342e69705f666f7277617264120131120472756e63',
    );
    expect(encode('Status', { verbose: true })).toBe('0801');
  });

  it('refuses an array where a message belongs, in proto-loader words', () => {
    expect(() => encode('Status', [])).toThrow(
      'Failed to serialize message: expected object with StatusRequest structure, got array instead',
    );
  });
});

describe('which CRI package is built', () => {
  const savedTmp = process.env.TMPDIR;
  let dir: string | undefined;
  afterEach(() => {
    vi.restoreAllMocks();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('builds runtime.v1alpha2 only for a runtime that does not serve runtime.v1', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cri-load-test-'));
    const parse = vi.spyOn(protobuf, 'parse');
    const built = (): (string | undefined)[] =>
      parse.mock.calls.map(([text]) => /^package (\S+);$/m.exec(text)?.[1]);
    const { startGrpcCriServer } = await import('../fake-cri-server');
    const runtime = {
      Version: () => ({ version: '0.1.0', runtimeName: 'containerd', runtimeApiVersion: 'v1' }),
      Status: () => ({ status: { conditions: [] } }),
      ListPodSandbox: () => ({ items: [] }),
    };
    const servers = [
      await startGrpcCriServer(join(dir, 'v1.sock'), { 'runtime.v1': runtime }),
      await startGrpcCriServer(join(dir, 'alpha.sock'), { 'runtime.v1alpha2': runtime }),
    ];
    try {
      // The servers built their packages in this file's copy of load.ts; the client gets its own
      // copy, with nothing built yet, as in a CLI process.
      parse.mockClear();
      vi.resetModules();
      const { probeCriEndpoint, warmCriDefinitions } = await import('../client');
      warmCriDefinitions();
      const v1 = await probeCriEndpoint(`unix://${join(dir, 'v1.sock')}`, {
        listSandboxes: true,
      });
      expect(v1).toMatchObject({ api: 'runtime.v1', error: null });
      expect(built()).toEqual(['runtime.v1']);

      const alpha = await probeCriEndpoint(`unix://${join(dir, 'alpha.sock')}`);
      expect(alpha).toMatchObject({ api: 'runtime.v1alpha2', error: null });
      expect(built()).toEqual(['runtime.v1', 'runtime.v1alpha2']);
      // Each package once per process, however many probes and channels.
      await probeCriEndpoint(`unix://${join(dir, 'alpha.sock')}`);
      expect(built()).toEqual(['runtime.v1', 'runtime.v1alpha2']);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('needs no temporary folder: an unusable TMPDIR does not matter', async () => {
    process.env.TMPDIR = '/nonexistent/cni-doctor-test-tmp';
    vi.resetModules();
    const fresh = await import('./load');
    const status = fresh.criRuntimeService('runtime.v1').Status;
    expect(status?.path).toBe('/runtime.v1.RuntimeService/Status');
    expect(status?.requestSerialize({ verbose: true }).toString('hex')).toBe('0801');
  });
});
