/**
 * What a repair did, in words: applied and verified, rolled back (and why, naming the findings
 * the rescan saw by their titles), refused, or undone afterwards. Read from the node's journal
 * (repairRecord), so a reload shows the same outcome, the rescan's before / after, Compare and
 * Undo; the apply's own answer is shown only until the journal answers, or when nothing was
 * journaled (a refusal).
 */
import { useEffect, useRef } from 'react';
import type { ApplyResult, RepairRecord } from '../../../../shared/api';
import type { JournalStatus } from '../../../../shared/model/repair';
import { focusQuietly } from '../../lib/focus-rescue';
import { ErrorNotice } from '../../components/ErrorNotice';
import { sourceKey } from '../../../../shared/source-key';
import { useCurrentSource } from '../../queries/use-doctor';
import { useRepairRecord } from '../../queries/use-repairs';
import { useComparePicks } from '../../state/compare-store';
import { useView } from '../../state/view-store';
import { BeforeAfter } from './BeforeAfter';
import { UndoConfirm } from './UndoConfirm';

type Outcome = ApplyResult['status'] | 'rollback-failed' | 'undo-failed' | 'unfinished';

const HEADLINE: Record<Outcome, string> = {
  applied: 'Applied and verified: the rescan no longer shows the problem.',
  'rolled-back': 'Rolled back: the repair did not hold, so every change was put back.',
  refused: 'Not applied: nothing on the node was changed.',
  undone: 'Undone: the files are back as they were before the repair.',
  'rollback-failed': 'Rollback incomplete: some changes could not be put back (see why below).',
  'undo-failed': 'Undo incomplete: some files could not be put back (see why below).',
  unfinished: 'Not finished: the journal says this repair stopped part way; History has it.',
};

function outcomeOf(s: JournalStatus): Outcome {
  if (s === 'verified') return 'applied';
  if (s === 'rolled-back' || s === 'undone' || s === 'rollback-failed' || s === 'undo-failed')
    return s;
  return 'unfinished';
}

/**
 * The scan the repair was planned from beside the node as it is now (scanned for the comparison:
 * the scan this page shows may be gone, other tabs scan too), compared at once on Compare.
 */
function CompareButton({ beforeScanId }: { beforeScanId: string }) {
  const source = useCurrentSource();
  if (!source) return null;
  return (
    <button
      type="button"
      onClick={() => {
        useComparePicks.getState().runNow(`scan:${beforeScanId}`, `src:${sourceKey(source)}`);
        useView.getState().go('compare');
      }}
    >
      Compare before / after
    </button>
  );
}

export function RepairOutcome({
  result,
  entryId,
}: {
  result?: ApplyResult;
  entryId?: string | null;
}) {
  const id = entryId ?? result?.entry ?? null;
  const record = useRepairRecord(id);
  const r: RepairRecord | undefined = record.data;
  const status: Outcome = r ? outcomeOf(r.status) : (result?.status ?? 'unfinished');
  const v = r ? r.verification : (result?.verification ?? null);
  const reason = r ? r.reason : (result?.reason ?? null);
  const rollback = r ? r.rollback : (result?.rollback ?? null);
  // The result is where the user's Apply or Undo lands; not when they have moved elsewhere.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const a = document.activeElement;
    const here = box.current?.closest('.repair');
    if (a === null || a === document.body || (here && here.contains(a))) focusQuietly(box.current);
  }, [status]);
  if (!r && !result) {
    if (record.error)
      return <ErrorNotice error={record.error} retry={() => void record.refetch()} />;
    return record.isPending ? <p role="status">Reading the node's repair journal…</p> : null;
  }
  const undone = status === 'undone';
  return (
    <div
      ref={box}
      tabIndex={-1}
      className={`notice ${status === 'applied' ? 'ok' : undone ? '' : 'error'}`}
      role="status"
      data-outcome={status}
      data-entry={id ?? undefined}
    >
      <p>
        <strong>{HEADLINE[status]}</strong>
      </p>
      {!undone && status !== 'applied' && reason && <p>Why: {reason}</p>}
      {!undone && v && v.newFindingTitles && v.newFindingTitles.length > 0 && (
        <>
          <p>The rescan found a new error:</p>
          <ul aria-label="New errors">
            {v.newFindingTitles.map((f) => (
              <li key={f.id}>{f.title}</li>
            ))}
          </ul>
        </>
      )}
      {!undone && v && !v.resolved && status === 'rolled-back' && (
        <p>The problem this repair targets was still there after the rescan.</p>
      )}
      {rollback && rollback.restored.length > 0 && !undone && (
        <p className="small">
          Put back: {rollback.restored.join(', ')}
          {rollback.services.length > 0 && `; restarted again: ${rollback.services.join(', ')}`}
        </p>
      )}
      {undone && r?.undo && r.undo.restored.length > 0 && (
        <p className="small">
          Put back by Undo: {r.undo.restored.join(', ')}
          {r.undo.services.length > 0 && `; restarted again: ${r.undo.services.join(', ')}`}
        </p>
      )}
      {result?.elevation && (
        <p>
          Needs root/Administrator for: {result.elevation.steps.join('; ')}. Run{' '}
          <code>{result.elevation.rerun}</code>.
        </p>
      )}
      {v?.rescan && <BeforeAfter rescan={v.rescan} />}
      <div className="row-actions">
        {r?.beforeScanId && <CompareButton beforeScanId={r.beforeScanId} />}
        {status === 'applied' && id && (
          <UndoConfirm entryId={id} title={r?.title ?? result?.repair ?? id} />
        )}
      </div>
      {record.error && <ErrorNotice error={record.error} retry={() => void record.refetch()} />}
    </div>
  );
}
