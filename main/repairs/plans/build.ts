/**
 * buildPlan: offer → RepairPlan. Looks up the builder for the offer's kind, turns refusals into
 * reasons, lowers TOML intents to full-content writes, and records what the plan was read from.
 */
import type { RepairPlan, RepairStep } from '../../../shared/model/repair';
import type { Snapshot } from '../../../shared/model/snapshot';
import type { ResolvedRepair } from '../../engine/evaluate';
import type { NodeFs } from '../node-fs';
import { isTomlStep, lowerTomlStep } from '../steps/toml-lower';
import { PlanHost } from './plan-host';
import { PlanRefusal } from './refusal';
import { PLAN_BUILDERS } from './index';
import type { PlanBuilder, PlanBuilders } from './types';
import type { OfferKind } from '../../rules/offers';

export type PlanOutcome =
  { ok: true; plan: RepairPlan; host: PlanHost } | { ok: false; reason: string };

export async function buildPlan<K extends OfferKind>(
  snapshot: Snapshot,
  repair: ResolvedRepair<K>,
  fs: NodeFs,
  builders: PlanBuilders = PLAN_BUILDERS,
): Promise<PlanOutcome> {
  // Typed: every kind has its builder (PlanBuilders); the compiler checks it, not this function.
  const builder: PlanBuilder<K> = builders[repair.offer.kind];
  const host = new PlanHost(fs, snapshot.node.os);
  try {
    const draft = await builder(snapshot, repair, host);
    const steps: RepairStep[] = [];
    for (const step of draft.steps) {
      if (!isTomlStep(step)) {
        steps.push(step);
        continue;
      }
      const t = await host.text(step.path);
      if (!t) return { ok: false, reason: `${step.path} does not exist` };
      const lowered = lowerTomlStep(step, t.text);
      if (!lowered.ok) return { ok: false, reason: lowered.reason };
      steps.push(lowered.step);
    }
    if (steps.length === 0) return { ok: false, reason: 'nothing to do' };
    const services = [
      ...new Set(steps.flatMap((s) => (s.kind === 'restart-service' ? [s.service] : []))),
    ];
    const plan: RepairPlan = {
      repairId: repair.id,
      rule: repair.rule,
      findingId: repair.findingId,
      kind: repair.offer.kind,
      title: draft.title ?? repair.offer.title,
      risk: draft.risk,
      needsElevation: steps.some((s) => s.needsElevation),
      steps,
      podImpact: draft.podImpact,
      services,
      inputs: host.inputs(),
      notes: draft.notes ?? [],
    };
    return { ok: true, plan, host };
  } catch (e) {
    if (e instanceof PlanRefusal) return { ok: false, reason: e.message };
    throw e;
  }
}
