import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../host/bundle-host';
import { scanHost } from '../engine/scan';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function bundle(files: Record<string, string>, manifest: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kubelet-probe-'));
  dirs.push(dir);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.join(dir, 'files', path.dirname(p)), { recursive: true });
    writeFileSync(path.join(dir, 'files', p), text);
  }
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ format: 'cni-doctor.bundle/v1', host: { os: 'linux' }, ...manifest }),
  );
  return dir;
}

describe('probeKubelet', () => {
  it('keeps the KubeletConfiguration text so a finding can quote its cgroupDriver line', async () => {
    const dir = bundle(
      {
        'var/lib/kubelet/config.yaml':
          'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n',
        'etc/containerd/config.toml': 'version = 2\n',
      },
      {
        processes: [
          { name: 'containerd', args: ['/usr/bin/containerd'] },
          {
            name: 'kubelet',
            args: [
              '/usr/bin/kubelet',
              '--config=/var/lib/kubelet/config.yaml',
              '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
            ],
          },
        ],
        versions: { kubelet: 'v1.29.4', containerd: '1.7.20' },
      },
    );
    const { snapshot, report } = await scanHost(await BundleHost.open(dir), { skipCri: true });
    expect(snapshot.kubelet.known && snapshot.kubelet.value?.files.map((f) => f.path)).toContain(
      '/var/lib/kubelet/config.yaml',
    );
    const f = report.findings.find((x) => x.rule === 'kubelet.cgroup-driver.mismatch');
    const quoted = f?.evidence.find(
      (e) => e.kind === 'file' && e.path === '/var/lib/kubelet/config.yaml',
    );
    expect(quoted?.kind === 'file' && quoted.lines.find((l) => l.highlight)?.text).toBe(
      'cgroupDriver: systemd',
    );
  });
});
