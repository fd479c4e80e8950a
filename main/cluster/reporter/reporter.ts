/**
 * The DaemonSet's loop: scan this node every period, set the CNIConfigProblem condition on its
 * Node, and post an Event when the condition changes (node-problem-detector's way of reporting).
 * The RBAC it needs is exactly: patch nodes/status, create events.
 */
import type { Report } from '../../../shared/model/report';
import type { Api } from './in-cluster-api';
import { conditionFor, conditionPatch, nodeEvent, type ConditionState } from './condition';

export interface ReporterDeps {
  api: Api;
  node: string;
  scan: () => Promise<Report>;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface ReporterState {
  last?: ConditionState;
  transition?: string;
}

/** One round: scan, patch the condition, post an Event if it changed. Returns the new state. */
export async function reportOnce(d: ReporterDeps, state: ReporterState): Promise<ReporterState> {
  const log = d.log ?? (() => undefined);
  const now = (d.now ?? (() => new Date()))().toISOString();
  let c: ConditionState;
  try {
    c = conditionFor(await d.scan());
  } catch (e) {
    // A scan that cannot run says so on the node rather than keeping an old answer.
    c = {
      status: 'True',
      reason: 'ScanFailed',
      message: `cni-doctor could not scan this node: ${(e as Error).message}`.slice(0, 1024),
    };
  }
  const changed = state.last?.status !== c.status || state.last?.reason !== c.reason;
  const transition = changed || state.transition === undefined ? now : state.transition;
  const path = `/api/v1/nodes/${encodeURIComponent(d.node)}/status`;
  const p = await d.api.call(
    'PATCH',
    path,
    conditionPatch(c, now, transition),
    'application/strategic-merge-patch+json',
  );
  if (p.status >= 300) throw new Error(`PATCH ${path}: HTTP ${p.status} ${p.body.slice(0, 300)}`);
  log(`${now} ${c.status} ${c.reason}: ${c.message}`);
  if (changed) {
    const e = await d.api.call(
      'POST',
      '/api/v1/namespaces/default/events',
      nodeEvent(d.node, c, now),
    );
    if (e.status >= 300) log(`event not posted: HTTP ${e.status} ${e.body.slice(0, 200)}`);
  }
  return { last: c, transition };
}
