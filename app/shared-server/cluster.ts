/**
 * The Cluster screen's two operations: the view (nodes, stuck pods by signature) from the API
 * server through the user's kubectl, and one node's scan through a kubectl debug pod tied to it.
 * Both need an API server and say so ('unavailable') when none answers; nothing else in the app
 * depends on them. CNI_DOCTOR_KUBECTL names another kubectl binary (the UI tests use a recorded
 * one).
 */
import type { ClusterRequest, ClusterScanRequest } from '../../shared/api';
import type { ClusterNodeView, ClusterView } from '../../shared/cluster';
import { ApiError } from './errors';

const client = (): string => process.env.CNI_DOCTOR_KUBECTL || 'kubectl';

export async function clusterView(r: ClusterRequest): Promise<ClusterView> {
  const { fetchClusterView, NoClusterError } = await import('../../main/cluster/fetch');
  try {
    return await fetchClusterView({
      client: client(),
      ...(r.context !== undefined && { context: r.context }),
    });
  } catch (e) {
    if (e instanceof NoClusterError) throw new ApiError('unavailable', e.message);
    throw e;
  }
}

export async function clusterScanNode(r: ClusterScanRequest): Promise<ClusterNodeView> {
  const view = await clusterView(r);
  const node = view.nodes.find((n) => n.name === r.node);
  if (!node) throw new ApiError('not-found', `the API server lists no node "${r.node}"`);
  const { scanClusterNode } = await import('../../main/cluster/scan-node');
  return scanClusterNode(node, {
    ...(r.context !== undefined && { context: r.context }),
    kubectl: { client: client() },
  });
}
