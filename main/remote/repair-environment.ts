/**
 * The repair engine's environment for a node reached through a transport. Every promise of a
 * local repair holds, on the node: the preview and every apply start from a fresh remote scan;
 * files are compared, backed up and written atomically on the node's own file system (seen at the
 * container's /proc/PID/root); the journal and backups live in the node's own state dir
 * (/var/lib/cni-doctor inside the node), so undo and crash recovery work from any later command
 * that names the same target; services restart inside the node; verification is a fresh remote
 * scan.
 *
 * Where the node's file system is not visible here (ssh, a kubectl debug pod), every file
 * operation, the journal, the backups and the lock run ON the node through the transport
 * (transport-node-fs.ts, node-state.ts): the same promises, one program run per operation. A
 * node where that cannot be done safely (not root there, no flock) is refused with the reason.
 */
import * as path from 'node:path';
import { formatTarget, type RemoteTarget } from '../../shared/target';
import { DEFAULT_STATE_DIR_LINUX } from './state-dir-path';
import type { RepairEnvironment } from '../repairs/environment';
import { openTransport, scanTarget, type TargetOptions } from './open-target';
import { NodeRootFs } from './node-root-fs';
import { trustNodeRoot } from '../repairs/state/secure-dir';
import { detectServiceManager, TransportServiceManager } from './service-manager';
import type { Transport } from './transport';
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
    const root = await transport.localRoot();
    if (!root.ok) {
      if (t.kind === 'container') throw new Error(`cannot repair ${label}: ${root.reason}`);
      return await throughTransport(t, transport, o);
    }
    const stateDir = path.join(root.dir, DEFAULT_STATE_DIR_LINUX);
    // The journal's secure-dir walk starts at the node's root and checks every component below
    // it (a symlink inside the node would resolve against this machine's root: refused).
    trustNodeRoot(root.dir);
    const services = new TransportServiceManager(transport, await detectServiceManager(transport));
    return {
      scan: async () => scanTarget(t, o),
      fs: new NodeRootFs(label, root.dir),
      services,
      // Root on this machine reads the container's root; inside, the engine runs as root.
      isElevated: () => process.getuid?.() === 0,
      stateDir,
      ...(o.onTransition && { onTransition: o.onTransition }),
      ...(o.verifyTimeoutMs !== undefined && { verifyTimeoutMs: o.verifyTimeoutMs }),
      rerunCommand: (id) => `npx cni-doctor fix ${id} --yes --target ${label}`,
      close: () => transport.dispose(),
    };
  } catch (e) {
    await transport.dispose();
    throw e;
  }
}

/** ssh and kubectl targets: files, journal, backups and lock on the node, through the transport. */
async function throughTransport(
  t: RemoteTarget,
  transport: Transport,
  o: TargetEnvironmentOptions,
): Promise<TargetEnvironment> {
  const label = formatTarget(t);
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
    stateIo: nodeStateIo(files),
    lockNode: () => nodeLock(transport, label, o.lockWaitMs ?? 15_000),
    ...(o.onTransition && { onTransition: o.onTransition }),
    ...(o.verifyTimeoutMs !== undefined && { verifyTimeoutMs: o.verifyTimeoutMs }),
    rerunCommand: (id) =>
      `npx cni-doctor fix ${id} --yes --target ${label}${uid === 0 ? '' : ' (as root on the node: ssh as root, or a user whose programs run as root there)'}`,
    close: () => transport.dispose(),
  };
}
