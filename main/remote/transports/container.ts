/**
 * A node that is a container on this machine's engine: kind and minikube nodes (docker or podman
 * driver), k3d nodes, or any privileged node container. Programs run with `ENGINE exec -i NAME`;
 * the engine client is run directly (argument vector), the name was validated by parseTarget.
 */
import { promises as fsp } from 'node:fs';
import type { ContainerEngine, Target } from '../../../shared/target';
import { runLocal } from '../local-run';
import { spawnClient, type NodeProcess, type Transport } from '../transport';

export type ContainerTarget = Extract<Target, { kind: 'container' }>;

export function containerExecArgs(t: ContainerTarget, argv: readonly string[]): string[] {
  return ['exec', '-i', t.name, ...argv];
}

export class ContainerTransport implements Transport {
  readonly name: string;
  /**
   * The engine client's own start (tens of ms of Go runtime) comes before the lock: a head start
   * of this much lets the agent's exec reach it first (measured with podman: from 15 ms on the
   * first always won; 5 ms was a coin toss). Docker and nerdctl lose nothing by it: the relay is
   * needed only after the collection, a hundred ms or more later.
   */
  readonly startGapMs = 30;

  constructor(
    readonly target: ContainerTarget,
    private readonly client: string = target.engine,
  ) {
    this.name = `${target.engine} exec`;
  }

  async prepare(): Promise<void> {}

  spawn(argv: readonly string[]): NodeProcess {
    return spawnClient(this.client, containerExecArgs(this.target, argv));
  }

  /**
   * /proc/PID/root of the container's first process, when this machine runs the engine and we
   * may read it (root). The PID comes from the engine; it is trusted only if that process's
   * cgroup names the container's full ID — an engine in a VM (Docker Desktop) reports PIDs of
   * another machine, and a PID can be reused.
   */
  async localRoot(): Promise<{ ok: true; dir: string } | { ok: false; reason: string }> {
    return containerLocalRoot(this.client, this.target.engine, this.target.name);
  }

  async dispose(): Promise<void> {}
}

export async function containerLocalRoot(
  client: string,
  engine: ContainerEngine,
  name: string,
): Promise<{ ok: true; dir: string } | { ok: false; reason: string }> {
  if (process.platform !== 'linux')
    return { ok: false, reason: `the ${engine} engine does not run on this machine's kernel` };
  if (process.getuid?.() !== 0)
    return {
      ok: false,
      reason: `reading the container's file system from this machine needs root (run as root, or with sudo)`,
    };
  const r = await runLocal(
    client,
    ['inspect', '--format', '{{.Id}} {{.State.Pid}} {{.State.Running}}', name],
    15_000,
  );
  if (r.code !== 0)
    return {
      ok: false,
      reason: `${engine} inspect ${name} failed: ${r.stderr.trim().slice(0, 300)}`,
    };
  const m = /^([0-9a-f]{12,128}) ([0-9]+) (true|false)\s*$/.exec(r.stdout.trim());
  if (!m) return { ok: false, reason: `${engine} inspect gave an unexpected answer` };
  const [, id, pidText, running] = m as unknown as [string, string, string, string];
  if (running !== 'true' || pidText === '0')
    return { ok: false, reason: `the container ${name} is not running` };
  const cgroup = await fsp.readFile(`/proc/${pidText}/cgroup`, 'utf8').catch(() => '');
  if (!cgroup.includes(id))
    return {
      ok: false,
      reason: `the ${engine} engine's PID ${pidText} is not a process of this machine (the engine runs in a VM or elsewhere)`,
    };
  const dir = `/proc/${pidText}/root`;
  try {
    await fsp.access(`${dir}/`);
  } catch (e) {
    return { ok: false, reason: `${dir} is not readable: ${(e as Error).message}` };
  }
  return { ok: true, dir };
}
