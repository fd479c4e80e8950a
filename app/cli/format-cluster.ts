/** The cluster view as text (cli.md "cluster"): one block per node, stuck pods by signature. */
import type { ClusterNodeView, ClusterView, NodeConditionView } from '../../shared/cluster';
import type { Style } from './format-text';
import { visible } from './visible';

function cond(c: NodeConditionView): string {
  return [c.status, c.reason, c.message].filter(Boolean).join(' — ');
}

function nodeLines(n: ClusterNodeView, s: Style): string[] {
  const ready = n.ready.status === 'True' ? 'Ready' : `NotReady (${cond(n.ready)})`;
  const lines = [
    s.bold(`${n.name}`) +
      `  ${ready}  ${n.os ?? '?'}  ${n.runtime ?? 'runtime ?'}  CNI: ${n.cni ? `${n.cni.name} (${n.cni.from})` : 'not seen from the API'}`,
  ];
  if (n.cniCondition)
    lines.push(
      `  CNIConfigProblem: ${n.cniCondition.status === 'True' ? s.sev('error', cond(n.cniCondition)) : cond(n.cniCondition)}`,
    );
  if (n.scan) {
    if (n.scan.error !== undefined)
      lines.push(`  scan through ${n.scan.target} failed: ${n.scan.error}`);
    else
      lines.push(
        `  scanned through ${n.scan.target}${n.scan.durationMs !== undefined ? ` in ${(n.scan.durationMs / 1000).toFixed(1)} s` : ''}: ` +
          `${n.scan.counts.error} error, ${n.scan.counts.warning} warning` +
          (n.scan.top
            ? `; top: ${s.sev(n.scan.top.severity, n.scan.top.title)} [${n.scan.top.rule}]`
            : ''),
      );
  }
  if (n.stuckCount === 0) lines.push(s.dim('  no pod stuck in sandbox creation'));
  for (const g of n.stuck) {
    lines.push(`  ${g.pods.length} stuck: ${g.title}${g.key.includes('.') ? ` [${g.key}]` : ''}`);
    for (const p of g.pods) {
      lines.push(`    ${p.namespace}/${p.name}${p.count !== undefined ? `  ×${p.count}` : ''}`);
      if (p.message !== undefined) lines.push(s.dim(`      ${p.message.slice(0, 300)}`));
      if (p.explainedBy)
        lines.push(
          `      → ${s.sev(p.explainedBy.severity, p.explainedBy.title)} [${p.explainedBy.rule}] (${p.explainedBy.how})`,
        );
    }
  }
  return lines;
}

export function formatCluster(v: ClusterView, s: Style): string {
  const out = [
    s.bold(`Cluster${v.context !== undefined ? ` ${v.context}` : ''}: ${v.nodes.length} node(s)`) +
      `, ${v.nodes.reduce((a, n) => a + n.stuckCount, 0)} pod(s) stuck in sandbox creation`,
    '',
  ];
  for (const n of v.nodes) out.push(...nodeLines(n, s), '');
  if (v.elsewhere.length > 0)
    out.push(`${v.elsewhere.length} stuck pod(s) on nodes the API does not list`, '');
  for (const note of v.notes) out.push(`note: ${note}`);
  // Every name and message came from the API server: shown, never interpreted.
  return out
    .map((l) => visible(l))
    .join('\n')
    .trimEnd();
}
