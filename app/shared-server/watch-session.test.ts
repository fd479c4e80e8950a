import { describe, expect, it } from 'vitest';
import type { ScanRequest } from '../../shared/api';
import { LinuxHost } from '../../main/host/linux-host';
import { memoryNode } from '../../main/host/memory-node.testutil';
import { ProgressBus } from './progress';
import type { ScanEntry } from './scan-sessions';
import { WATCH_REASONS, WatchSession } from './watch-session';

const entry = (request: ScanRequest, host: ScanEntry['host']): ScanEntry =>
  ({ response: { scanId: 's-0123456789abcdef', request }, host }) as unknown as ScanEntry;

describe('WatchSession.status', () => {
  const w = new WatchSession(new ProgressBus());
  const id = 's-0123456789abcdef';

  it('a node reached through a target: not available, with the reason, never stale', () => {
    const s = w.status(
      entry({ source: 'target', targetId: 'container:podman/node1' }, new LinuxHost()),
      id,
    );
    expect(s).toEqual({ scanId: id, available: false, reason: WATCH_REASONS.remote, stale: false });
    expect(s.reason).toMatch(/not available .* target/);
  });

  it('a bundle or a demo: a recording, never stale', () => {
    for (const r of [
      { source: 'bundle', bundleId: 'b-0123456789abcdef' },
      { source: 'demo', demoId: 'healthy-node' },
    ] as const)
      expect(w.status(entry(r, memoryNode({})), id)).toMatchObject({
        available: false,
        reason: WATCH_REASONS.recording,
        stale: false,
      });
  });

  it('a live node this build cannot watch (not a LinuxHost) says so', () => {
    expect(w.status(entry({ source: 'live' }, memoryNode({ os: 'windows' })), id)).toMatchObject({
      available: false,
      reason: WATCH_REASONS.windows,
    });
  });

  it('a live Linux node before any change: available, not stale', () => {
    expect(w.status(entry({ source: 'live' }, new LinuxHost()), id)).toEqual({
      scanId: id,
      available: true,
      stale: false,
    });
  });

  it('a scan no longer held', () => {
    expect(w.status(undefined, id)).toMatchObject({ available: false, stale: false });
  });
});
