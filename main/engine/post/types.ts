/**
 * The post-evaluation pipeline: after every rule has run, steps that look across findings
 * (which finding a log line belongs to, notes that concern several rules, the one ranking of
 * causes). Each step is pure: it gets the assembled checks and findings and returns them.
 */
import type { CheckResult, Finding } from '../../../shared/model/finding';
import type { Snapshot } from '../../../shared/model/snapshot';
import type { Derived } from '../../rules/derive';

export interface Assembly {
  checks: CheckResult[];
  findings: Finding[];
}

export interface PostContext {
  snapshot: Snapshot;
  derived: Derived;
}

export interface PostStep {
  /** Short name for tests and for the order below (evaluate.ts POST_STEPS). */
  id: string;
  run(assembly: Assembly, ctx: PostContext): Assembly;
}
