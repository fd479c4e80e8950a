/**
 * Every check of the run with its status, including the ones that could not determine an answer
 * and why: a check never shows "pass" when it could not look.
 */
import { useMemo, useState } from 'react';
import type { ScanResponse } from '../../../shared/api';
import type { CheckStatus } from '../../../shared/model/finding';
import { STATUS_LABEL, StatusBadge } from '../components/Badges';
import { useRules } from '../queries/use-doctor';

const ORDER: CheckStatus[] = ['fail', 'unknown', 'pass', 'not-applicable'];

export function Checks({ scan }: { scan: ScanResponse }) {
  const rules = useRules();
  const ruleMap = useMemo(() => new Map((rules.data ?? []).map((r) => [r.id, r])), [rules.data]);
  const [only, setOnly] = useState<CheckStatus | 'all'>('all');
  const checks = [...scan.report.checks].sort(
    (a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status),
  );
  const count = (s: CheckStatus): number => scan.report.checks.filter((c) => c.status === s).length;
  const shown = only === 'all' ? checks : checks.filter((c) => c.status === only);

  return (
    <div className="screen checks">
      <h1>Checks</h1>
      <p>
        Every rule runs on every scan. <strong>Could not determine</strong> means its inputs could
        not be read (permission denied, not recorded in a bundle): that is not a pass.
      </p>
      <div className="filters" role="group" aria-label="Show checks by status">
        <button type="button" aria-pressed={only === 'all'} onClick={() => setOnly('all')}>
          All ({checks.length})
        </button>
        {ORDER.map((s) => (
          <button key={s} type="button" aria-pressed={only === s} onClick={() => setOnly(s)}>
            {STATUS_LABEL[s]} ({count(s)})
          </button>
        ))}
      </div>
      <table className="plain checks-table">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Check</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((c) => (
            <tr key={c.rule} className={`st-row-${c.status}`}>
              <td>
                <StatusBadge status={c.status} />
              </td>
              <td>
                {/* Rule titles name the problem; "looks for" makes pass and fail both read right. */}
                <div>
                  <span className="muted">Looks for: </span>
                  {ruleMap.get(c.rule)?.title ?? c.rule}
                </div>
                <code className="muted small">{c.rule}</code>
              </td>
              <td>
                {c.reason ??
                  (c.status === 'fail'
                    ? 'found: see Findings'
                    : c.status === 'pass'
                      ? 'not found on this node'
                      : '')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
