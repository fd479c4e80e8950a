// Host-side teardown of a lab after its containerd is gone, then the proof that nothing is left.
import { existsSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { run, sleep } from './exec';
import {
  cniResultCache,
  labBridges,
  labCgroupDirs,
  labMounts,
  labProcesses,
  labSandboxIdsOnDisk,
  shimSockets,
} from './host-state';
import type { LabPaths } from './paths';

export class LabLeakError extends Error {
  constructor(
    readonly lab: string,
    readonly leaks: string[],
  ) {
    super(`lab ${lab} leaked:\n  - ${leaks.join('\n  - ')}`);
    this.name = 'LabLeakError';
  }
}

// containerd 1.6 and libcni create these host-wide dirs whatever the config says (shim sockets,
// CNI result cache; docs/knowledge/lab.md#a-private-containerd). Remove them again only if no lab-external process had
// them before the first lab started, and only once they are empty.
const HOST_DIRS = ['/run/containerd/s', '/run/containerd', '/var/lib/cni/results', '/var/lib/cni'];
let preexisting: Set<string> | undefined;

export function rememberHostDirs(): void {
  preexisting ??= new Set(HOST_DIRS.filter((d) => existsSync(d)));
}

function removeCreatedEmptyHostDirs(): void {
  for (const d of HOST_DIRS) {
    if (preexisting?.has(d) !== false) continue;
    try {
      rmdirSync(d); // fails when not empty, which is what we want
    } catch {
      // in use or already gone
    }
  }
}

/**
 * Kills, unmounts and deletes everything the lab made on the host. Never throws.
 * `graceMs`: how long lab processes get to exit by themselves first — a shim whose sandbox was
 * just removed is still shutting down, and killing it would strand its socket.
 */
export interface CleanupResult {
  /** Every sandbox id involved (given + found on disk), for findLeaks(). */
  sandboxIds: Set<string>;
  /** Processes that had to be SIGKILLed ("pid: cmdline"). */
  killed: string[];
}

export async function cleanHost(
  p: LabPaths,
  sandboxIds: Iterable<string>,
  graceMs = 1000,
): Promise<CleanupResult> {
  // Also the ids only the lab's own dirs know (a lab abandoned by a dead test runner).
  const ids = new Set([...sandboxIds, ...labSandboxIdsOnDisk(p)]);
  const graceEnd = Date.now() + graceMs;
  while (labProcesses(p).length > 0 && Date.now() < graceEnd) await sleep(25);
  // Shims outlive containerd, and pause processes outlive nothing but their shim.
  const killed = new Set<string>();
  for (let attempt = 0; attempt < 20; attempt++) {
    const procs = labProcesses(p);
    if (procs.length === 0) break;
    for (const proc of procs) {
      killed.add(`${proc.pid}: ${proc.cmdline}`);
      try {
        process.kill(proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await sleep(50);
  }
  // Netns bind mounts (<state>/io.containerd.grpc.v1.cri/netns/cni-*), sandbox rootfs overlays,
  // shm mounts: unmounting the netns file is what deletes the namespace.
  for (const m of labMounts(p)) await run('umount', ['-l', m]);
  for (const bridge of await labBridges(p)) await run('ip', ['link', 'del', bridge]);
  for (const f of [...cniResultCache(ids), ...shimSockets(p, ids)]) rmSync(f, { force: true });
  for (const dir of labCgroupDirs(p)) removeCgroupTree(dir);
  // ipamDir, state, root, socket and config all live under the lab dir.
  rmSync(p.dir, { recursive: true, force: true, maxRetries: 3 });
  removeCreatedEmptyHostDirs();
  return { sandboxIds: ids, killed: [...killed] };
}

/** Everything that should be gone after cleanHost(), as readable lines (empty when clean). */
export async function findLeaks(p: LabPaths, sandboxIds: Iterable<string>): Promise<string[]> {
  const leaks: string[] = [];
  for (const proc of labProcesses(p)) leaks.push(`process ${proc.pid}: ${proc.cmdline}`);
  for (const m of labMounts(p)) leaks.push(`mount ${m}`);
  for (const b of await labBridges(p)) leaks.push(`network interface ${b}`);
  for (const f of cniResultCache(sandboxIds)) leaks.push(`libcni cache ${f}`);
  for (const f of shimSockets(p, sandboxIds)) leaks.push(`shim socket ${f}`);
  for (const d of labCgroupDirs(p)) leaks.push(`cgroup ${d}`);
  for (const [what, path] of [
    ['lab dir', p.dir],
    ['IPAM dataDir', p.ipamDir],
    ['netns dir', `${p.state}/io.containerd.grpc.v1.cri/netns`],
  ] as const) {
    if (existsSync(path)) leaks.push(`${what} ${path}`);
  }
  return leaks;
}

function removeCgroupTree(dir: string): void {
  // A cgroup directory can only be removed once its children are; its files are virtual.
  for (const child of readdirSync(dir)) {
    const path = `${dir}/${child}`;
    try {
      if (statSync(path).isDirectory()) removeCgroupTree(path);
    } catch {
      // raced with the kernel removing it
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    // still has processes: findLeaks() reports it
  }
}
