/**
 * A finding the current scan no longer has, opened from its address (a reload after a repair,
 * newcomer review 1.4): the node's journal says which repair took it away, and its outcome, the
 * rescan's before / after, Compare and Undo are shown from there.
 */
import { useEffect, useRef } from 'react';
import { useHistory } from '../../queries/use-doctor';
import { useView } from '../../state/view-store';
import { RepairOutcome } from './RepairOutcome';

export function RepairedFinding({ findingId }: { findingId: string }) {
  const close = useView((v) => v.closeFinding);
  const history = useHistory();
  const heading = useRef<HTMLHeadingElement>(null);
  // Newest first: the last repair made for this finding on this node.
  const entry = history.data?.find((e) => e.findingId === findingId);
  useEffect(() => heading.current?.focus(), [entry?.id]);

  if (!entry) {
    return (
      <aside className="detail" aria-label="Finding detail">
        {history.isPending ? (
          <p role="status">Looking in the node's repair journal…</p>
        ) : (
          <p>This finding is not in the current scan.</p>
        )}
        <button type="button" onClick={close}>
          Close
        </button>
      </aside>
    );
  }
  return (
    <aside className="detail" aria-labelledby="detail-title" data-testid="finding-detail">
      <div className="detail-head">
        <h2 id="detail-title" tabIndex={-1} ref={heading}>
          {entry.title}
        </h2>
        <button type="button" className="close" onClick={close} aria-label="Close detail (Escape)">
          Close
        </button>
      </div>
      <p className="notice ok" role="status">
        This finding is not in the latest scan any more. The node's repair journal has the repair
        made for it:
      </p>
      <section className="repair card" aria-label={`Repair: ${entry.title}`}>
        <h3>{entry.title}</h3>
        <p className="muted small">
          <code>{entry.repair}</code> · {new Date(entry.createdAt).toLocaleString()}
        </p>
        <RepairOutcome entryId={entry.id} />
      </section>
    </aside>
  );
}
