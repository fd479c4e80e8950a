import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../../shared/until.testutil';
import { readProcessTable } from './proc';

/** Whether some process on this machine runs `exe` (its command line starts with it). */
function running(exe: string): boolean {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith(exe + '\0')) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

// A real process named "containerd" started in its own PID namespace (unshare, as a node
// container's runtime is) must not be taken for this node's runtime; the same process in our
// namespace must be.
async function withFakeContainerd<T>(
  inOwnNamespace: boolean,
  body: (pid: number) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'cnd-proc-'));
  const exe = join(dir, 'containerd');
  await copyFile('/bin/sleep', exe); // a real binary whose argv[0] ends in "containerd"
  const argv = inOwnNamespace ? ['unshare', '--pid', '--fork', exe, '30'] : [exe, '30'];
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  try {
    await until(() => running(exe), `${argv.join(' ')} to be running`);
    return await body(child.pid ?? -1);
  } finally {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

const isRoot = process.getuid?.() === 0;

describe('readProcessTable', () => {
  it('lists a containerd of this node', async () => {
    await withFakeContainerd(false, async (pid) => {
      const table = await readProcessTable();
      expect(table.known).toBe(true);
      const pids = table.known ? table.value.map((p) => p.pid) : [];
      expect(pids).toContain(pid);
    });
  });

  it.skipIf(!isRoot)(
    'leaves out a containerd in another PID namespace (a node container)',
    async () => {
      await withFakeContainerd(true, async () => {
        const table = await readProcessTable();
        expect(table.known).toBe(true);
        const ours = table.known
          ? table.value.filter((p) => p.args.some((a) => a.includes('cnd-proc-')))
          : [];
        expect(ours).toEqual([]);
      });
    },
  );
});
