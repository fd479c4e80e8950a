/** Preconditions shared by the CNI rules: which runtimes to judge and whether they can be. */
import type { FindingDraft, RuleContext, RuleOutcome } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { noJudgedRuntimeReason, type ConfLoad, type RuntimeView } from '../derive';
import type { CniConfDir } from '../../../shared/model/snapshot';

/** A judged runtime whose conf dir was listed and loaded (judgedRuntimes checks both). */
export type LoadedRuntime = RuntimeView & { confDir: CniConfDir; load: ConfLoad };

function isLoaded(rt: RuntimeView): rt is LoadedRuntime {
  return rt.confDir !== undefined && rt.load !== undefined;
}

/**
 * The runtimes whose conf dir can be judged, or the outcome to report when none can:
 * not-applicable without a runtime, unknown when a conf dir could not be listed.
 */
export function judgedRuntimes(ctx: RuleContext): LoadedRuntime[] | RuleOutcome {
  const { snapshot: s, derived: d } = ctx;
  if (!s.containerd.known && !s.crio.known)
    return unknown(
      `the runtime configuration could not be read: ${s.containerd.known ? '' : s.containerd.reason}`,
    );
  if (d.judged.length === 0) {
    if (!s.containerd.known) return unknown(s.containerd.reason);
    return notApplicable(noJudgedRuntimeReason(s, d));
  }
  const blind = d.judged.find((r) => !isLoaded(r));
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
  return d.judged.filter(isLoaded);
}

export function isOutcome(x: LoadedRuntime[] | RuleOutcome): x is RuleOutcome {
  return !Array.isArray(x);
}

/**
 * The usual shape of a CNI rule: judge each runtime this rule can judge (or report why none can),
 * collect the findings, pass when there are none. `judge` returns its findings, or an outcome
 * (unknown) when this runtime cannot be decided and so neither can the rule.
 */
export function judgeEachRuntime(
  ctx: RuleContext,
  judge: (rt: LoadedRuntime) => FindingDraft[] | RuleOutcome,
): RuleOutcome {
  const rts = judgedRuntimes(ctx);
  if (isOutcome(rts)) return rts;
  const findings: FindingDraft[] = [];
  for (const rt of rts) {
    const r = judge(rt);
    if (!Array.isArray(r)) return r;
    findings.push(...r);
  }
  return findings.length ? fail(...findings) : pass();
}
