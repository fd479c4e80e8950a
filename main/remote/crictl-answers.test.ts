import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentSession } from './agent-session';
import { crictlEntry } from './crictl-answers';
import { LocalShellTransport } from './testing/local-transport';

// No cri-tools package exists for these machines, so the node's crictl is a stand-in printing
// what crictl prints (cri-tools: `version` as "Key:  value" lines, `info -o json` as the verbose
// Status re-indented, `pods -o json` in protobuf JSON); the agent that runs it is the real one.
const INFO = {
  status: {
    conditions: [
      { type: 'RuntimeReady', status: true },
      {
        type: 'NetworkReady',
        reason: 'NetworkPluginNotReady',
        message: 'Network plugin returns error: cni plugin not initialized',
      },
    ],
  },
  config: { cni: { confDir: '/etc/cni/net.d', binDir: '/opt/cni/bin' }, enableCDI: false },
  lastCNILoadStatus: 'cni config load failed: no network config found in /etc/cni/net.d',
};
const PODS = {
  items: [
    {
      id: 'abc123',
      metadata: { name: 'coredns-1', uid: 'u1', namespace: 'kube-system', attempt: 0 },
      state: 'SANDBOX_NOTREADY',
      createdAt: '1700000000123456789',
    },
  ],
};

let dir: string;
let path: string | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cnd-crictl-'));
  writeFileSync(join(dir, 'info.json'), JSON.stringify(INFO, null, 2));
  writeFileSync(join(dir, 'pods.json'), JSON.stringify(PODS, null, 2));
  writeFileSync(
    join(dir, 'crictl'),
    `#!/bin/sh
ep=$2
case "$ep" in unix:///run/disabled.sock)
  echo 'time="x" level=fatal msg="getting status of runtime: rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService"' >&2; exit 1 ;;
esac
case "$5" in
  version) printf 'Version:  0.1.0\\nRuntimeName:  containerd\\nRuntimeVersion:  v1.7.13\\nRuntimeApiVersion:  v1\\n' ;;
  info) echo 'WARN[0000] image connect using default endpoints' >&2; cat ${JSON.stringify(join(dir, 'info.json'))} ;;
  pods) cat ${JSON.stringify(join(dir, 'pods.json'))} ;;
esac
`,
  );
  chmodSync(join(dir, 'crictl'), 0o755);
  path = process.env.PATH;
  process.env.PATH = `${path ?? ''}:${dir}`;
});
afterAll(() => {
  process.env.PATH = path;
  rmSync(dir, { recursive: true, force: true });
});

describe("CRI answers through the node's crictl", () => {
  it('become the entry a gRPC probe makes: version, conditions, info values, sandboxes', async () => {
    const s = new AgentSession(new LocalShellTransport());
    try {
      const a = await s.ask({ op: 'crictl', endpoint: 'unix:///run/containerd/containerd.sock' });
      expect(a.names[0]).toBe(join(dir, 'crictl'));
      const e = crictlEntry('unix:///run/containerd/containerd.sock', a);
      expect(e).toMatchObject({
        endpoint: 'unix:///run/containerd/containerd.sock',
        api: 'runtime.v1',
        version: { runtimeName: 'containerd', runtimeVersion: 'v1.7.13', runtimeApiVersion: 'v1' },
        error: null,
        sandboxes: [
          {
            id: 'abc123',
            name: 'coredns-1',
            namespace: 'kube-system',
            state: 'SANDBOX_NOTREADY',
            createdAt: '2023-11-14T22:13:20.123Z',
          },
        ],
      });
      expect(e.status?.conditions).toEqual([
        { type: 'RuntimeReady', status: true, reason: '', message: '' },
        {
          type: 'NetworkReady',
          status: false,
          reason: 'NetworkPluginNotReady',
          message: 'Network plugin returns error: cni plugin not initialized',
        },
      ]);
      // The info values are JSON text again, parsing to what the runtime sent.
      expect(JSON.parse(e.status?.info.config ?? '')).toEqual(INFO.config);
      expect(JSON.parse(e.status?.info.lastCNILoadStatus ?? '')).toBe(INFO.lastCNILoadStatus);
    } finally {
      await s.close();
    }
  });

  it("keeps crictl's gRPC error code (CRI disabled: Unimplemented) and refuses odd endpoints", async () => {
    const s = new AgentSession(new LocalShellTransport());
    try {
      const a = await s.ask({ op: 'crictl', endpoint: 'unix:///run/disabled.sock' });
      const e = crictlEntry('unix:///run/disabled.sock', a);
      expect(e.api).toBeNull();
      expect(e.error?.code).toBe(12);
      expect(e.error?.message).toContain('unknown service runtime.v1.RuntimeService');
      await expect(s.ask({ op: 'crictl', endpoint: 'unix:///x y' })).rejects.toThrow(/plain/);
      await expect(s.ask({ op: 'crictl', endpoint: 'tcp://1.2.3.4:1' })).rejects.toThrow(/plain/);
    } finally {
      await s.close();
    }
  });
});
