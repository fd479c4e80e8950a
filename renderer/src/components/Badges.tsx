/** Severity and check-status labels: colour plus words, never colour alone. */
import type { CheckStatus, Severity } from '../../../shared/model/finding';

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`badge sev-${severity}`}>{severity}</span>;
}

export const STATUS_LABEL: Record<CheckStatus, string> = {
  pass: 'pass',
  fail: 'fail',
  'not-applicable': 'not applicable',
  unknown: 'could not determine',
};

export function StatusBadge({ status }: { status: CheckStatus }) {
  return <span className={`badge st-${status}`}>{STATUS_LABEL[status]}</span>;
}
