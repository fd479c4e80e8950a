import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../../host/memory-node.testutil';

async function check(runtime: 'containerd' | 'crio', name: string, conf: string, body: object) {
  const scan = await scanMemoryNode({
    running: [runtime],
    files: {
      [`/etc/cni/net.d/${name}`]: JSON.stringify(body),
      ...(runtime === 'containerd'
        ? { '/etc/containerd/config.toml': 'version = 2\n' }
        : { '/etc/crio/crio.conf': `[crio.network]\n${conf}` }),
    },
    paths: {
      '/etc/cni/net.d': { type: 'dir', entries: [name] },
      '/opt/cni/bin': { type: 'dir', entries: ['bridge', 'loopback', 'host-local'] },
    },
  });
  const check = scan.report.checks.find((c) => c.rule === 'cni.network.add-refused');
  const findings = scan.report.findings.filter((f) => f.rule === 'cni.network.add-refused');
  return { status: check?.status, findings };
}

describe('cni.network.add-refused', () => {
  it('fires when the network in use has characters libcni refuses', async () => {
    const c = await check('containerd', '10-a.conflist', '', {
      cniVersion: '1.0.0',
      name: 'pod net',
      plugins: [{ type: 'bridge' }],
    });
    expect(c.status).toBe('fail');
    expect(c.findings[0]?.title).toMatch(/invalid characters found in network name/);
  });

  it('fires on containerd for a nameless .conf (the legacy loopback config)', async () => {
    const c = await check('containerd', '200-loopback.conf', '', {
      cniVersion: '0.3.1',
      type: 'loopback',
    });
    expect(c.status).toBe('fail');
    expect(c.findings[0]?.title).toMatch(/missing network name/);
  });

  it('passes on CRI-O for the same file: ocicni names it after the file', async () => {
    const c = await check('crio', '200-loopback.conf', '', {
      cniVersion: '0.3.1',
      type: 'loopback',
    });
    expect(c.status).toBe('pass');
  });

  it('passes for a plain name', async () => {
    const c = await check('containerd', '10-a.conflist', '', {
      cniVersion: '1.0.0',
      name: 'k8s-pod-network',
      plugins: [{ type: 'bridge' }],
    });
    expect(c.status).toBe('pass');
  });
});
