/**
 * One node of the cluster view scanned through kubectl (a short-lived debug pod, deleted after),
 * and its stuck pods tied to the findings that explain them. A scan that fails is said on the
 * node (scan.error); the rest of the view stands.
 */
import type { ClusterNodeView, ClusterView } from '../../shared/cluster';
import { formatTarget, type Target } from '../../shared/target';
import type { KubectlOptions } from '../remote/transports/kubectl';
import { tieNodeToScan } from './tie';

export async function scanClusterNode(
  node: ClusterNodeView,
  o: { context?: string; kubectl?: KubectlOptions; onProgress?: (step: string) => void } = {},
): Promise<ClusterNodeView> {
  const target: Target = {
    kind: 'kubectl',
    node: node.name,
    ...(o.context !== undefined && { context: o.context }),
  };
  const label = formatTarget(target);
  try {
    const { scanTarget } = await import('../remote/open-target');
    const { report } = await scanTarget(
      target,
      { ...(o.kubectl !== undefined && { kubectl: o.kubectl }) },
      { ...(o.onProgress !== undefined && { onProgress: o.onProgress }) },
    );
    return tieNodeToScan(node, report, label);
  } catch (e) {
    return {
      ...node,
      scan: {
        target: label,
        counts: { error: 0, warning: 0, info: 0 },
        error:
          (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, 400) ?? 'failed',
      },
    };
  }
}

/** Which nodes `--scan` visits: those with stuck pods, NotReady, or flagged by the DaemonSet. */
export function nodesWorthScanning(view: ClusterView): ClusterNodeView[] {
  return view.nodes.filter(
    (n) => n.stuckCount > 0 || n.ready.status !== 'True' || n.cniCondition?.status === 'True',
  );
}
