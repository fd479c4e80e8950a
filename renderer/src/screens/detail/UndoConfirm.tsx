/**
 * Undo, previewed and confirmed like a fix (newcomer review 1.3: one click used to re-break the
 * node): "Undo…" asks the engine what undo would put back — each file, its diff from what the node
 * holds now, the services restarted — and why it would be refused now; only "Undo" in the
 * confirmation runs it. The engine checks everything again under the node's lock.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApplyResult, UndoChange } from '../../../../shared/api-repair';
import { ErrorNotice } from '../../components/ErrorNotice';
import { focusQuietly } from '../../lib/focus-rescue';
import { nodeWords } from '../../lib/node-focus';
import { useNodeFocus, useUndo } from '../../queries/use-doctor';
import { useUndoPreview } from '../../queries/use-repairs';
import { DiffView } from './DiffView';
import '../../styles/repair.css';

function changeWords(c: UndoChange): string {
  if (c.action === 'rename-back') return `Rename ${c.from ?? 'the renamed file'} back to ${c.path}`;
  if (c.action === 'remove') return `Remove ${c.path} (the repair created it)`;
  return `Put back ${c.path} as it was before the repair`;
}

export function UndoConfirm(props: {
  entryId: string;
  title: string;
  /** The button's accessible name (History names the repair). */
  label?: string;
  onDone?: (r: ApplyResult) => void;
}) {
  const [open, setOpen] = useState(false);
  const preview = useUndoPreview(props.entryId, open);
  const undo = useUndo();
  const focus = useNodeFocus();
  const question = useRef<HTMLParagraphElement>(null);
  const p = preview.data;
  useEffect(() => {
    if (open && p) focusQuietly(question.current);
  }, [open, p]);

  if (!open)
    return (
      <button type="button" aria-label={props.label} onClick={() => setOpen(true)}>
        Undo…
      </button>
    );
  return (
    <div className="confirm undo-preview" role="group" aria-label="Confirm undo">
      {preview.isPending && <p role="status">Reading the journal and the files…</p>}
      {preview.error && <ErrorNotice error={preview.error} retry={() => void preview.refetch()} />}
      {p && (
        <>
          <p ref={question} tabIndex={-1}>
            <strong>
              Undo “{props.title}” on {focus ? nodeWords(focus) : 'this node'}?
            </strong>{' '}
            This puts the node back as it was before the repair, which brings back the problem it
            fixed.
          </p>
          {p.changes.length + p.actions.length > 0 && (
            <ol className="steps" aria-label="What undo does">
              {p.changes.map((c) => (
                <li key={`${c.action}:${c.path}`}>{changeWords(c)}</li>
              ))}
              {p.actions.map((a) => (
                <li key={a}>{a}</li>
              ))}
              {p.services.length > 0 && <li>Then restart {p.services.join(', ')}</li>}
            </ol>
          )}
          {p.changes
            .filter((c) => c.diff !== '')
            .map((c) => (
              <DiffView key={c.path} path={c.path} diff={c.diff} />
            ))}
          {p.changes.some((c) => c.action === 'rename-back' && c.diff === '') && (
            <p className="muted small">A renamed file keeps its content: nothing in it changes.</p>
          )}
          {p.refusedBecause.length > 0 ? (
            <div className="notice error" role="alert">
              <p>Undo would be refused now, and nothing would be changed:</p>
              <ul>
                {p.refusedBecause.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </div>
          ) : (
            !undo.data && (
              <button
                type="button"
                className="primary"
                disabled={undo.isPending}
                // The promise, not mutate's callbacks: those do not run once the row that asked
                // has gone, and an undone entry's row loses its Undo at once.
                onClick={() =>
                  void undo
                    .mutateAsync(props.entryId)
                    .then((r) => props.onDone?.(r))
                    .catch(() => undefined)
                }
              >
                Undo
              </button>
            )
          )}{' '}
          {!undo.data && (
            <button type="button" disabled={undo.isPending} onClick={() => setOpen(false)}>
              Cancel
            </button>
          )}
        </>
      )}
      {undo.data && undo.data.status !== 'undone' && (
        <p role="status">Undo did not complete: {undo.data.reason}</p>
      )}
      {undo.error && <ErrorNotice error={undo.error} />}
    </div>
  );
}
