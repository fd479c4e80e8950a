/**
 * Restarting a service inside a node reached through a transport. systemd nodes (kind, minikube)
 * get `systemctl restart` run inside the node; a k3s/k3d node's containerd is embedded in the k3s
 * process (restarting "containerd" means restarting k3s, and in k3d k3s is the container's first
 * process, so it would stop the node) — refused with that reason; a node without a service manager
 * is refused too. A refusal happens before any file is touched (apply checks the plan's services).
 */
import {
  assertServiceName,
  type RestartOptions,
  type ServiceManager,
} from '../repairs/services/types';
import { runOnNode, type Transport } from './transport';

export class TransportServiceManager implements ServiceManager {
  readonly kind: string;
  readonly live = true;

  constructor(
    private readonly transport: Transport,
    private readonly manager: 'systemd' | 'k3s' | 'none',
  ) {
    this.kind = `${manager} in the node (${transport.name})`;
  }

  async restart(name: string, opts: RestartOptions = {}): Promise<void> {
    assertServiceName(name);
    if (this.manager === 'k3s')
      throw new Error(
        `${name} runs inside k3s on this node; restarting it means restarting k3s (in k3d, the node container itself) — restart the node instead (for k3d: docker restart the node container)`,
      );
    if (this.manager === 'none')
      throw new Error(`cannot restart ${name}: the node has no systemd to restart it with`);
    if (opts.daemonReload) await this.systemctl(['daemon-reload']);
    await this.systemctl(['restart', `${name}.service`]);
  }

  async isActive(name: string): Promise<boolean> {
    assertServiceName(name);
    if (this.manager !== 'systemd') return false;
    const r = await runOnNode(
      this.transport,
      ['systemctl', 'is-active', '--quiet', `${name}.service`],
      {
        deadlineMs: 15_000,
      },
    );
    return r.code === 0;
  }

  private async systemctl(args: string[]): Promise<void> {
    const r = await runOnNode(this.transport, ['systemctl', ...args], { deadlineMs: 120_000 });
    if (r.code !== 0)
      throw new Error(
        `systemctl ${args.join(' ')} in the node failed: ${r.stderr.trim().slice(0, 300) || `exit ${r.code}`}`,
      );
  }
}

/** Which service manager the node has: systemd as PID 1, k3s, or none. */
export async function detectServiceManager(t: Transport): Promise<'systemd' | 'k3s' | 'none'> {
  const r = await runOnNode(
    t,
    [
      'sh',
      '-c',
      'if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then echo systemd; elif command -v k3s >/dev/null 2>&1 || [ -d /var/lib/rancher/k3s ]; then echo k3s; else echo none; fi',
    ],
    { deadlineMs: 30_000 },
  );
  const word = r.stdout.toString('utf8').trim();
  return word === 'systemd' || word === 'k3s' ? word : 'none';
}
