/** Preconditions of the Windows rules: a Windows node whose judged runtime is containerd. */
import type { RuleContext, RuleOutcome } from '../types';
import { notApplicable, unknown } from '../types';
import type { RuntimeView } from '../derive';

export function windowsContainerd(ctx: RuleContext): RuntimeView | RuleOutcome {
  const s = ctx.snapshot;
  if (s.node.os !== 'windows') return notApplicable('a Windows node check');
  if (!s.containerd.known) return unknown(s.containerd.reason);
  const rt = ctx.derived.judged.find((r) => r.name === 'containerd');
  if (!rt) return notApplicable('containerd is not the runtime of this node');
  return rt;
}

export function isRuntime(x: RuntimeView | RuleOutcome): x is RuntimeView {
  return 'name' in x;
}
