import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../host/bundle-host';
import { scanHost } from '../engine/scan';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('probeCrictl', () => {
  it("keeps crictl.yaml's text so cri.crictl.mismatch quotes its runtime-endpoint line", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'crictl-probe-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'files/etc'), { recursive: true });
    writeFileSync(
      path.join(dir, 'files/etc/crictl.yaml'),
      'runtime-endpoint: unix:///var/run/crio/crio.sock\ntimeout: 2\n',
    );
    const manifest = {
      format: 'cni-doctor.bundle/v1',
      host: { os: 'linux' },
      processes: [
        {
          name: 'kubelet',
          args: [
            '/usr/bin/kubelet',
            '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
          ],
        },
      ],
    };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const { report } = await scanHost(await BundleHost.open(dir), { skipCri: true });
    const f = report.findings.find((x) => x.rule === 'cri.crictl.mismatch');
    const quoted = f?.evidence.find((e) => e.kind === 'file' && e.path === '/etc/crictl.yaml');
    expect(quoted?.kind === 'file' && quoted.lines.find((l) => l.highlight)?.text).toBe(
      'runtime-endpoint: unix:///var/run/crio/crio.sock',
    );
  });
});
