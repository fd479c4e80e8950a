/**
 * A plan's risk as the scan already knows it. Disabling a shadowing config hands the node to the
 * next config in the dir; when the scan already found a problem with one of the configs that
 * remain (a plugin missing, a config the runtime cannot parse or version), that config is what
 * pods will get after the repair, so the repair will most likely fail verification and be rolled
 * back. The preview says so and rates it high instead of calling it low.
 */
import type { Finding } from '../../shared/model/finding';
import type { RepairPlan } from '../../shared/model/repair';
import type { Report } from '../../shared/model/report';
import { dirnameNode, pathKey } from '../conventions/node-paths';

/** Rules whose finding on a remaining config means pods would fail with it. */
const BREAKS_THE_FALLBACK = new Set([
  'cni.plugin.missing',
  'cni.conf.invalid',
  'cni.version.unsupported',
  'windows.netns.unsupported',
  'windows.cnisock.missing',
]);

export function withKnownRisks(plan: RepairPlan, report: Report): RepairPlan {
  const os = report.node.os;
  const renamed = plan.steps.flatMap((s) => (s.kind === 'rename' ? [s.from] : []));
  if (renamed.length === 0) return plan;
  const gone = new Set(renamed.map((p) => pathKey(os, p)));
  const dirs = new Set(renamed.map((p) => pathKey(os, dirnameNode(os, p))));
  const remainsInDir = (path: string): boolean =>
    !gone.has(pathKey(os, path)) && dirs.has(pathKey(os, dirnameNode(os, path)));
  const problems: Finding[] = report.findings.filter(
    (f) =>
      f.id !== plan.findingId &&
      BREAKS_THE_FALLBACK.has(f.rule) &&
      f.evidence.some((e) => e.kind === 'file' && remainsInDir(e.path)),
  );
  if (problems.length === 0) return plan;
  return {
    ...plan,
    risk: 'high',
    notes: [
      ...plan.notes,
      `The config that takes over after this repair already has a problem the scan found: ${problems
        .map((f) => `"${f.title}"`)
        .join(
          '; ',
        )}. Pods would fail with it too, so verification will most likely roll this repair back; fix that first.`,
    ],
  };
}
