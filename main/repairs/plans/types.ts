/** The contract between the repair engine and one plan builder per offer kind. */
import type { RepairRisk, RepairStep } from '../../../shared/model/repair';
import type { Snapshot } from '../../../shared/model/snapshot';
import type { ResolvedRepair } from '../../engine/evaluate';
import type { PlanHost } from './plan-host';

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
export type PlanBuilder = (
  snapshot: Snapshot,
  repair: ResolvedRepair,
  host: PlanHost,
) => Promise<PlanDraft>;
