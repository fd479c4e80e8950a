import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../host/bundle-host';
import { ProbeContext } from './context';
import { probeLogs } from './logs';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('probeLogs', () => {
  it("scans cri-dockerd's journal, where its own fatal errors end up", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logs-probe-'));
    dirs.push(dir);
    const rel = 'var/log/cni-doctor-journal/cri-docker.log';
    mkdirSync(path.join(dir, 'files', path.dirname(rel)), { recursive: true });
    // docs/knowledge/log-signatures-linux.md#linux-44: cri-dockerd exits when --network-plugin names a CNI instead of `cni`.
    writeFileSync(
      path.join(dir, 'files', rel),
      '2024-05-02T09:14:03+0000 node-1 cri-dockerd[958]: time="2024-05-02T09:14:03Z" level=fatal msg="didn\'t find compatible CNI plugin with given settings &{HairpinMode:none NonMasqueradeCIDR:10.0.0.0/8 PluginName:calico}"\n',
    );
    const manifest = {
      format: 'cni-doctor.bundle/v1',
      host: { os: 'linux' },
      logs: [{ source: 'journald:cri-docker', path: `/${rel}` }],
    };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const logs = await probeLogs(new ProbeContext(await BundleHost.open(dir)));
    expect(logs.sources).toContainEqual(
      expect.objectContaining({ path: 'journald:cri-docker', state: 'scanned' }),
    );
    expect(logs.matches.map((m) => m.signatureId)).toContain(
      'linux.cri-dockerd.network-plugin-name',
    );
  });

  it('says line numbers count from the tail when only the last 64 MiB of a bigger log was read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logs-probe-'));
    dirs.push(dir);
    const bad =
      'time="2026-12-01T10:00:01Z" level=error msg="RunPodSandbox failed" error="failed to setup network for sandbox \\"abc\\": plugin type=\\"flannel\\" failed (add): failed to find plugin \\"flannel\\" in path [/opt/cni/bin]"\n';
    const tail = `partial line from the middle of the file\n${bad}`;
    for (const name of ['containerd.log', 'kubelet.log']) {
      mkdirSync(path.join(dir, 'files/var/log'), { recursive: true });
      writeFileSync(path.join(dir, 'files/var/log', name), tail);
    }
    const manifest = {
      format: 'cni-doctor.bundle/v1',
      host: { os: 'linux' },
      paths: {
        // What collect records for a 1 GiB log: its size, and the tail it kept.
        '/var/log/containerd.log': { type: 'file', size: 1024 * 1048576, truncated: true },
        '/var/log/kubelet.log': { type: 'file', size: Buffer.byteLength(tail) },
      },
    };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const logs = await probeLogs(new ProbeContext(await BundleHost.open(dir)));
    const at = (p: string) => logs.matches.filter((m) => m.path === p);
    expect(at('/var/log/containerd.log').length).toBeGreaterThan(0);
    for (const m of at('/var/log/containerd.log'))
      expect(m).toMatchObject({ line: 2, tailBytes: 64 * 1048576 });
    expect(at('/var/log/kubelet.log').length).toBeGreaterThan(0);
    for (const m of at('/var/log/kubelet.log')) expect(m.tailBytes).toBeUndefined();
  });
});
