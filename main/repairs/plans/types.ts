/** The contract between the repair engine and one plan builder per offer kind. */
import type { RepairRisk, RepairStep } from '../../../shared/model/repair';
import type { Snapshot } from '../../../shared/model/snapshot';
import type { ResolvedRepair } from '../../engine/evaluate';
import type { PlanHost } from './plan-host';
import type { OfferKind } from '../../rules/offers';

/** What a builder returns; buildPlan adds ids, services, inputs and the elevation summary. */
export interface PlanDraft {
  /** Defaults to the offer's title. */
  title?: string;
  risk: RepairRisk;
  steps: RepairStep[];
  podImpact: string;
  notes?: string[];
}

/**
 * Builds the plan for one offer from a fresh snapshot. Reads node files only through `host` (so
 * they become plan inputs) and refuses by throwing PlanRefusal (see refuse()).
 */
export type PlanBuilder<K extends OfferKind> = (
  snapshot: Snapshot,
  repair: ResolvedRepair<K>,
  host: PlanHost,
) => Promise<PlanDraft>;

/**
 * Exactly one builder per offer kind of main/rules/offers.ts: a kind without a builder, or a
 * builder for a kind no rule can offer, fails typecheck.
 */
export type PlanBuilders = { readonly [K in OfferKind]: PlanBuilder<K> };
