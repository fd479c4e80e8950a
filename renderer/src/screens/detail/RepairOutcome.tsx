/**
 * What a repair did, in words: applied and verified, rolled back (and why, naming the findings
 * the rescan saw by their titles), refused, or undone afterwards. After Undo the panel shows the
 * undone state, not the earlier success.
 */
import { useEffect, useRef } from 'react';
import type { ApplyResult } from '../../../../shared/api';
import { focusQuietly } from '../../lib/focus-rescue';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useUndo } from '../../queries/use-doctor';

const HEADLINE: Record<ApplyResult['status'], string> = {
  applied: 'Applied and verified: the rescan no longer shows the problem.',
  'rolled-back': 'Rolled back: the repair did not hold, so every change was put back.',
  refused: 'Not applied: nothing on the node was changed.',
  undone: 'Undone: the files are back as they were before the repair.',
};

export function RepairOutcome({ result }: { result: ApplyResult }) {
  const undo = useUndo();
  const undone = undo.data?.status === 'undone';
  const status = undone ? 'undone' : result.status;
  const v = result.verification;
  // The result is where the user's Apply or Undo lands; not when they have moved elsewhere.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const a = document.activeElement;
    const here = box.current?.closest('.repair');
    if (a === null || a === document.body || (here && here.contains(a))) focusQuietly(box.current);
  }, [status]);
  return (
    <div
      ref={box}
      tabIndex={-1}
      className={`notice ${status === 'applied' ? 'ok' : status === 'undone' ? '' : 'error'}`}
      role="status"
      data-outcome={status}
    >
      <p>
        <strong>{HEADLINE[status]}</strong>
      </p>
      {!undone && result.status !== 'applied' && result.reason && <p>Why: {result.reason}</p>}
      {!undone && v && v.newFindingTitles && v.newFindingTitles.length > 0 && (
        <>
          <p>The rescan found a new error:</p>
          <ul>
            {v.newFindingTitles.map((f) => (
              <li key={f.id}>{f.title}</li>
            ))}
          </ul>
        </>
      )}
      {!undone && v && !v.resolved && result.status === 'rolled-back' && (
        <p>The problem this repair targets was still there after the rescan.</p>
      )}
      {result.rollback && result.rollback.restored.length > 0 && !undone && (
        <p className="small">
          Put back: {result.rollback.restored.join(', ')}
          {result.rollback.services.length > 0 &&
            `; restarted again: ${result.rollback.services.join(', ')}`}
        </p>
      )}
      {result.elevation && (
        <p>
          Needs root/Administrator for: {result.elevation.steps.join('; ')}. Run{' '}
          <code>{result.elevation.rerun}</code>.
        </p>
      )}
      {result.status === 'applied' && result.entry && !undone && (
        <button
          type="button"
          disabled={undo.isPending}
          onClick={() => result.entry && undo.mutate(result.entry)}
        >
          Undo
        </button>
      )}
      {undo.data && !undone && <p>Undo did not complete: {undo.data.reason}</p>}
      {undo.error && <ErrorNotice error={undo.error} />}
    </div>
  );
}
