/** Built-in recorded nodes: try the doctor without a cluster. */
import { ErrorNotice } from '../components/ErrorNotice';
import { useChooseSource, useDemos } from '../queries/use-doctor';

export function Demo() {
  const demos = useDemos();
  const choose = useChooseSource();
  return (
    <div className="screen demo">
      <h1>Demo nodes</h1>
      <p>
        Recorded nodes that ship with the app. Opening one scans it exactly like a support bundle.
      </p>
      {demos.error && <ErrorNotice error={demos.error} retry={() => void demos.refetch()} />}
      <ul className="demo-list">
        {demos.data?.map((d) => (
          <li key={d.id} className="card">
            <h2>{d.title}</h2>
            <p className="muted small">{d.os}</p>
            <p>{d.description}</p>
            <button
              type="button"
              className="primary"
              onClick={() => choose({ source: 'demo', demoId: d.id })}
              data-demo={d.id}
            >
              Open this demo
            </button>
          </li>
        ))}
      </ul>
      {demos.data?.length === 0 && (
        <p className="muted">No demo bundles are installed with this build.</p>
      )}
    </div>
  );
}
