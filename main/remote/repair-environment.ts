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
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { formatTarget, type RemoteTarget } from '../../shared/target';
import { DEFAULT_STATE_DIR_LINUX } from './state-dir-path';
import type { RepairEnvironment } from '../repairs/environment';
import { openTransport, scanTarget, type TargetOptions } from './open-target';
import { NodeRootFs } from './node-root-fs';
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
    await assertNoSymlinkOnTheWay(root.dir, DEFAULT_STATE_DIR_LINUX);
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

/**
 * The state dir is reached through /proc/PID/root, where an ABSOLUTE symlink inside the node
 * resolves against THIS machine's root: a node whose /var/lib/cni-doctor pointed at /etc would
 * make the journal write into this machine. No component on the way may be a symlink, and each
 * existing one must be a root-owned directory not writable by others.
 */
export async function assertNoSymlinkOnTheWay(base: string, nodePath: string): Promise<void> {
  let cur = base;
  for (const seg of nodePath.split('/').filter(Boolean)) {
    cur = path.join(cur, seg);
    let st;
    try {
      st = await fsp.lstat(cur);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // created by the journal, below
      throw e;
    }
    const shown = cur.slice(base.length) || '/';
    if (st.isSymbolicLink())
      throw new Error(
        `the node's ${shown} is a symlink; refusing to keep the repair journal through it`,
      );
    if (!st.isDirectory()) throw new Error(`the node's ${shown} is not a directory`);
    if (st.uid !== 0 || (st.mode & 0o002) !== 0)
      throw new Error(`the node's ${shown} is not a root-owned directory closed to other users`);
  }
}
