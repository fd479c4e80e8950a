/**
 * Reads the cluster through the user's kubectl (their kubeconfig, context and credentials): the
 * nodes, the pods and the FailedCreatePodSandBox events, three `get … -o json` calls in parallel.
 * Read-only. Each answer that cannot be had becomes a note, and the view is built from the rest;
 * without nodes there is no view (a clear error: no cluster is reachable).
 */
import { runLocal } from '../remote/local-run';
import type { ClusterView } from '../../shared/cluster';
import { buildClusterView, SANDBOX_EVENT_REASON } from './view';

export interface ClusterFetchOptions {
  context?: string;
  client?: string;
  /** Per call (kubectl's own --request-timeout is set to match). */
  timeoutMs?: number;
}

const CONTEXT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:@/+=-]{0,252}$/;

export function clusterCommands(context: string | undefined, timeoutS = 20) {
  if (context !== undefined && !CONTEXT_NAME.test(context))
    throw new Error(`${JSON.stringify(context)} is not a kubeconfig context name`);
  const base = [
    ...(context !== undefined ? ['--context', context] : []),
    `--request-timeout=${timeoutS}s`,
  ];
  return {
    nodes: [...base, 'get', 'nodes', '-o', 'json'],
    pods: [...base, 'get', 'pods', '--all-namespaces', '-o', 'json'],
    events: [
      ...base,
      'get',
      'events',
      '--all-namespaces',
      `--field-selector=reason=${SANDBOX_EVENT_REASON}`,
      '-o',
      'json',
    ],
  };
}

export class NoClusterError extends Error {}

async function getJson(client: string, args: string[], timeoutMs: number) {
  const r = await runLocal(client, args, timeoutMs);
  // kubectl's own summary is its last line (client-go logs retries above it).
  if (r.code !== 0) return { error: (r.stderr.trim().split('\n').pop() ?? '').slice(0, 300) };
  try {
    return { json: JSON.parse(r.stdout) as unknown };
  } catch {
    return { error: 'kubectl answered something that is not JSON' };
  }
}

/** The raw answers (what `--record` keeps as fixtures) and the notes about missing ones. */
export async function fetchApiAnswers(o: ClusterFetchOptions = {}) {
  const client = o.client ?? 'kubectl';
  const timeoutMs = o.timeoutMs ?? 30_000;
  const c = clusterCommands(o.context, Math.ceil(timeoutMs / 1000) - 5);
  const [nodes, pods, events] = await Promise.all([
    getJson(client, c.nodes, timeoutMs),
    getJson(client, c.pods, timeoutMs),
    getJson(client, c.events, timeoutMs),
  ]);
  if (nodes.error !== undefined)
    throw new NoClusterError(
      /ENOENT|not found/.test(nodes.error) && /kubectl/.test(nodes.error)
        ? `the cluster view needs kubectl and an API server: ${nodes.error}`
        : `no API server answered (the cluster view needs one; node views work without): ${nodes.error}`,
    );
  const notes: string[] = [];
  if (pods.error !== undefined) notes.push(`pods could not be listed: ${pods.error}`);
  if (events.error !== undefined) notes.push(`events could not be listed: ${events.error}`);
  return {
    answers: { nodes: nodes.json, pods: pods.json ?? {}, events: events.json ?? {} },
    notes,
  };
}

export async function fetchClusterView(o: ClusterFetchOptions = {}): Promise<ClusterView> {
  const { answers, notes } = await fetchApiAnswers(o);
  return buildClusterView(answers, {
    ...(o.context !== undefined && { context: o.context }),
    notes,
  });
}
