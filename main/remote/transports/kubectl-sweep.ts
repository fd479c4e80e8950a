/**
 * The label-based sweep of debug pods left behind. Every debug pod carries the cni-doctor labels
 * and two annotations naming the machine and process that created it; a pod whose creator was on
 * this machine and is no longer running (killed with SIGKILL, the machine's power cut between
 * create and delete) is deleted by the next kubectl run from here. Pods of other machines are
 * left alone unless they have outlived their deadline (the kubelet stops them then, but the
 * finished pod object stays: those are deleted too, wherever they came from).
 *
 * The pod list is the API server's answer: untrusted shape, read defensively.
 */
import { hostname } from 'node:os';
import { runLocal } from '../local-run';

export const DEBUG_POD_LABELS = {
  'app.kubernetes.io/name': 'cni-doctor',
  'app.kubernetes.io/component': 'node-debug',
} as const;
export const LABEL_SELECTOR = Object.entries(DEBUG_POD_LABELS)
  .map(([k, v]) => `${k}=${v}`)
  .join(',');
export const OWNER_HOST_ANNOTATION = 'cni-doctor/client-host';
export const OWNER_PID_ANNOTATION = 'cni-doctor/client-pid';

export function ownerAnnotations(): Record<string, string> {
  return { [OWNER_HOST_ANNOTATION]: hostname(), [OWNER_PID_ANNOTATION]: String(process.pid) };
}

export interface SweepCandidate {
  namespace: string;
  name: string;
  why: string;
}

const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Which labelled debug pods to delete: those this machine created whose process is gone, and
 * finished ones (Succeeded/Failed: the deadline passed or the pod was evicted).
 */
export function orphanedDebugPods(
  podList: unknown,
  self: { host: string; alive: (pid: number) => boolean },
): SweepCandidate[] {
  const items = rec(podList).items;
  if (!Array.isArray(items)) return [];
  const out: SweepCandidate[] = [];
  for (const item of items) {
    const meta = rec(rec(item).metadata);
    const name = str(meta.name);
    const namespace = str(meta.namespace);
    if (!name || !namespace || !name.startsWith('cni-doctor-')) continue;
    const labels = rec(meta.labels);
    if (Object.entries(DEBUG_POD_LABELS).some(([k, v]) => labels[k] !== v)) continue;
    const ann = rec(meta.annotations);
    const phase = str(rec(rec(item).status).phase);
    const pid = Number(str(ann[OWNER_PID_ANNOTATION]));
    if (phase === 'Succeeded' || phase === 'Failed') {
      out.push({ namespace, name, why: `finished (${phase})` });
    } else if (
      str(ann[OWNER_HOST_ANNOTATION]) === self.host &&
      Number.isInteger(pid) &&
      pid > 0 &&
      !self.alive(pid)
    ) {
      out.push({ namespace, name, why: `its creator (pid ${pid} on this machine) is gone` });
    }
  }
  return out;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function sweepCommands(context: string | undefined, namespace: string | undefined) {
  const ctx = context !== undefined ? ['--context', context] : [];
  const ns = namespace !== undefined ? ['--namespace', namespace] : ['--all-namespaces'];
  return {
    list: [...ctx, 'get', 'pods', ...ns, '-l', LABEL_SELECTOR, '-o', 'json'],
    delete: (c: SweepCandidate) => [
      ...ctx,
      '--namespace',
      c.namespace,
      'delete',
      'pod',
      c.name,
      '--ignore-not-found',
      '--wait=false',
    ],
  };
}

/** Lists the labelled debug pods and deletes the orphaned ones; returns what it deleted. */
export async function sweepDebugPods(
  o: { client?: string; context?: string; namespace?: string } = {},
): Promise<{ deleted: SweepCandidate[]; error?: string }> {
  const client = o.client ?? 'kubectl';
  const cmds = sweepCommands(o.context, o.namespace);
  const r = await runLocal(client, cmds.list, 30_000);
  if (r.code !== 0) return { deleted: [], error: r.stderr.trim().slice(0, 300) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.stdout);
  } catch {
    return { deleted: [], error: 'kubectl answered something that is not JSON' };
  }
  const victims = orphanedDebugPods(parsed, { host: hostname(), alive: processAlive });
  const deleted: SweepCandidate[] = [];
  await Promise.all(
    victims.map(async (v) => {
      if ((await runLocal(client, cmds.delete(v), 30_000)).code === 0) deleted.push(v);
    }),
  );
  return { deleted };
}
