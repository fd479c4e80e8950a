import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../../host/bundle-host';
import { scanHost } from '../../engine/scan';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** containerd and cri-dockerd sockets present, crictl on containerd, the kubelet dialling `kubeletEp`. */
async function scan(kubeletEp: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'crictl-target-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'files/etc/containerd'), { recursive: true });
  writeFileSync(path.join(dir, 'files/etc/containerd/config.toml'), 'version = 2\n');
  writeFileSync(
    path.join(dir, 'files/etc/crictl.yaml'),
    'runtime-endpoint: unix:///run/containerd/containerd.sock\n',
  );
  const manifest = {
    format: 'cni-doctor.bundle/v1',
    host: { os: 'linux' },
    processes: [
      { name: 'containerd', args: ['/usr/bin/containerd'] },
      { name: 'kubelet', args: ['/usr/bin/kubelet', `--container-runtime-endpoint=${kubeletEp}`] },
    ],
    paths: {
      '/run/containerd/containerd.sock': { type: 'socket' },
      '/var/run/cri-dockerd.sock': { type: 'socket' },
      '/var/run/dockershim.sock': { type: 'missing' },
      '/var/run/crio/crio.sock': { type: 'missing' },
    },
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const { report } = await scanHost(await BundleHost.open(dir), { skipCri: true });
  const repairs = (rule: string): string[] =>
    report.findings.filter((f) => f.rule === rule).flatMap((f) => f.repairs.map((r) => r.title));
  return {
    crictl: repairs('cri.crictl.mismatch'),
    multiple: repairs('cri.socket.multiple'),
    missing: report.findings.some((f) => f.rule === 'cri.endpoint.missing'),
  };
}

describe('repairs that write crictl.yaml', () => {
  it("point crictl at the kubelet's endpoint when it exists", async () => {
    expect(await scan('unix:///var/run/cri-dockerd.sock')).toEqual({
      crictl: ['Point crictl at unix:///var/run/cri-dockerd.sock'],
      multiple: ['Write crictl.yaml pointing at unix:///var/run/cri-dockerd.sock'],
      missing: false,
    });
  });

  // A kubelet left on dockershim after the upgrade: crictl must not follow it to a dead socket.
  it('are not offered when the kubelet dials a socket that does not exist', async () => {
    expect(await scan('unix:///var/run/dockershim.sock')).toEqual({
      crictl: [],
      multiple: [],
      missing: true,
    });
  });
});
