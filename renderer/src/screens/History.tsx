/** Repairs applied on this node (the journal), newest first, each with Undo. */
import { ErrorNotice } from '../components/ErrorNotice';
import { useHistory, useUndo } from '../queries/use-doctor';

export function History() {
  const history = useHistory();
  const undo = useUndo();

  return (
    <div className="screen history">
      <h1>History</h1>
      {history.error && <ErrorNotice error={history.error} retry={() => void history.refetch()} />}
      {history.data && history.data.length === 0 && (
        <p className="muted">No repair has been applied on this node.</p>
      )}
      {history.data && history.data.length > 0 && (
        <table className="plain">
          <thead>
            <tr>
              <th scope="col">Applied</th>
              <th scope="col">Repair</th>
              <th scope="col">Status</th>
              <th scope="col">Files</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {history.data.map((e) => (
              <tr key={e.id}>
                <td>{e.appliedAt ? new Date(e.appliedAt).toLocaleString() : 'not applied'}</td>
                <td>
                  <code>{e.repair}</code>
                  <div className="muted small">{e.rule}</div>
                </td>
                <td>{e.status}</td>
                <td>
                  {e.files.map((f) => (
                    <div key={f}>
                      <code>{f}</code>
                    </div>
                  ))}
                </td>
                <td>
                  {(e.status === 'applied' || e.status === 'verified') && (
                    <button
                      type="button"
                      disabled={undo.isPending}
                      onClick={() => undo.mutate(e.id)}
                    >
                      Undo
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {undo.error && <ErrorNotice error={undo.error} />}
      {undo.data && <p role="status">Undo: {undo.data.status}</p>}
    </div>
  );
}
