/**
 * A node that is a container on this machine's engine: kind and minikube nodes (docker or podman
 * driver), k3d nodes, or any privileged node container. Programs run with `ENGINE exec -i NAME`;
 * the engine client is run directly (argument vector), the name was validated by parseTarget.
 *
 * Everything, repairs' file operations included, runs inside the container through exec: its
 * files are never opened from this machine at /proc/PID/root, where a symlink the node's root
 * swaps in would resolve against this machine's root (docs/security.md "Node containers").
 */
import { adoptEarlyAgent } from '../early-agent';
import { spawnClient, type NodeProcess, type Transport } from '../transport';
import { containerExecArgs, type ContainerTarget } from './container-args';

export { containerExecArgs, type ContainerTarget } from './container-args';

export class ContainerTransport implements Transport {
  readonly name: string;
  /** `podman exec` removes its exec session only when let exit (transport.ts clientCleansUp). */
  readonly clientCleansUp = true;

  constructor(
    readonly target: ContainerTarget,
    private readonly client: string = target.engine,
  ) {
    this.name = `${target.engine} exec`;
  }

  async prepare(): Promise<void> {}

  spawn(argv: readonly string[]): NodeProcess {
    const args = containerExecArgs(this.target, argv);
    // The launcher may have started this very client already (early-agent.ts).
    return adoptEarlyAgent(this.client, args) ?? spawnClient(this.client, args);
  }

  async dispose(): Promise<void> {}

  explainFailure(stderr: string): string | undefined {
    return missingContainer(this.target, stderr);
  }
}

/**
 * The engines' own words for an exec into a container they do not have, e.g. podman `Error: no
 * container with name or ID "x" found: no such container`, docker `Error response from daemon: No
 * such container: x`, nerdctl `no such container`: say it as the target, with where to find the
 * right name, not as a raw client error (newcomer review, journey 5).
 */
export function missingContainer(t: ContainerTarget, stderr: string): string | undefined {
  if (!/no such container|no container with name/i.test(stderr)) return undefined;
  return (
    `no container ${JSON.stringify(t.name)} on ${t.engine}: \`cni-doctor targets\` (or the ` +
    `Targets screen) lists the node containers it runs; with a rootful ${t.engine}, run as root`
  );
}
