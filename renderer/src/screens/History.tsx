/**
 * Repairs applied on the node in focus (its own journal), newest first: what, where, when, how it
 * ended. A recording keeps no journal here; its node's journal is on that node.
 */
import { useState } from 'react';
import type { ApplyResult, HistoryEntry } from '../../../shared/api';
import { ErrorNotice } from '../components/ErrorNotice';
import { nodeLine } from '../lib/node-focus';
import { useCurrentSource, useHistory, useNodeFocus } from '../queries/use-doctor';
import { UndoConfirm } from './detail/UndoConfirm';

const OUTCOME: Partial<Record<HistoryEntry['status'], string>> = {
  verified: 'applied and verified',
  applied: 'applied, not yet verified',
  'rolled-back': 'rolled back',
  'rollback-failed': 'rollback failed',
  undone: 'undone',
  'undo-failed': 'undo failed',
};

const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '—');

export function History() {
  const history = useHistory();
  // Undo is previewed and confirmed in the row (UndoConfirm); its answer is said below the table.
  const [undone, setUndone] = useState<ApplyResult | null>(null);
  const source = useCurrentSource();
  const focus = useNodeFocus();
  const recording = source?.source === 'bundle' || source?.source === 'demo';
  const via = focus?.via ?? 'this machine';

  return (
    <div className="screen history">
      <h1>History</h1>
      {focus && (
        <p data-testid="history-node">
          {recording
            ? `${nodeLine(focus)}. This is a recording: the repairs applied on that node are in its own journal there (cni-doctor history on the node).`
            : `Repairs applied on ${focus.name} (via ${via}), from the node's own journal.`}
        </p>
      )}
      {history.error && <ErrorNotice error={history.error} retry={() => void history.refetch()} />}
      {!recording && history.data && history.data.length === 0 && (
        <p className="muted">No repair has been applied on {focus?.name ?? 'this node'}.</p>
      )}
      {history.data && history.data.length > 0 && (
        <table className="plain">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Repair</th>
              <th scope="col">Node</th>
              <th scope="col">Outcome</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {history.data.map((e) => (
              <tr key={e.id} data-entry={e.id}>
                <td>
                  {when(e.createdAt)}
                  {e.finishedAt && e.finishedAt !== e.createdAt && (
                    <div className="muted small">ended {when(e.finishedAt)}</div>
                  )}
                  {e.undoneAt && <div className="muted small">undone {when(e.undoneAt)}</div>}
                </td>
                <td>
                  {e.title}
                  <div className="muted small">
                    <code>{e.rule}</code> · {e.files.join(', ')}
                  </div>
                </td>
                <td>
                  {e.hostname}
                  <div className="muted small">via {via}</div>
                  {source?.source === 'live' && e.root !== '/' && (
                    <div className="muted small">
                      disk at <code>{e.root}</code>
                    </div>
                  )}
                </td>
                <td>
                  {OUTCOME[e.status] ?? e.status}
                  {e.reason && <div className="small">{e.reason}</div>}
                </td>
                <td>
                  {(e.status === 'applied' || e.status === 'verified') && (
                    <UndoConfirm
                      entryId={e.id}
                      title={e.title}
                      label={`Undo ${e.title}…`}
                      onDone={setUndone}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {undone && <p role="status">Undo: {undone.status}</p>}
    </div>
  );
}
