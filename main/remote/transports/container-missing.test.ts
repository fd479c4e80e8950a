import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerTransport } from './container';
import { AgentSession } from '../agent-session';
import { NodeFiles } from '../node-files';

// A stand-in engine client that answers every exec the way podman 4 and docker do for a name
// they do not have (their exact stderr, their exit code 125 / 1).
const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function engine(name: string, stderr: string, code: number): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\necho '${stderr}' >&2\nexit ${code}\n`);
  chmodSync(p, 0o755);
  return p;
}
const podman = engine(
  'podman',
  'Error: no container with name or ID "nope" found: no such container',
  125,
);
const docker = engine('docker', 'Error response from daemon: No such container: nope', 1);

describe('a container target that does not exist (newcomer review, journey 5)', () => {
  it('a scan says which container is missing where, and how to find the right one', async () => {
    const t = new ContainerTransport({ kind: 'container', engine: 'podman', name: 'nope' }, podman);
    const s = new AgentSession(t);
    const err = await s.ask({ op: 'node' }).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      'container:podman/nope: no container "nope" on podman: `cni-doctor targets` (or the ' +
        'Targets screen) lists the node containers it runs; with a rootful podman, run as root',
    );
    expect((err as Error).message).not.toMatch(/exit 125|program on the node/);
    await s.close();
  });

  it('fix, undo and history (file operations) say the same, for docker too', async () => {
    const t = new ContainerTransport({ kind: 'container', engine: 'docker', name: 'nope' }, docker);
    const err = await new NodeFiles(t).uid().catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^no container "nope" on docker: `cni-doctor targets`/);
  });

  it('other client errors are shown as the client said them', async () => {
    const down = engine('docker-down', 'Cannot connect to the Docker daemon', 1);
    const t = new ContainerTransport({ kind: 'container', engine: 'docker', name: 'x' }, down);
    const err = await new NodeFiles(t).uid().catch((e: Error) => e);
    expect((err as Error).message).toBe('Cannot connect to the Docker daemon');
  });
});
