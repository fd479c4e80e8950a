/**
 * The report's `access` note: which checks could not look because the scan lacked privileges.
 * Built from the checks' reasons (rules say "permission denied on …" through
 * main/conventions/access-denied.ts), so every door shows the same list.
 */
import type { CheckResult } from '../../shared/model/finding';
import type { AccessNote } from '../../shared/model/report';
import type { Snapshot } from '../../shared/model/snapshot';
import { isAccessDenied } from '../conventions/access-denied';

export function accessNote(
  snapshot: Snapshot,
  checks: readonly CheckResult[],
): AccessNote | undefined {
  const denied = checks
    .filter((c) => c.status === 'unknown' && isAccessDenied(c.reason))
    .map((c) => ({ rule: c.rule, reason: c.reason ?? '' }));
  if (denied.length === 0) return undefined;
  return {
    ...(snapshot.node.elevated !== undefined && { elevated: snapshot.node.elevated }),
    needs: snapshot.node.os === 'windows' ? 'Administrator' : 'root',
    denied,
  };
}
