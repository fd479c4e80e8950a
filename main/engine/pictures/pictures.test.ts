/** The report's pictures on the Windows demo and fixtures, and the lanes' size cap. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { BundleHost } from '../../host/bundle-host';
import { scanHost } from '../scan';
import type { Report } from '../../../shared/model/report';
import { MAX_LANE_ENTRIES } from './lanes';
import { scanMemoryNode } from '../../host/memory-node.testutil';

const repo = (rel: string) => fileURLToPath(new URL(`../../../${rel}`, import.meta.url));

async function scanBundle(rel: string): Promise<Report> {
  const host = await BundleHost.open(repo(rel));
  return (await scanHost(host)).report;
}

const states = (r: Report) => r.windowsChain?.links.map((l) => `${l.id}:${l.state}`);

describe('the Windows chain', () => {
  it('the Antrea demo: the nat config is in the way, the pipe is absent, the agent stopped', async () => {
    const r = await scanBundle('assets/demo/windows-antrea-containerd');
    expect(r.windowsChain?.follows).toBe('10-antrea.conflist');
    expect(states(r)).toEqual([
      'kubelet:warning',
      'runtime:ok',
      'cni-config:broken',
      'cni-plugin:broken',
      'cnisock:broken',
      'agent:broken',
      'hns-network:broken',
      'endpoints:unknown',
    ]);
    expect(r.windowsChain?.brokenAt).toBe('cni-config');
    const link = (id: string) => r.windowsChain?.links.find((l) => l.id === id);
    expect(link('cni-config')?.detail).toMatch(/0-containerd-nat\.json .* is in the way/);
    expect(link('cni-config')?.findingId).toBe('cni.conf.shadowed-by-default#containerd');
    expect(link('agent')).toMatchObject({
      name: 'antrea-agent',
      detail: 'antrea-agent is stopped.',
    });
    expect(link('cnisock')?.findingId).toBe('windows.cnisock.missing');
  });

  it('a healthy flannel node: every link works', async () => {
    const r = await scanBundle('fixtures/windows/healthy-flannel-containerd');
    expect(r.windowsChain?.brokenAt).toBeUndefined();
    expect(r.windowsChain?.links.every((l) => l.state === 'ok')).toBe(true);
    expect(r.windowsChain?.links.map((l) => l.id)).toEqual([
      'kubelet',
      'runtime',
      'cni-config',
      'cni-plugin',
      'agent',
      'hns-network',
      'endpoints',
    ]);
  });

  it('the NAT network missing: the HNS network link is the broken one', async () => {
    const r = await scanBundle('fixtures/windows/nat-network-missing');
    expect(r.windowsChain?.brokenAt).toBe('hns-network');
  });

  it('the plugin binary missing: the plugin link is the broken one', async () => {
    const r = await scanBundle('fixtures/windows/flannel-sdnoverlay-exe-missing');
    expect(r.windowsChain?.brokenAt).toBe('cni-plugin');
  });

  it('no chain on a Linux node', async () => {
    const r = await scanBundle('assets/demo/minikube-conflict');
    expect(r.windowsChain).toBeUndefined();
    expect(r.loadOrder?.[0]?.side.entries.map((e) => e.role)).toContain('in-use');
  });
});

describe('the load-order lanes of a report', () => {
  it('keep the config in use and the first files of a huge conf dir, and count the rest', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++)
      files[`/etc/cni/net.d/${String(i).padStart(3, '0')}-x.conflist.bak`] = 'x';
    files['/etc/cni/net.d/zz-flannel.conflist'] = JSON.stringify({
      cniVersion: '0.3.1',
      name: 'cbr0',
      plugins: [{ type: 'flannel' }],
    });
    files['/etc/containerd/config.toml'] = 'version = 2\n';
    const { report } = await scanMemoryNode({ running: ['containerd'], files });
    const lane = report.loadOrder?.find((l) => l.runtime === 'containerd');
    expect(lane?.side.entries).toHaveLength(MAX_LANE_ENTRIES + 1);
    expect(lane?.side.entries.at(-1)).toMatchObject({
      name: 'zz-flannel.conflist',
      role: 'in-use',
    });
    expect(lane?.omitted).toBe(121 - MAX_LANE_ENTRIES - 1);
  });
});
