import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../../host/memory-node.testutil';

const FLANNEL = JSON.stringify({
  name: 'cbr0',
  cniVersion: '0.3.1',
  plugins: [{ type: 'flannel' }, { type: 'portmap' }],
});
const CNI_RULES = [
  'cni.conf.none',
  'cni.conf.invalid',
  'cni.conf.multiple',
  'cni.conf.shadowed-by-default',
  'cni.plugin.missing',
  'cni.dir.mismatch',
];

/** containerd with /etc/cni/net.d = a valid flannel config plus `unreadable` (recorded with EACCES). */
async function statuses(
  runtime: 'containerd' | 'crio',
  unreadable: string,
  extraConf = '',
): Promise<Record<string, string | undefined>> {
  const scan = await scanMemoryNode({
    running: [runtime],
    files: {
      '/etc/cni/net.d/10-flannel.conflist': FLANNEL,
      ...(runtime === 'containerd'
        ? { '/etc/containerd/config.toml': 'version = 2\n' }
        : { '/etc/crio/crio.conf': `[crio.network]\n${extraConf}` }),
    },
    paths: {
      '/etc/cni/net.d': { type: 'dir', entries: ['10-flannel.conflist', unreadable] },
      [`/etc/cni/net.d/${unreadable}`]: { type: 'file', error: 'EACCES' },
      '/opt/cni/bin': { type: 'dir', entries: ['flannel', 'portmap', 'bridge'] },
    },
  });
  return Object.fromEntries(
    scan.report.checks
      .filter((c) => CNI_RULES.includes(c.rule) || c.rule.startsWith('crio.'))
      .map((c) => [c.rule, c.status]),
  );
}

describe('CNI checks with an unreadable config', () => {
  // rules.md: a check never reports pass when it could not look.
  it('are unknown when containerd reads the unreadable file before its in-use config', async () => {
    const s = await statuses('containerd', '00-first.conflist');
    expect(Object.fromEntries(CNI_RULES.map((r) => [r, s[r]]))).toEqual(
      Object.fromEntries(CNI_RULES.map((r) => [r, 'unknown'])),
    );
  });

  it('are decided when the unreadable file sorts after the config containerd uses', async () => {
    const s = await statuses('containerd', '99-last.conflist');
    expect(s['cni.conf.none']).toBe('pass');
    expect(s['cni.conf.shadowed-by-default']).toBe('pass');
  });

  it("leave CRI-O's default network unknown when an unreadable file could define it", async () => {
    const s = await statuses('crio', '99-other.conflist', 'cni_default_network = "kindnet"\n');
    expect(s['crio.network.default-missing']).toBe('unknown');
    expect(s['cni.conf.none']).toBe('unknown');
  });
});

describe('CNI checks on a node whose kubelet uses cri-dockerd', () => {
  it('are not-applicable, and say the kubelet uses another runtime (containerd is installed)', async () => {
    const scan = await scanMemoryNode({
      running: ['containerd'],
      files: { '/etc/containerd/config.toml': 'disabled_plugins = ["cri"]\n' },
      processes: [
        {
          name: 'kubelet',
          args: [
            '/usr/bin/kubelet',
            '--container-runtime-endpoint=unix:///var/run/cri-dockerd.sock',
          ],
        },
      ],
    });
    expect(scan.check('cni.conf.none')).toMatchObject({
      status: 'not-applicable',
      reason: 'the kubelet uses unix:///var/run/cri-dockerd.sock, not containerd',
    });
  });
});
