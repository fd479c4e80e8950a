/**
 * The nodes this machine can reach: kind, minikube and k3d node containers (found by their
 * labels), kubeconfig nodes, ssh hosts, and the one used last. Opening one scans it through its
 * transport; the other screens then show that node, and its report says how it was reached.
 */
import { ErrorNotice } from '../components/ErrorNotice';
import { useChooseSource, useTargets } from '../queries/use-doctor';

export function Targets() {
  const targets = useTargets();
  const choose = useChooseSource();
  return (
    <div className="screen targets">
      <h1>Targets</h1>
      <section className="card" aria-labelledby="targets-title">
        <h2 id="targets-title">Nodes you can reach</h2>
        <p>
          A node container of kind, minikube or k3d is scanned through its container engine (`docker
          exec`, `podman exec`); an ssh host with your own ssh configuration and keys.
        </p>
        <button type="button" onClick={() => void targets.refetch()} disabled={targets.isFetching}>
          Look again
        </button>
        {targets.isFetching && <p role="status">Looking for nodes…</p>}
        {targets.error && <ErrorNotice error={targets.error} />}
        {targets.data &&
          (targets.data.targets.length ? (
            <ul className="plain-list" aria-label="Reachable nodes">
              {targets.data.targets.map((t) => (
                <li key={t.targetId}>
                  <button
                    type="button"
                    className="link"
                    onClick={() => choose({ source: 'target', targetId: t.targetId })}
                  >
                    {t.target}
                  </button>{' '}
                  <span className="muted">
                    {t.what}
                    {t.canRepair ? '' : ' · scan only (repairs need a node container here)'}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No node containers, kubeconfig nodes or ssh hosts found.</p>
          ))}
        {targets.data && targets.data.notes.length > 0 && (
          <details>
            <summary>Not looked at ({targets.data.notes.length})</summary>
            <ul className="plain-list small">
              {targets.data.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </details>
        )}
      </section>
    </div>
  );
}
