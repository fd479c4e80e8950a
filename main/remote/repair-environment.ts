/**
 * The repair engine's environment for a node reached through a transport. Every promise of a
 * local repair holds, on the node: the preview and every apply start from a fresh remote scan;
 * files are compared, backed up and written atomically on the node's own file system (seen at the
 * container's /proc/PID/root); the journal and backups live in the node's own state dir
 * (/var/lib/cni-doctor inside the node), so undo and crash recovery work from any later command
 * that names the same target; services restart inside the node; verification is a fresh remote
 * scan. Where the transport cannot offer that (ssh, kubectl — the node's file system is not
 * visible here), creating the environment fails with the reason instead of degrading silently.
 */
import * as path from 'node:path';
import { formatTarget, type RemoteTarget } from '../../shared/target';
import { DEFAULT_STATE_DIR_LINUX } from './state-dir-path';
import type { RepairEnvironment } from '../repairs/environment';
import { openTransport, scanTarget, type TargetOptions } from './open-target';
import { NodeRootFs } from './node-root-fs';
import { trustNodeRoot } from '../repairs/state/secure-dir';
import { detectServiceManager, TransportServiceManager } from './service-manager';

export interface TargetEnvironmentOptions extends TargetOptions {
  onTransition?: (point: string) => void;
  verifyTimeoutMs?: number;
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
    if (!root.ok) throw new Error(`cannot repair ${label}: ${root.reason}`);
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
