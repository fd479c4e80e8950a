/** The preview: each step in words, exact diffs, services, pod impact, privilege, risk, token. */
import type { FileDiff, RepairPlan, RepairPreview } from '../../shared/model/repair';
import { unifiedDiff } from './diff';
import type { PlanHost } from './plans/plan-host';
import { executorFor } from './steps/registry';
import { previewToken } from './token';

export function describeSteps(plan: RepairPlan, live: boolean): string[] {
  return plan.steps.map((s) => executorFor(s).describe(s, live));
}

export function buildPreview(plan: RepairPlan, host: PlanHost): RepairPreview {
  const diffs: FileDiff[] = [];
  for (const s of plan.steps) {
    if (s.kind !== 'write') continue;
    const before = host.original(s.path);
    diffs.push({
      path: s.path,
      unified: unifiedDiff(s.path, before ? before.text : null, s.content),
    });
  }
  return {
    repairId: plan.repairId,
    title: plan.title,
    plan,
    description: describeSteps(plan, host.live),
    diffs,
    services: host.live ? plan.services : [],
    podImpact: host.live
      ? plan.podImpact
      : `Nothing notices now: this node disk is not running. What changes when the node boots with it: ${plan.podImpact}`,
    needsElevation: plan.needsElevation,
    risk: plan.risk,
    notes: plan.notes,
    previewToken: previewToken(plan),
  };
}
