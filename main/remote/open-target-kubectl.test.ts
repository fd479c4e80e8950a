import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openTarget } from './open-target';

// The stand-in kubectl of fixtures/cluster: logs each verb; its "pod" is this machine.
const REPLAY = fileURLToPath(new URL('../../fixtures/cluster/replay-kubectl.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cnd-open-kubectl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openTarget(kubectl:NODE)', () => {
  it('creates the debug pod before the host is handed out (collect reads without connect)', async () => {
    const log = join(dir, 'verbs');
    process.env.CNI_DOCTOR_REPLAY_LOG = log;
    try {
      const opened = await openTarget(
        { kind: 'kubectl', node: 'lab-node' },
        { kubectl: { client: REPLAY, sweep: false } },
      );
      try {
        // A read straight away, as RecordingHost does in collect: no connect() first.
        expect((await opened.host.readFile('/etc/hostname')).ok).toBe(true);
      } finally {
        await opened.close();
      }
      const verbs = readFileSync(log, 'utf8').trim().split('\n');
      // On the lab cluster the exec came first and failed: pods "cni-doctor-…" not found.
      expect(verbs.indexOf('create')).toBeGreaterThanOrEqual(0);
      expect(verbs.indexOf('create')).toBeLessThan(verbs.indexOf('exec'));
      expect(verbs.at(-1)).toBe('delete');
    } finally {
      delete process.env.CNI_DOCTOR_REPLAY_LOG;
    }
  }, 60_000);
});
