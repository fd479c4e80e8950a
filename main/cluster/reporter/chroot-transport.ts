/**
 * The node's root mounted into this pod (the DaemonSet's hostPath `/` at /host, host PID and
 * network): programs run as `chroot /host /bin/sh -c 'exec "$@"' sh ARGV…`, exactly as through a
 * kubectl debug pod but without kubectl — so the reporter's scan sees the node's processes, its
 * runtime's config and its CRI socket the way a scan on the node does.
 */
import type { Target } from '../../../shared/target';
import { spawnClient, type NodeProcess, type Transport } from '../../remote/transport';
import { NODE_SHELL_PREFIX } from '../../remote/transports/kubectl';

export class ChrootTransport implements Transport {
  readonly name = 'node root in this pod';
  readonly target: Target;

  constructor(
    readonly root: string,
    node: string,
    private readonly chroot = 'chroot',
  ) {
    this.target = { kind: 'kubectl', node };
  }

  prepare(): Promise<void> {
    return Promise.resolve();
  }

  spawn(argv: readonly string[]): NodeProcess {
    return spawnClient(this.chroot, [this.root, ...NODE_SHELL_PREFIX, ...argv]);
  }

  async localRoot(): Promise<{ ok: true; dir: string }> {
    return { ok: true, dir: this.root };
  }

  async dispose(): Promise<void> {}
}
