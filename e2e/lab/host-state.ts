// Reads the host-wide state a lab can leave behind: processes, mounts, bridges, cgroups and
// libcni's result cache. Teardown uses it both to clean up and to prove nothing is left.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './exec';
import type { LabPaths } from './paths';

export interface LabProcess {
  pid: number;
  cmdline: string;
}

/** Processes that belong to the lab: their command line names the lab dir (containerd, shims),
 * or they sit in the lab's cgroup parent (pause processes, whose command line is just /pause). */
export function labProcesses(p: LabPaths): LabProcess[] {
  const out: LabProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const cmdline = readOr(`/proc/${pid}/cmdline`).replace(/\0/g, ' ').trim();
    if (cmdline === '') continue; // kernel thread or already gone
    // cgroup lines look like "4:memory:/cni-doctor-lab-1a2b3c/<sandbox id>"
    const inLabCgroup = readOr(`/proc/${pid}/cgroup`)
      .split('\n')
      .some((l) => {
        const path = l.split(':').slice(2).join(':');
        return path === p.cgroupParent || path.startsWith(p.cgroupParent + '/');
      });
    if (cmdline.includes(p.dir) || inLabCgroup) {
      out.push({ pid, cmdline });
    }
  }
  return out;
}

/** Mount points at or under the lab dir, deepest first (the order to unmount them in). */
export function labMounts(p: LabPaths): string[] {
  const mounts = readOr('/proc/self/mountinfo')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .map(unescapeMountPath)
    .filter((m) => m === p.dir || m.startsWith(p.dir + '/'));
  return [...new Set(mounts)].sort((a, b) => b.length - a.length);
}

/** Network interfaces whose name carries the lab's bridge prefix. */
export async function labBridges(p: LabPaths): Promise<string[]> {
  const r = await run('ip', ['-o', 'link', 'show']);
  return r.stdout
    .split('\n')
    .map((l) => /^\d+:\s+([^:@\s]+)/.exec(l)?.[1] ?? '')
    .filter((name) => name.startsWith(p.bridgePrefix));
}

/** cgroup directories named after the lab's cgroup parent, in every mounted hierarchy. */
export function labCgroupDirs(p: LabPaths): string[] {
  const base = '/sys/fs/cgroup';
  const roots = [base, ...safeList(base).map((d) => join(base, d))];
  return roots.map((r) => join(r, p.cgroupParent)).filter((d) => existsSync(d));
}

/** libcni's cache entries for the given sandboxes (/var/lib/cni/results/<net>-<id>-<ifname>). */
export function cniResultCache(sandboxIds: Iterable<string>): string[] {
  const dir = '/var/lib/cni/results';
  const ids = [...sandboxIds];
  return safeList(dir)
    .filter((f) => ids.some((id) => f.includes(`-${id}-`)))
    .map((f) => join(dir, f));
}

/**
 * Shim sockets of the given sandboxes. containerd 1.6 puts them in the host-wide
 * /run/containerd/s/ as sha256(<grpc address>/<namespace>/<id>) (runtime/v2/shim/util_unix.go
 * SocketAddress; checked against a live lab). A shim removes its socket when it exits cleanly,
 * so one left behind means a shim was killed.
 */
export function shimSockets(p: LabPaths, sandboxIds: Iterable<string>): string[] {
  return [...sandboxIds]
    .map((id) =>
      join(
        '/run/containerd/s',
        createHash('sha256')
          .update(join(p.socket, 'k8s.io', id))
          .digest('hex'),
      ),
    )
    .filter((f) => existsSync(f));
}

/** Sandbox ids containerd's CRI plugin keeps dirs for under the lab's root and state. */
export function labSandboxIdsOnDisk(p: LabPaths): string[] {
  const ids = [p.root, p.state].flatMap((base) =>
    safeList(join(base, 'io.containerd.grpc.v1.cri', 'sandboxes')),
  );
  return [...new Set(ids.filter((id) => /^[0-9a-f]{64}$/.test(id)))];
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function unescapeMountPath(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}
