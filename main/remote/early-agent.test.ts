import { spawn as realSpawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_PROGRAM } from './agent-program';
import { adoptEarlyAgent, earlyAgentCommand, endEarlyAgent, startEarlyAgent } from './early-agent';
import { ContainerTransport, containerExecArgs } from './transports/container';
import type { NodeProcess } from './transport';

/** Stands in for the engine client: a local `cat` that ends when its input does. */
function fakeClients(): {
  calls: string[][];
  children: ChildProcess[];
  spawn: () => typeof realSpawn;
} {
  const calls: string[][] = [];
  const children: ChildProcess[] = [];
  const spawn = ((cmd: string, args: readonly string[], opts: object) => {
    calls.push([cmd, ...args]);
    const child = realSpawn('sh', ['-c', 'cat >/dev/null'], opts);
    children.push(child);
    return child;
  }) as unknown as typeof realSpawn;
  return { calls, children, spawn: () => spawn };
}

const exited = (p: NodeProcess): Promise<boolean> =>
  Promise.race([
    p.exit.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 20_000)),
  ]);

afterEach(() => endEarlyAgent());

describe('which command lines start the node agent early', () => {
  it('scan --target container:ENGINE/NAME: exactly the client the transport would start', () => {
    const early = earlyAgentCommand(['scan', '--json', '--target', 'container:podman/kind-1']);
    expect(early).toEqual({
      command: 'podman',
      args: containerExecArgs(
        { kind: 'container', engine: 'podman', name: 'kind-1' },
        AGENT_PROGRAM,
      ),
    });
    expect(earlyAgentCommand(['scan', '--target=container:docker/n'])?.command).toBe('docker');
  });

  it('nothing for other commands, other targets, or a target that does not parse', () => {
    for (const argv of [
      ['fix', 'x', '--target', 'container:podman/n'],
      ['scan', '--target', 'ssh:root@node'],
      ['scan', '--target', 'container:lxc/n'],
      ['scan', '--target', 'container:podman/-bad'],
      ['scan', '--bundle', 'container:podman/n'],
      ['scan'],
    ])
      expect(earlyAgentCommand(argv), argv.join(' ')).toBeUndefined();
  });
});

describe('the early client', () => {
  it('is adopted by the transport that would start the same client: no second start', async () => {
    const { calls, spawn } = fakeClients();
    startEarlyAgent(['scan', '--target', 'container:podman/node-a'], spawn);
    expect(calls).toHaveLength(1);
    const t = new ContainerTransport({ kind: 'container', engine: 'podman', name: 'node-a' });
    const p = t.spawn(AGENT_PROGRAM);
    // Adopted: the fake's process, not a real `podman exec` the transport would have started.
    expect(calls).toHaveLength(1);
    p.stdin.end();
    expect(await exited(p)).toBe(true);
    expect((await p.exit).code).toBe(0);
  });

  it('is ended, not adopted, when the transport starts something else; and only once', async () => {
    const { spawn } = fakeClients();
    startEarlyAgent(['scan', '--target', 'container:podman/node-a'], spawn);
    const early = adoptEarlyAgent('podman', ['exec', '-i', 'node-b', 'true']);
    expect(early).toBeUndefined();
    startEarlyAgent(['scan', '--target', 'container:podman/node-a'], spawn);
    const args = containerExecArgs(
      { kind: 'container', engine: 'podman', name: 'node-a' },
      AGENT_PROGRAM,
    );
    const p = adoptEarlyAgent('podman', args);
    expect(p).toBeDefined();
    expect(adoptEarlyAgent('podman', args)).toBeUndefined();
    p?.stdin.end();
  });

  it('nobody adopted it (a usage error): endEarlyAgent closes its input and it exits by itself', async () => {
    const { children, spawn } = fakeClients();
    startEarlyAgent(['scan', '--target', 'container:podman/node-a'], spawn);
    const child = children[0] as ChildProcess;
    const code = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    endEarlyAgent();
    // Exit 0: its input ended (`cat` returned), it was not killed.
    expect(await code).toBe(0);
    expect(adoptEarlyAgent('podman', ['exec', '-i', 'node-a', ...AGENT_PROGRAM])).toBeUndefined();
  });
});
