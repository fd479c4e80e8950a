/**
 * The repair engine's environment for a node reached through a transport. Every promise of a
 * local repair holds, on the node: the preview and every apply start from a fresh remote scan;
 * files are compared, backed up and written atomically on the node's own file system; the journal
 * and backups live in the node's own state dir (/var/lib/cni-doctor inside the node), so undo and
 * crash recovery work from any later command that names the same target; services restart inside
 * the node; verification is a fresh remote scan.
 *
 * Every file operation, the journal, the backups and the lock run ON the node, through the
 * transport (transport-node-fs.ts, node-state.ts): one program run per operation, started with
 * the node's own root as `/` and the node's own privileges. That holds for node containers on
 * this machine's engine too, although their files are visible here at /proc/PID/root: the node's
 * root may swap any of its directories for a symlink at any moment, and a path opened from here
 * would then resolve that link against THIS machine's root (red-team review B1; docs/security.md
 * "Node containers"). Run inside the node, the same link resolves against the node's own root,
 * where it can reach nothing the node's root could not reach itself. A node where that cannot be
 * done safely (not root there, no flock) is refused with the reason.
 */
import { formatTarget, nodeNameOf, type RemoteTarget } from '../../shared/target';
import { DEFAULT_STATE_DIR_LINUX } from './state-dir-path';
import type { RepairEnvironment } from '../repairs/environment';
import { openTransport, scanTarget, type TargetOptions } from './open-target';
import { detectServiceManager, TransportServiceManager } from './service-manager';
import { NodeFiles } from './node-files';
import { TransportNodeFs } from './transport-node-fs';
import { nodeLock, nodeStateIo } from './node-state';

export interface TargetEnvironmentOptions extends TargetOptions {
  onTransition?: (point: string) => void;
  verifyTimeoutMs?: number;
  lockWaitMs?: number;
}

export type TargetEnvironment = RepairEnvironment & { close(): Promise<void> };

export async function targetEnvironment(
  t: RemoteTarget,
  o: TargetEnvironmentOptions = {},
): Promise<TargetEnvironment> {
  const label = formatTarget(t);
  const transport = openTransport(t, o);
  try {
    const files = new NodeFiles(transport);
    const uid = await files.uid().catch((e: Error) => {
      throw new Error(`cannot repair ${label}: the node could not be reached: ${e.message}`);
    });
    const services = new TransportServiceManager(transport, await detectServiceManager(transport));
    return {
      scan: async () => scanTarget(t, o),
      fs: new TransportNodeFs(label, files),
      services,
      // The repair runs as the node user; only root there may change the runtime's files.
      isElevated: () => uid === 0,
      stateDir: DEFAULT_STATE_DIR_LINUX,
      nodeName: nodeNameOf(t),
      stateIo: nodeStateIo(files),
      lockNode: () => nodeLock(transport, label, o.lockWaitMs ?? 15_000),
      ...(o.onTransition && { onTransition: o.onTransition }),
      ...(o.verifyTimeoutMs !== undefined && { verifyTimeoutMs: o.verifyTimeoutMs }),
      rerunCommand: (id) =>
        `npx cni-doctor fix ${id} --yes --target ${label}${uid === 0 ? '' : ` (as root on the node: ${rootHint(t)})`}`,
      close: () => transport.dispose(),
    };
  } catch (e) {
    await transport.dispose();
    throw e;
  }
}

function rootHint(t: RemoteTarget): string {
  return t.kind === 'container'
    ? "a container whose default user is root, or the engine's exec as root"
    : 'ssh as root, or a user whose programs run as root there';
}
