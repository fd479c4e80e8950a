/**
 * The detail panel of one finding: summary, evidence, related findings, guidance and repairs.
 * Escape closes it and focus goes back to where it came from (handled in App).
 */
import { useEffect, useRef, useState } from 'react';
import type { Finding } from '../../../../shared/model/finding';
import type { ScanResponse } from '../../../../shared/api';
import { SeverityBadge } from '../../components/Badges';
import { CopyButton } from '../../components/CopyButton';
import { DetailResizer } from '../../components/DetailResizer';
import { findingMarkdown } from '../../../../shared/finding-markdown';
import { fixCommand } from '../../../../shared/report-html';
import { useView } from '../../state/view-store';
import { focusQuietly } from '../../lib/focus-rescue';
import { EvidenceList } from './EvidenceList';
import { RepairPanel } from './RepairPanel';
import { RepairedFinding } from './RepairedFinding';

export function FindingDetail({ scan, findingId }: { scan: ScanResponse; findingId: string }) {
  const close = useView((v) => v.closeFinding);
  const open = useView((v) => v.openFinding);
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  const repairHeading = useRef<HTMLHeadingElement>(null);
  const current = scan.report.findings.find((x) => x.id === findingId);
  // After a repair the rescan no longer has the finding: keep showing it (and the repair's result
  // and Undo) instead of pulling the panel away from under the user.
  const [remembered, setRemembered] = useState<Finding | undefined>(current);
  useEffect(() => {
    if (current) setRemembered(current);
  }, [current]);
  const f = current ?? (remembered?.id === findingId ? remembered : undefined);
  const gone = current === undefined && f !== undefined;

  useEffect(() => heading.current?.focus(), [findingId]);

  if (!f) return <RepairedFinding findingId={findingId} />;
  const trimmed = scan.evidenceTrimmed[f.id];
  const related = (f.relatedFindings ?? [])
    .map((id) => scan.report.findings.find((x) => x.id === id))
    .filter((x) => x !== undefined);

  return (
    <aside
      className="detail"
      aria-labelledby="detail-title"
      data-testid="finding-detail"
      ref={panel}
    >
      <DetailResizer panel={() => panel.current} />
      <div className="detail-head">
        <h2 id="detail-title" tabIndex={-1} ref={heading}>
          <SeverityBadge severity={f.severity} /> {f.title}
        </h2>
        <button type="button" className="close" onClick={close} aria-label="Close detail (Escape)">
          Close
        </button>
      </div>
      <p className="muted small">
        Rule <code>{f.rule}</code>
        {f.runtime ? ` · about ${f.runtime}` : ''}
        {f.kb ? ` · ${f.kb}` : ''}
      </p>
      <div className="row-actions">
        {f.repairs.length > 0 && (
          // The repair sits below the evidence; from the keyboard it is one key away.
          <button
            type="button"
            onClick={() => {
              repairHeading.current?.scrollIntoView({ block: 'start' });
              focusQuietly(repairHeading.current);
            }}
          >
            Go to the repair
          </button>
        )}
        <CopyButton
          label="Copy as Markdown"
          text={() => findingMarkdown(f, scan.report, scan.label)}
        />
        {f.repairs[0] && (
          <CopyButton
            label="Copy fix command"
            text={() => fixCommand(f.repairs[0]!.id, scan.report)}
          />
        )}
      </div>
      {gone && (
        <p className="notice ok" role="status">
          This finding is not in the latest scan any more.
        </p>
      )}
      <p className="summary">{f.summary}</p>

      <h3>Evidence</h3>
      <EvidenceList key={f.id} evidence={f.evidence} trimmed={trimmed} />

      {related.length > 0 && (
        <>
          <h3>Explained by</h3>
          <ul>
            {related.map((r) => (
              <li key={r.id}>
                <button type="button" className="link" onClick={() => open(r.id)}>
                  {r.title}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      {f.guidance && (
        <>
          <h3>What to do</h3>
          <p>{f.guidance}</p>
        </>
      )}

      {f.repairs.length > 0 && (
        <h3 id="detail-repair" tabIndex={-1} ref={repairHeading}>
          Repair
        </h3>
      )}
      {f.repairs.map((r) => (
        <RepairPanel key={r.id} repair={r} canApply={scan.canApply} />
      ))}
    </aside>
  );
}
