import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCriClient, CriCallError, probeCriEndpoint } from './client';
import {
  makeStaleSocket,
  startGrpcCriServer,
  startHangingServer,
  startUnknownServiceServer,
  type FakeRuntime,
  type FakeServer,
} from './fake-cri-server';

// Every call a probe makes, with the deadline it carried (the real channel underneath).
const calls = vi.hoisted(() => [] as { method: string; deadline: number }[]);
vi.mock('./channel', async (importOriginal) => {
  const real = await importOriginal<typeof import('./channel')>();
  return {
    ...real,
    openCriChannel: (endpoint: string): import('./channel').CriChannel => {
      const channel = real.openCriChannel(endpoint);
      return {
        call: (api, method, request, deadline) => {
          calls.push({ method, deadline: deadline.getTime() });
          return channel.call(api, method, request, deadline);
        },
        callMethod: (def, request, deadline) => {
          calls.push({ method: def.path, deadline: deadline.getTime() });
          return channel.callMethod(def, request, deadline);
        },
        close: () => channel.close(),
      };
    },
  };
});

let dir: string;
let servers: FakeServer[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cri-test-'));
  servers = [];
  calls.length = 0;
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const containerdLike = (apiVersion: string): FakeRuntime => ({
  Version: () => ({
    version: '0.1.0',
    runtimeName: 'containerd',
    runtimeVersion: '1.6.20',
    runtimeApiVersion: apiVersion,
  }),
  Status: (req) => ({
    status: {
      conditions: [
        { type: 'RuntimeReady', status: true, reason: '', message: '' },
        {
          type: 'NetworkReady',
          status: false,
          reason: 'NetworkPluginNotReady',
          message: 'Network plugin returns error: cni plugin not initialized',
        },
      ],
    },
    // Real runtimes only fill `info` when asked for verbose output.
    info:
      'verbose' in req && req.verbose === true
        ? {
            lastCNILoadStatus: 'cni config load failed: no network config found in /etc/cni/net.d',
            golang: '"go1.19.8"',
          }
        : {},
  }),
  ListPodSandbox: () => ({
    items: [
      {
        id: 'abc123',
        metadata: { name: 'coredns-1', uid: 'u1', namespace: 'kube-system', attempt: 0 },
        state: 'SANDBOX_NOTREADY',
        createdAt: '1764666000123456789',
      },
    ],
  }),
});

describe('probeCriEndpoint', () => {
  it('decodes Version and verbose Status from a runtime.v1 server', async () => {
    const sock = join(dir, 'v1.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }));
    const entry = await probeCriEndpoint(`unix://${sock}`, { listSandboxes: true });
    expect(entry).toEqual({
      endpoint: `unix://${sock}`,
      api: 'runtime.v1',
      version: {
        version: '0.1.0',
        runtimeName: 'containerd',
        runtimeVersion: '1.6.20',
        runtimeApiVersion: 'v1',
      },
      status: {
        conditions: [
          { type: 'RuntimeReady', status: true, reason: '', message: '' },
          {
            type: 'NetworkReady',
            status: false,
            reason: 'NetworkPluginNotReady',
            message: 'Network plugin returns error: cni plugin not initialized',
          },
        ],
        info: {
          lastCNILoadStatus: 'cni config load failed: no network config found in /etc/cni/net.d',
          golang: '"go1.19.8"',
        },
      },
      sandboxes: [
        {
          id: 'abc123',
          name: 'coredns-1',
          namespace: 'kube-system',
          state: 'SANDBOX_NOTREADY',
          createdAt: '2025-12-02T09:00:00.123Z',
        },
      ],
      error: null,
    });
  });

  it('accepts a bare socket path and leaves sandboxes out unless asked', async () => {
    const sock = join(dir, 'bare.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }));
    const entry = await probeCriEndpoint(sock);
    expect(entry.api).toBe('runtime.v1');
    expect(entry.error).toBeNull();
    expect(entry).not.toHaveProperty('sandboxes');
  });

  it('falls back to runtime.v1alpha2 when v1 is unimplemented', async () => {
    const sock = join(dir, 'alpha.sock');
    servers.push(
      await startGrpcCriServer(sock, { 'runtime.v1alpha2': containerdLike('v1alpha2') }),
    );
    const entry = await probeCriEndpoint(`unix://${sock}`, { listSandboxes: true });
    expect(entry.api).toBe('runtime.v1alpha2');
    expect(entry.error).toBeNull();
    expect(entry.version?.runtimeApiVersion).toBe('v1alpha2');
    expect(entry.status?.conditions.map((c) => c.type)).toEqual(['RuntimeReady', 'NetworkReady']);
    expect(entry.sandboxes).toHaveLength(1);
  });

  it('reports the v1 error (12, unknown service) when neither package is served', async () => {
    const sock = join(dir, 'nocri.sock');
    servers.push(await startUnknownServiceServer(sock));
    const entry = await probeCriEndpoint(`unix://${sock}`);
    expect(entry).toEqual({
      endpoint: `unix://${sock}`,
      api: null,
      error: { code: 12, message: 'unknown service runtime.v1.RuntimeService' },
    });
  });

  it('keeps Version when only Status fails', async () => {
    const sock = join(dir, 'nostatus.sock');
    const { Version } = containerdLike('v1');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': { Version } }));
    const entry = await probeCriEndpoint(`unix://${sock}`);
    expect(entry.api).toBe('runtime.v1');
    expect(entry.version?.runtimeName).toBe('containerd');
    expect(entry.status).toBeUndefined();
    expect(entry.error?.code).toBe(12);
  });

  it('gives up on a hung endpoint within its deadline, for the whole probe', async () => {
    const sock = join(dir, 'hang.sock');
    const hung = await startHangingServer(sock);
    servers.push(hung);
    const before = Date.now();
    const entry = await probeCriEndpoint(`unix://${sock}`, {
      deadlineMs: 600,
      listSandboxes: true,
    });
    // One dial at most (none when a loaded machine let the deadline pass before it).
    expect(hung.connections()).toBeLessThanOrEqual(1);
    // It gave up because the deadline passed (not earlier, for another reason; not never: the
    // test's own timeout is 50 times the deadline), and the deadline was 600 ms from the start.
    expect(entry.api).toBeNull();
    expect([4, 14]).toContain(entry.error?.code);
    expect(entry.error?.message).toMatch(/deadline/i);
    // Status and ListPodSandbox go out with Version, on the same connection and budget.
    expect(calls.map((c) => c.method)).toEqual(['Version', 'Status', 'ListPodSandbox']);
    expect(new Set(calls.map((c) => c.deadline)).size).toBe(1);
    expect(calls[0]!.deadline - before).toBeGreaterThanOrEqual(600);
    expect(calls[0]!.deadline - before).toBeLessThanOrEqual(600 + (Date.now() - before));
  });

  it('gives every call of a probe the same deadline (one budget, not one per call)', async () => {
    const sock = join(dir, 'budget.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }));
    const entry = await probeCriEndpoint(`unix://${sock}`, {
      deadlineMs: 600,
      listSandboxes: true,
    });
    expect(entry.api).toBe('runtime.v1');
    expect(calls.map((c) => c.method)).toEqual(['Version', 'Status', 'ListPodSandbox']);
    expect(new Set(calls.map((c) => c.deadline)).size).toBe(1);
  });

  it('reports 14 for a stale socket file with nothing listening', async () => {
    const sock = join(dir, 'stale.sock');
    await makeStaleSocket(sock);
    const entry = await probeCriEndpoint(`unix://${sock}`);
    expect(entry.api).toBeNull();
    expect(entry.error?.code).toBe(14);
    expect(entry.error?.message).toContain('ECONNREFUSED');
  });

  it('reports 14 for a regular file where the socket should be', async () => {
    const file = join(dir, 'not-a-socket');
    writeFileSync(file, '');
    const entry = await probeCriEndpoint(file);
    expect(entry.error?.code).toBe(14);
  });

  it('reports 14 ENOENT for a missing socket path at once, without waiting for the deadline', async () => {
    // A deadline far beyond the test's own timeout (30 s): waiting for it would fail the test.
    const entry = await probeCriEndpoint(`unix://${join(dir, 'missing.sock')}`, {
      deadlineMs: 600_000,
    });
    expect(entry).toMatchObject({ api: null, error: { code: 14 } });
    expect(entry.error?.message).toContain('ENOENT');
  });

  it('does not dial a named pipe off Windows, and rejects nonsense endpoints', async () => {
    const pipe = await probeCriEndpoint('npipe:////./pipe/containerd-containerd');
    expect(pipe.endpoint).toBe('npipe:////./pipe/containerd-containerd');
    if (process.platform !== 'win32')
      expect(pipe.error).toMatchObject({
        code: 14,
        message: expect.stringMatching(/only be dialed on Windows/),
      });
    const bad = await probeCriEndpoint('containerd.sock');
    expect(bad).toMatchObject({ api: null, error: { code: 3 } });
  });
});

describe('createCriClient', () => {
  it('calls the chosen package and throws CriCallError with the gRPC code', async () => {
    const sock = join(dir, 'client.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }));
    const client = createCriClient(`unix://${sock}`, { deadlineMs: 2000 });
    try {
      expect((await client.version()).runtimeApiVersion).toBe('v1');
      expect((await client.status(false)).info).toEqual({});
      expect((await client.listPodSandbox())[0]?.id).toBe('abc123');
      const err = await client.podSandboxStatus('abc123').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CriCallError);
      expect(err).toMatchObject({ code: 12, method: 'PodSandboxStatus' });
    } finally {
      client.close();
    }
  });
});

describe('a probe asks Status and ListPodSandbox without waiting for Version', () => {
  it('all three are in flight at once: a runtime that answers Version only after Status came answers the probe', async () => {
    const { Server, ServerCredentials } = await import('@grpc/grpc-js');
    const { criRuntimeService } = await import('./proto/load');
    const sock = join(dir, 'together.sock');
    let statusCame: () => void = () => undefined;
    const status = new Promise<void>((r) => (statusCame = r));
    const server = new Server();
    const v1 = containerdLike('v1');
    type Reply = (err: null, value: object) => void;
    server.addService(criRuntimeService('runtime.v1'), {
      // Sequential probes never send Status before Version's answer: this would hang them.
      Version: (call: { request: object }, reply: Reply) =>
        void status.then(() => reply(null, v1.Version?.(call.request) ?? {})),
      Status: (call: { request: object }, reply: Reply) => {
        statusCame();
        reply(null, v1.Status?.(call.request) ?? {});
      },
      ListPodSandbox: (call: { request: object }, reply: Reply) =>
        reply(null, v1.ListPodSandbox?.(call.request) ?? {}),
    });
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`unix:${sock}`, ServerCredentials.createInsecure(), (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    servers.push({ socket: sock, close: () => new Promise((r) => server.tryShutdown(() => r())) });
    const entry = await probeCriEndpoint(`unix://${sock}`, {
      deadlineMs: 5000,
      listSandboxes: true,
    });
    expect(entry.error).toBeNull();
    expect(entry.api).toBe('runtime.v1');
    expect(entry.sandboxes?.length).toBe(1);
  });
});

describe("containerd's own Version service, asked beside CRI (a remote scan's runtime version)", () => {
  const daemon = { version: '1.6.20~ds1', revision: '1.6.20~ds1-1+deb12u3' };

  it('is in the entry, asked in the same trip as CRI (in flight with Version)', async () => {
    const sock = join(dir, 'both.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }, daemon));
    const entry = await probeCriEndpoint(`unix://${sock}`, { containerdVersion: true });
    expect(entry.containerdVersion).toEqual(daemon);
    expect(entry.version?.runtimeVersion).toBe('1.6.20');
    expect(calls.map((c) => c.method).slice(0, 2)).toEqual([
      '/containerd.services.version.v1.Version/Version',
      'Version',
    ]);
  });

  it('answers with the CRI plugin disabled: CRI fails (12), the version is still there', async () => {
    const sock = join(dir, 'nocri.sock');
    servers.push(await startGrpcCriServer(sock, {}, daemon));
    const entry = await probeCriEndpoint(`unix://${sock}`, { containerdVersion: true });
    expect(entry.api).toBeNull();
    expect(entry.error?.code).toBe(12);
    expect(entry.containerdVersion).toEqual(daemon);
  });

  it('is left out where the socket does not serve it (CRI-O), and the CRI answer is whole', async () => {
    const sock = join(dir, 'crio.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }));
    const entry = await probeCriEndpoint(`unix://${sock}`, { containerdVersion: true });
    expect(entry).not.toHaveProperty('containerdVersion');
    expect(entry.error).toBeNull();
    expect(entry.status?.conditions.length).toBe(2);
  });

  it('is not asked unless wanted', async () => {
    const sock = join(dir, 'plain.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': containerdLike('v1') }, daemon));
    const entry = await probeCriEndpoint(`unix://${sock}`);
    expect(entry).not.toHaveProperty('containerdVersion');
    expect(calls.some((c) => c.method.includes('containerd'))).toBe(false);
  });
});
