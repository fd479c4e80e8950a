/** Chooses the host for a request: a bundle, a node disk under --root, or this machine. */
import { promises as fsp } from 'node:fs';
import type { Host } from '../host/host';
import { BundleHost } from '../host/bundle-host';
import { liveProcessRootProblem } from '../host/live-process-root';

export interface HostRequest {
  bundle?: string;
  root?: string;
  criDeadlineMs?: number;
  /** A one-shot CLI run: file calls may block (see main/host/linux/file-io.ts). */
  blockingIo?: boolean;
}

export class UsageError extends Error {}

/** A --root that is not a directory would scan as an empty node and report "no findings". */
export async function assertRootDir(root: string): Promise<void> {
  let st;
  try {
    st = await fsp.stat(root);
  } catch (e) {
    throw new UsageError(
      `--root ${root}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (e as Error).message}`,
    );
  }
  if (!st.isDirectory()) throw new UsageError(`--root ${root} is not a directory`);
  const live = await liveProcessRootProblem(root);
  if (live) throw new UsageError(live);
}

export async function openHost(req: HostRequest): Promise<Host> {
  if (req.bundle && req.root) throw new UsageError('use either --bundle or --root, not both');
  if (req.bundle) return BundleHost.open(req.bundle, req.blockingIo ? { blockingIo: true } : {});
  if (process.platform === 'win32') {
    if (req.root)
      throw new UsageError('--root scans a Linux node disk; it is not available on Windows');
    const { openWindowsHost } = await import('./open-windows-host');
    return openWindowsHost(req);
  }
  if (req.root !== undefined) await assertRootDir(req.root);
  // Loaded here, not at the top: a bundle scan never needs the live host's code.
  const { LinuxHost } = await import('../host/linux-host');
  return new LinuxHost({
    ...(req.root !== undefined && { root: req.root }),
    ...(req.criDeadlineMs !== undefined && { criDeadlineMs: req.criDeadlineMs }),
    ...(req.blockingIo && { blockingIo: true }),
  });
}
