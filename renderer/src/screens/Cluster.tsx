/**
 * The cluster as the user sees it: every node with its Ready condition, runtime and CNI, and the
 * pods stuck in sandbox creation on it, grouped by the log signature their latest
 * FailedCreatePodSandBox message matches. "Scan this node" scans it through a short-lived kubectl
 * debug pod and ties each stuck pod to the finding that explains it; "Open" shows the node in the
 * other screens. Needs kubectl and an API server; without one the screen says so and the node
 * screens work as always.
 */
import { useState } from 'react';
import type { ClusterNodeView, NodeConditionView, StuckPodView } from '../../../shared/cluster';
import { ErrorNotice } from '../components/ErrorNotice';
import {
  useAddTarget,
  useChooseSource,
  useCluster,
  useClusterScanNode,
} from '../queries/use-doctor';

function cond(c: NodeConditionView): string {
  return [c.reason, c.message].filter(Boolean).join(': ');
}

function Pod({ p }: { p: StuckPodView }) {
  return (
    <li>
      <code>
        {p.namespace}/{p.name}
      </code>
      {p.count !== undefined && <span className="muted"> ×{p.count}</span>}
      {p.message !== undefined && <p className="muted small cluster-message">{p.message}</p>}
      {p.explainedBy && (
        <p className="small">
          Explained by{' '}
          <strong className={`sev-${p.explainedBy.severity}`}>{p.explainedBy.title}</strong>{' '}
          <code>{p.explainedBy.rule}</code> <span className="muted">({p.explainedBy.how})</span>
        </p>
      )}
    </li>
  );
}

function NodeCard({ node, context }: { node: ClusterNodeView; context?: string }) {
  const scan = useClusterScanNode();
  const add = useAddTarget();
  const choose = useChooseSource();
  const n = scan.data ?? node;
  const id = `node-${n.name.replace(/[^a-z0-9-]/g, '-')}`;
  const open = () =>
    add.mutate(`kubectl:${context !== undefined ? `${context}/` : ''}${n.name}`, {
      onSuccess: (entry) => choose({ source: 'target', targetId: entry.targetId }),
    });
  return (
    <section className="card cluster-node" aria-labelledby={id}>
      <h2 id={id}>{n.name}</h2>
      <dl className="facts">
        <dt>Ready</dt>
        <dd className={n.ready.status === 'True' ? '' : 'sev-error'}>
          {n.ready.status === 'True' ? 'Ready' : `Not ready — ${cond(n.ready) || n.ready.status}`}
        </dd>
        <dt>Runtime</dt>
        <dd>{n.runtime ?? 'not reported'}</dd>
        <dt>CNI</dt>
        <dd>{n.cni ? `${n.cni.name} (${n.cni.from})` : 'not seen from the API (scan the node)'}</dd>
        {n.cniCondition && (
          <>
            <dt>CNIConfigProblem</dt>
            <dd className={n.cniCondition.status === 'True' ? 'sev-error' : ''}>
              {n.cniCondition.status === 'True'
                ? cond(n.cniCondition)
                : `no problem (${n.cniCondition.reason ?? 'reported by the cni-doctor DaemonSet'})`}
            </dd>
          </>
        )}
      </dl>
      <p>
        <button
          type="button"
          onClick={() => scan.mutate({ node: n.name, ...(context !== undefined && { context }) })}
          disabled={scan.isPending}
        >
          Scan this node
        </button>{' '}
        <button type="button" onClick={open} disabled={add.isPending}>
          Open in the node screens
        </button>
      </p>
      {scan.isPending && <p role="status">Scanning {n.name} through a kubectl debug pod…</p>}
      {scan.error && <ErrorNotice error={scan.error} />}
      {add.error && <ErrorNotice error={add.error} />}
      {n.scan && (
        <p role="status" className="small">
          {n.scan.error !== undefined
            ? `The scan through ${n.scan.target} failed: ${n.scan.error}`
            : `Scanned through ${n.scan.target}: ${n.scan.counts.error} error(s), ${n.scan.counts.warning} warning(s)${n.scan.top ? `; top finding: ${n.scan.top.title} (${n.scan.top.rule})` : ''}.`}
        </p>
      )}
      {n.stuckCount === 0 ? (
        <p className="muted">No pod stuck in sandbox creation.</p>
      ) : (
        n.stuck.map((g) => (
          <div key={g.key} className="cluster-group">
            <h3>
              {g.pods.length} stuck: {g.title}
              {g.key.includes('.') && <code className="muted small"> {g.key}</code>}
            </h3>
            <ul className="plain-list">
              {g.pods.map((p) => (
                <Pod key={`${p.namespace}/${p.name}`} p={p} />
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}

export function Cluster() {
  const [context, setContext] = useState('');
  const [asked, setAsked] = useState<string | undefined>(undefined);
  const view = useCluster(asked);
  const stuck = view.data?.nodes.reduce((a, n) => a + n.stuckCount, 0) ?? 0;
  return (
    <div className="screen cluster">
      <h1>Cluster</h1>
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(context.trim() === '' ? undefined : context.trim());
        }}
      >
        <label htmlFor="cluster-context">kubeconfig context</label>{' '}
        <input
          id="cluster-context"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder="the current one"
          value={context}
          maxLength={253}
          onChange={(e) => setContext(e.target.value)}
        />{' '}
        <button type="submit">Show</button>{' '}
        <button type="button" onClick={() => void view.refetch()} disabled={view.isFetching}>
          Ask again
        </button>
        <p className="muted small">
          Read through your kubectl: nodes, pods and FailedCreatePodSandBox events. Scanning a node
          creates one short-lived, labelled debug pod on it and deletes it.
        </p>
      </form>
      {view.isFetching && <p role="status">Asking the API server…</p>}
      {view.error && <ErrorNotice error={view.error} />}
      {view.data && (
        <>
          <p role="status">
            {view.data.nodes.length} node(s), {stuck} pod(s) stuck in sandbox creation.
          </p>
          {view.data.nodes.map((n) => (
            <NodeCard key={n.name} node={n} {...(asked !== undefined && { context: asked })} />
          ))}
          {view.data.elsewhere.length > 0 && (
            <p className="muted">
              {view.data.elsewhere.length} stuck pod(s) on nodes the API server does not list.
            </p>
          )}
          {view.data.notes.map((note) => (
            <p key={note} className="notice">
              {note}
            </p>
          ))}
        </>
      )}
    </div>
  );
}
