import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../host/memory-node.testutil';

const FLANNEL = JSON.stringify({
  name: 'cbr0',
  cniVersion: '0.3.1',
  plugins: [{ type: 'flannel' }, { type: 'portmap' }],
});

/** A bundle whose first conf dir entry is a recorded symlink (followed type + target). */
async function scanWith(first: string, entry: { type: 'dir' | 'missing'; target: string }) {
  const scan = await scanMemoryNode({
    running: ['containerd'],
    versions: { containerd: 'v1.7.27' },
    files: {
      '/etc/containerd/config.toml': 'version = 2\n',
      '/etc/cni/net.d/10-flannel.conflist': FLANNEL,
    },
    paths: {
      '/etc/cni/net.d': { type: 'dir', entries: [first, '10-flannel.conflist'] },
      [`/etc/cni/net.d/${first}`]: entry,
      '/opt/cni/bin': { type: 'dir', entries: ['flannel', 'portmap', 'loopback'] },
    },
  });
  return {
    invalid: scan.report.checks.find((c) => c.rule === 'cni.conf.invalid')?.status,
    inUse: scan.report.summary?.cniInUse?.file,
  };
}

describe('links first in a bundle conf dir, as libcni lists and reads them', () => {
  it('a symlink to a folder is listed and fails to read: containerd loads nothing', async () => {
    expect(await scanWith('05-dir.conflist', { type: 'dir', target: '../shared' })).toEqual({
      invalid: 'fail',
      inUse: undefined,
    });
  });

  it('a dangling symlink first is a certain failure, not unknown', async () => {
    expect(await scanWith('05-gone.conflist', { type: 'missing', target: 'nowhere' })).toEqual({
      invalid: 'fail',
      inUse: undefined,
    });
  });
});
