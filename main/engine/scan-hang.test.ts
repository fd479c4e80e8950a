// A CRI endpoint that accepts and never answers costs the scan at most the CRI deadline, and the
// report says so (cri.endpoint.unreachable, code 4) instead of the scan hanging.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHangingServer } from '../cri/fake-cri-server';
import { BundleHost } from '../host/bundle-host';
import { LinuxHost } from '../host/linux-host';
import type { Host } from '../host/host';
import { scanHost } from './scan';

/** A recorded node whose CRI questions go to a real socket on this machine. */
function withLiveCri(bundle: Host, cri: LinuxHost, asked: string[][]): Host {
  return new Proxy(bundle, {
    get(target, prop, receiver) {
      if (prop === 'cri')
        return (eps: readonly string[]) => {
          asked.push([...eps]);
          return cri.cri(eps);
        };
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('a hanging CRI endpoint', () => {
  it('costs at most the deadline and is reported as unreachable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cnd-hang-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const socket = join(dir, 'hung.sock');
    const server = await startHangingServer(socket);
    cleanup.push(() => server.close());

    // A minimal node: a kubelet dialing the hung socket, containerd listening there.
    const bundle = join(dir, 'bundle');
    mkdirSync(join(bundle, 'files/etc/containerd'), { recursive: true });
    writeFileSync(
      join(bundle, 'files/etc/containerd/config.toml'),
      `version = 2\n[grpc]\n  address = "${socket}"\n`,
    );
    writeFileSync(
      join(bundle, 'manifest.json'),
      JSON.stringify({
        format: 'cni-doctor.bundle/v1',
        host: { os: 'linux', hostname: 'hung' },
        processes: [
          {
            name: 'kubelet',
            pid: 10,
            args: ['/usr/bin/kubelet', `--container-runtime-endpoint=unix://${socket}`],
          },
        ],
        paths: { [socket]: { type: 'socket' }, '/etc/cni/net.d': { type: 'dir', entries: [] } },
      }),
    );
    const deadlineMs = 600;
    const asked: string[][] = [];
    const host = withLiveCri(
      await BundleHost.open(bundle),
      new LinuxHost({ criDeadlineMs: deadlineMs }),
      asked,
    );

    // No clock: a hang fails the test by its own timeout (30 s, 50 deadlines); the work is
    // counted instead — the endpoint is asked once, on at most one connection, and the deadline
    // ends it.
    const { report } = await scanHost(host);

    const f = report.findings.find((x) => x.rule === 'cri.endpoint.unreachable');
    expect(f?.title).toContain('timed out');
    expect(JSON.stringify(f?.evidence)).toContain('code 4');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`unix://${socket}`);
    // At most one connection (none when the machine is so loaded that the deadline passed
    // before the dial): a probe is never retried behind the deadline's back.
    expect(server.connections()).toBeLessThanOrEqual(1);
  });
});
