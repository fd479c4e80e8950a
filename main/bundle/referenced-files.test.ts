import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/model/snapshot';
import { referencedFiles } from './referenced-files';

/** A snapshot with one conf dir holding these texts (the only part referencedFiles reads). */
function snapshotOf(texts: string[]): Snapshot {
  const entries = texts.map((text, i) => ({ name: `${i}.conflist`, text }));
  return {
    confDirs: [{ path: '/etc/cni/net.d', entries: { known: true, value: entries } }],
  } as unknown as Snapshot;
}

describe('referencedFiles', () => {
  it('finds the files kubeconfig keys name, however the key is spelled', () => {
    const found = referencedFiles(
      snapshotOf([
        '{"plugins":[{"type":"calico","kubeconfig":"/etc/cni/net.d/calico-kubeconfig"}]}',
        '{"delegates":[{"KubeConfig_FilePath":"/etc/multus/kubeconfig"}]}',
        // A JSON escape spells the key without its letters: still found.
        '{"\\u006bubeconfig":"/var/lib/cilium/kubeconfig"}',
        '{"plugins":[{"type":"bridge","ipam":{"type":"host-local"}}]}',
        '{"kubeconfig":"relative/not/read"}',
      ]),
      'linux',
    );
    expect(found.sort()).toEqual([
      '/etc/cni/net.d/calico-kubeconfig',
      '/etc/multus/kubeconfig',
      '/var/lib/cilium/kubeconfig',
    ]);
  });
});
