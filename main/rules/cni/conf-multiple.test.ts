import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../../host/bundle-host';
import { scanHost } from '../../engine/scan';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const net = (name: string, type: string): string =>
  JSON.stringify({ cniVersion: '1.0.0', name, plugins: [{ type }] });

async function multiple(conf: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'conf-multiple-'));
  dirs.push(dir);
  const files = {
    'etc/containerd/config.toml': 'version = 2\n',
    ...Object.fromEntries(Object.entries(conf).map(([n, t]) => [`etc/cni/net.d/${n}`, t])),
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.join(dir, 'files', path.dirname(p)), { recursive: true });
    writeFileSync(path.join(dir, 'files', p), text);
  }
  const manifest = {
    format: 'cni-doctor.bundle/v1',
    host: { os: 'linux' },
    processes: [{ name: 'containerd', args: ['/usr/bin/containerd'] }],
    paths: { '/opt/cni/bin': { type: 'dir', entries: ['bridge', 'calico', 'flannel'] } },
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const { report } = await scanHost(await BundleHost.open(dir), { skipCri: true });
  return report.findings.find((f) => f.rule === 'cni.conf.multiple');
}

describe('cni.conf.multiple repairs', () => {
  it('offers to disable the configs not in use when a cluster config wins', async () => {
    const f = await multiple({
      '10-calico.conflist': net('k8s-pod-network', 'calico'),
      '20-flannel.conflist': net('cbr0', 'flannel'),
    });
    expect(f?.repairs.map((r) => r.title)).toEqual([
      'Disable the 1 config(s) not in use (keep 10-calico.conflist)',
    ]);
  });

  // Keeping the winner here would disable the cluster CNI and cement the default bridge.
  it('offers nothing when a runtime default wins over a cluster config', async () => {
    const f = await multiple({
      '10-containerd-net.conflist': net('containerd-net', 'bridge'),
      '10-flannel.conflist': net('cbr0', 'flannel'),
    });
    expect(f?.repairs).toEqual([]);
    expect(f?.guidance).toMatch(/cni\.conf\.shadowed-by-default/);
  });
});
