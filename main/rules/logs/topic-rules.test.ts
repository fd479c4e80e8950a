import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../shared/model/snapshot';
import { derive } from '../derive';
import { logTopicRules } from './topic-rules';

/** Only what the topic rules read: the OS and the log matches. */
function snapshotWith(matches: Snapshot['logs']['matches']): Snapshot {
  const partial = {
    node: { os: 'linux', source: 'bundle' },
    containerd: { known: true, value: null },
    crio: { known: true, value: null },
    kubelet: { known: true, value: null },
    confDirs: [],
    binDirs: [],
    endpoints: [],
    logs: {
      sources: [{ path: 'journald:crio', origin: 'journald:crio', state: 'scanned' }],
      matches,
    },
  };
  return partial as unknown as Snapshot;
}

describe('log topic rules', () => {
  const rule = logTopicRules().find((r) => r.id === 'log.cni.reload-failed');

  it("explains a CRI-O line with the CRI-O signature, not the topic's first (containerd) one", () => {
    const s = snapshotWith([
      {
        signatureId: 'linux.crio.cni-reload-failed',
        path: 'journald:crio',
        line: 4,
        text: 'CNI config loading failed, continue monitoring: x',
      },
    ]);
    const out = rule?.evaluate({ snapshot: s, derived: derive(s) });
    expect(out?.status).toBe('fail');
    const f = out?.status === 'fail' ? out.findings[0] : undefined;
    expect(f?.title).toMatch(/CRI-O/);
    expect(f?.evidence).toHaveLength(1);
  });

  it('passes when the logs were scanned and hold no matching line', () => {
    const s = snapshotWith([]);
    expect(rule?.evaluate({ snapshot: s, derived: derive(s) }).status).toBe('pass');
  });
});
