/**
 * After a node scan: which finding explains each stuck pod. The pod's FailedCreatePodSandBox
 * message matched a log signature; a signature names the rule it is evidence for (`attachesTo`)
 * or the `log.<topic>` finding it becomes. That finding, when the scan has it, explains the pod.
 * A generic message ("failed to setup network for sandbox") or none: the scan's top finding, said
 * as a likely cause rather than a match.
 */
import type { ClusterNodeView, StuckPodView } from '../../shared/cluster';
import type { Finding } from '../../shared/model/finding';
import type { Report } from '../../shared/model/report';
import { signatureById } from '../logs/catalog';

function ref(f: Finding, how: string): NonNullable<StuckPodView['explainedBy']> {
  return { findingId: f.id, rule: f.rule, title: f.title, severity: f.severity, how };
}

export function explainPod(pod: StuckPodView, report: Report): StuckPodView['explainedBy'] {
  const top =
    report.findings.find((f) => f.id === report.summary?.topFindingId) ??
    report.findings.find((f) => f.severity === 'error');
  const sig = pod.signature ? signatureById(pod.signature.id) : undefined;
  if (sig && !sig.generic) {
    const rule = sig.attachesTo ?? (sig.topic?.startsWith('log.') ? sig.topic : `log.${sig.topic}`);
    const f = report.findings.find((x) => x.rule === rule);
    if (f) return ref(f, `the pod's message matches ${sig.id}, evidence for ${rule}`);
  }
  if (!top) return undefined;
  return ref(
    top,
    sig
      ? `the pod's message (${sig.id}) says only that the setup failed; the node's top finding is the likely cause`
      : "no signature names the cause; the node's top finding is the likely cause",
  );
}

/** The node view with the scan's counts and, for each stuck pod, the finding that explains it. */
export function tieNodeToScan(
  node: ClusterNodeView,
  report: Report,
  target: string,
): ClusterNodeView {
  const top =
    report.findings.find((f) => f.id === report.summary?.topFindingId) ??
    report.findings.find((f) => f.severity === 'error');
  const counts = report.summary?.counts ?? {
    error: report.findings.filter((f) => f.severity === 'error').length,
    warning: report.findings.filter((f) => f.severity === 'warning').length,
    info: report.findings.filter((f) => f.severity === 'info').length,
  };
  const cni = report.summary?.cniInUse;
  return {
    ...node,
    ...(cni?.network !== undefined && {
      cni: {
        name: cni.plugins.length > 0 ? `${cni.network} (${cni.plugins.join(', ')})` : cni.network,
        from: `node scan: ${cni.file ?? cni.confDir}`,
      },
    }),
    stuck: node.stuck.map((g) => ({
      ...g,
      pods: g.pods.map((p) => {
        const e = explainPod(p, report);
        return e ? { ...p, explainedBy: e } : p;
      }),
    })),
    scan: {
      target,
      ...(report.durationMs !== undefined && { durationMs: report.durationMs }),
      counts,
      ...(top && { top: { id: top.id, rule: top.rule, title: top.title, severity: top.severity } }),
    },
  };
}
