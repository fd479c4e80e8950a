/**
 * A finding's evidence: the first pieces, then "… N more" to see the rest (a stale-endpoint
 * finding carries 50; newcomer review, journey 4), and a note when the server shortened the list.
 */
import { useState } from 'react';
import type { Evidence } from '../../../../shared/model/finding';
import { EvidenceItem } from './Evidence';

/** Enough for every load-order finding whole; a long list folds after it. */
export const EVIDENCE_FIRST = 10;

export function EvidenceList({
  evidence,
  trimmed,
}: {
  evidence: readonly Evidence[];
  /** The full count when the server sent only the first pieces. */
  trimmed: number | undefined;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? evidence : evidence.slice(0, EVIDENCE_FIRST);
  const folded = evidence.length - EVIDENCE_FIRST;
  return (
    <div className="evidence-list" data-testid="evidence">
      {evidence.length === 0 && <p className="muted">No evidence attached.</p>}
      {shown.map((e, i) => (
        <EvidenceItem key={i} e={e} />
      ))}
      {folded > 0 && (
        <button
          type="button"
          className="link more"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? `Show the first ${EVIDENCE_FIRST} only` : `… ${folded} more`}
        </button>
      )}
      {trimmed !== undefined && (
        <p className="note">
          {evidence.length} of {trimmed.toLocaleString()} pieces of evidence came with this scan;
          the Inventory lists every object.
        </p>
      )}
    </div>
  );
}
