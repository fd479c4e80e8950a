/**
 * The safety net behind "could not look is never a cause" (issue 22, point 1): a finding whose
 * evidence is itself a permission error (a CRI dial refused with EACCES, a path whose state is
 * "permission denied") is dropped, with its repairs, and its check becomes `unknown` with the
 * reason. Rules are meant to decide this themselves (cri.endpoint.unreachable does); this step
 * keeps a rule written later from offering a restart because the scan was not root.
 */
import type { Evidence } from '../../../shared/model/finding';
import { accessDeniedReason, isAccessDenied } from '../../conventions/access-denied';
import type { PostStep } from './types';

/** The evidence that shows only that the scan was refused, or undefined. */
function deniedEvidence(e: Evidence): string | undefined {
  if (e.kind === 'cri' && e.field === 'error' && isAccessDenied(e.value)) return e.endpoint;
  if (e.kind === 'path' && isAccessDenied(e.state)) return e.path;
  return undefined;
}

export const couldNotLookStep: PostStep = {
  id: 'could-not-look',
  run(a, { snapshot }) {
    const droppedBy = new Map<string, string[]>();
    const findings = a.findings.filter((f) => {
      const denied = f.evidence.map(deniedEvidence).filter((x): x is string => x !== undefined);
      if (denied.length === 0) return true;
      droppedBy.set(f.rule, [...(droppedBy.get(f.rule) ?? []), ...denied]);
      return false;
    });
    if (droppedBy.size === 0) return a;
    const checks = a.checks.map((c) => {
      const what = droppedBy.get(c.rule);
      if (!what || findings.some((f) => f.rule === c.rule)) return c;
      return {
        rule: c.rule,
        status: 'unknown' as const,
        reason: accessDeniedReason([...new Set(what)].join(', '), snapshot.node.os),
      };
    });
    return { checks, findings };
  },
};
