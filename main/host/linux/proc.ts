/** Reads the process table from /proc: only the processes the doctor cares about. */
import { promises as fsp } from 'node:fs';
import type { Fact } from '../../../shared/model/fact';
import { known, unknownFact } from '../../../shared/model/fact';
import type { ProcessFact } from '../../../shared/model/snapshot';

/** Process names the probes look at (bundle-format.md "processes"). */
export const RELEVANT_PROCESSES = [
  'kubelet',
  'containerd',
  'crio',
  'dockerd',
  'cri-dockerd',
  'k3s',
  'k3s-server',
  'k3s-agent',
  'rke2',
  'flanneld',
  'calico-node',
  'antrea-agent',
  'cilium-agent',
  'podman',
] as const;

export function processName(args: readonly string[]): string {
  const exe = args[0] ?? '';
  return exe.slice(exe.lastIndexOf('/') + 1);
}

export function isRelevant(args: readonly string[]): boolean {
  const name = processName(args);
  if ((RELEVANT_PROCESSES as readonly string[]).includes(name)) return true;
  // k3s re-execs itself as "k3s server"/"k3s agent"; its embedded containerd shows as "containerd".
  return name.startsWith('k3s') || name.startsWith('rke2');
}

/**
 * The PID namespace a process lives in, or undefined when it cannot be read (another user's
 * process without root, or gone meanwhile).
 */
async function pidNamespace(procRoot: string, pid: string): Promise<string | undefined> {
  return fsp.readlink(`${procRoot}/${pid}/ns/pid`).catch(() => undefined);
}

/**
 * Reads the runtime-related processes of THIS node. A process in another PID namespace runs in
 * a container: on a laptop that is a kind, minikube or k3d node (whose containerd is that node's
 * runtime, with paths on that node's file system), or a pod. Judging this node by it would mix
 * two nodes, so such processes are left out; a process whose namespace cannot be read is kept.
 */
export async function readProcessTable(procRoot = '/proc'): Promise<Fact<ProcessFact[]>> {
  const ownPidNamespace = await pidNamespace(procRoot, 'self');
  let pids: string[];
  try {
    pids = (await fsp.readdir(procRoot)).filter((d) => /^\d+$/.test(d));
  } catch (e) {
    return unknownFact(`cannot list ${procRoot}: ${(e as Error).message}`);
  }
  const out: ProcessFact[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      const raw = await fsp.readFile(`${procRoot}/${pid}/cmdline`).catch(() => undefined);
      if (!raw || raw.length === 0) return; // kernel thread or gone meanwhile
      const args = raw.toString('utf8').split('\0');
      if (args[args.length - 1] === '') args.pop();
      if (!isRelevant(args)) return;
      const ns = ownPidNamespace && (await pidNamespace(procRoot, pid));
      if (ns && ns !== ownPidNamespace) return;
      out.push({ name: processName(args), pid: Number(pid), args });
    }),
  );
  out.sort((a, b) => (a.pid ?? 0) - (b.pid ?? 0));
  return known(out);
}
