/** Scan → offer → plan → preview. What `fix` without --yes shows, and what apply recomputes. */
import type { RepairPlan, RepairPreview } from '../../shared/model/repair';
import type { ScanResult } from '../engine/scan';
import type { RepairEnvironment } from './environment';
import { buildPlan } from './plans/build';
import type { PlanHost } from './plans/plan-host';
import { withKnownRisks } from './known-risks';
import { buildPreview } from './preview';
import { loadOrderAfterRepair } from './load-order-after';

export type Prepared =
  | { ok: true; plan: RepairPlan; preview: RepairPreview; scan: ScanResult; host: PlanHost }
  | { ok: false; reason: string; scan?: ScanResult };

export async function prepareRepair(env: RepairEnvironment, repairId: string): Promise<Prepared> {
  const scan = await env.scan();
  if (scan.snapshot.node.source === 'bundle')
    return {
      ok: false,
      reason:
        'a bundle is a recording of a node; it cannot be repaired (run fix on the node itself)',
      scan,
    };
  const repair = scan.repairs.get(repairId);
  if (!repair) {
    return {
      ok: false,
      reason: `no finding offers repair "${repairId}" on this node now (the problem may be gone, or the id is mistyped); run \`cni-doctor scan\` for the current repair ids`,
      scan,
    };
  }
  const built = await buildPlan(scan.snapshot, repair, env.fs);
  if (!built.ok) return { ok: false, reason: `cannot repair ${repairId}: ${built.reason}`, scan };
  const plan = withKnownRisks(built.plan, scan.report);
  const preview = buildPreview(plan, built.host);
  const loadOrder = loadOrderAfterRepair(scan.snapshot, plan, repair.offer);
  if (loadOrder.length > 0) preview.loadOrder = loadOrder;
  return {
    ok: true,
    plan,
    preview,
    scan,
    host: built.host,
  };
}
