/** Repairs applied on this node (the journal), newest first: what, where, when, how it ended. */
import type { HistoryEntry } from '../../../shared/api';
import { ErrorNotice } from '../components/ErrorNotice';
import { useState } from 'react';
import type { ApplyResult } from '../../../shared/api';
import { useCurrentSource, useHistory, useScan } from '../queries/use-doctor';
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
  const scan = useScan();
  const recording = source !== undefined && source.source !== 'live';

  return (
    <div className="screen history">
      <h1>History</h1>
      {recording && (
        <p className="note">
          {scan.data?.label ?? 'This'} is a recording: the repairs applied on that node are in its
          own journal (<code>cni-doctor history</code> there). Below are the repairs applied from
          this machine.
        </p>
      )}
      {history.error && <ErrorNotice error={history.error} retry={() => void history.refetch()} />}
      {history.data && history.data.length === 0 && (
        <p className="muted">No repair has been applied from this machine.</p>
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
                </td>
                <td>
                  {e.title}
                  <div className="muted small">
                    <code>{e.rule}</code> · {e.files.join(', ')}
                  </div>
                </td>
                <td>
                  {e.hostname}
                  {e.root !== '/' && (
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
