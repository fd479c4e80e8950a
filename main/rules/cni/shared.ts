/** Preconditions shared by the CNI rules: which runtimes to judge and whether they can be. */
import type { RuleContext, RuleOutcome } from '../types';
import { notApplicable, unknown } from '../types';
import { noJudgedRuntimeReason, type RuntimeView } from '../derive';

/**
 * The runtimes whose conf dir can be judged, or the outcome to report when none can:
 * not-applicable without a runtime, unknown when a conf dir could not be listed.
 */
export function judgedRuntimes(ctx: RuleContext): RuntimeView[] | RuleOutcome {
  const { snapshot: s, derived: d } = ctx;
  if (!s.containerd.known && !s.crio.known)
    return unknown(
      `the runtime configuration could not be read: ${s.containerd.known ? '' : s.containerd.reason}`,
    );
  if (d.judged.length === 0) {
    if (!s.containerd.known) return unknown(s.containerd.reason);
    return notApplicable(noJudgedRuntimeReason(s, d));
  }
  const blind = d.judged.find((r) => !r.load);
  if (blind) {
    const why =
      blind.confDir && !blind.confDir.entries.known
        ? blind.confDir.entries.reason
        : 'its conf dir was not examined';
    return unknown(`${blind.label}'s CNI conf dir could not be listed: ${why}`);
  }
  // rules.md: a check never reports pass when it could not look.
  const undecided = d.judged.find((r) => r.load?.undecided);
  if (undecided?.load?.undecided) {
    const f = undecided.load.undecided;
    const why = f.parse && !f.parse.known ? f.parse.reason : 'unreadable';
    return unknown(
      `${f.path} could not be read (${why}), and ${undecided.label} reads it before deciding which config to use`,
    );
  }
  return d.judged;
}

export function isOutcome(x: RuntimeView[] | RuleOutcome): x is RuleOutcome {
  return !Array.isArray(x);
}
