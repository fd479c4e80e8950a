/** The rule contract: a pure function from Snapshot to a check status and findings. */
import type { Evidence, Reference, RuleInfo, Severity } from '../../shared/model/finding';
import type { Snapshot } from '../../shared/model/snapshot';
import type { Derived } from './derive';
import type { RepairOffer } from './offers';

export type { RepairOffer } from './offers';

export interface FindingDraft {
  /** Discriminator when a rule fires more than once (a file name, a flag, an endpoint). */
  key?: string;
  severity: Severity;
  title: string;
  summary: string;
  runtime?: string;
  evidence: Evidence[];
  repairs?: RepairOffer[];
  guidance?: string;
  /** Rule ids whose findings explain this one (linked after all rules ran). */
  explainedBy?: string[];
}

export type RuleOutcome =
  | { status: 'pass' }
  | { status: 'not-applicable'; reason: string }
  | { status: 'unknown'; reason: string }
  | { status: 'fail'; findings: FindingDraft[] };

export interface RuleContext {
  snapshot: Snapshot;
  derived: Derived;
}

export interface Rule extends RuleInfo {
  /** Where the facts this rule encodes are written down (docs/knowledge/README.md). */
  kb: readonly Reference[];
  evaluate(ctx: RuleContext): RuleOutcome;
}

export const pass = (): RuleOutcome => ({ status: 'pass' });
export const notApplicable = (reason: string): RuleOutcome => ({
  status: 'not-applicable',
  reason,
});
export const unknown = (reason: string): RuleOutcome => ({ status: 'unknown', reason });
export const fail = (...findings: FindingDraft[]): RuleOutcome =>
  findings.length === 0 ? pass() : { status: 'fail', findings };
