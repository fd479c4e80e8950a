/**
 * The node at a glance, with the one most likely cause on top (summary.topFindingId): what a
 * stuck-sandbox hunt should look at first.
 */
import type { ScanResponse } from '../../../shared/api';
import type { NodeSummary } from '../../../shared/model/summary';
import type { UnexplainedLogLines } from '../../../shared/model/report';
import { logLineLocation } from '../../../shared/log-location';
import { SeverityBadge } from '../components/Badges';
import { WindowsChain } from '../components/WindowsChain';
import { ExplainBox } from '../components/ExplainBox';
import { useView } from '../state/view-store';

function Ready({ value }: { value: boolean | undefined }) {
  if (value === undefined) return <span className="badge st-unknown">unknown</span>;
  return (
    <span className={`badge ${value ? 'st-pass' : 'st-fail'}`}>{value ? 'true' : 'false'}</span>
  );
}

function NodeFacts({ s }: { s: NodeSummary }) {
  return (
    <dl className="facts">
      <dt>Node OS</dt>
      <dd>
        {s.os}
        {s.osVersion ? ` (${s.osVersion})` : ''}
      </dd>
      <dt>Runtime</dt>
      <dd>
        {s.runtimes.length
          ? s.runtimes
              .map(
                (r) =>
                  `${r.name}${r.version ? ` ${r.version}` : ''}${r.endpoint ? ` at ${r.endpoint}` : ''}`,
              )
              .join('; ')
          : 'none found'}
      </dd>
      <dt>kubelet</dt>
      <dd>
        {s.kubelet
          ? `${s.kubelet.version ?? 'version unknown'}${s.kubelet.endpoint ? ` → ${s.kubelet.endpoint}` : ''}`
          : 'not found'}
      </dd>
      <dt>CNI in use</dt>
      <dd>
        {s.cniInUse
          ? `${s.cniInUse.file ?? 'no valid config'} in ${s.cniInUse.confDir}${s.cniInUse.network ? ` (network "${s.cniInUse.network}")` : ''}${s.cniInUse.plugins.length ? `: ${s.cniInUse.plugins.join(', ')}` : ''}`
          : 'could not determine'}
      </dd>
      <dt>CNI loader</dt>
      <dd>
        {s.runtimes
          .map((r) => r.cniLoader?.note)
          .filter((n): n is string => n !== undefined)
          .join('; ') || 'not known'}
      </dd>
    </dl>
  );
}

/** Matched log lines no finding quotes: the literal errors, never hidden in a viewer (issue 22). */
function UnexplainedLines({ u }: { u: UnexplainedLogLines }) {
  const openViewer = useView((v) => v.openViewer);
  return (
    <section className="card" aria-labelledby="unexplained-title" data-testid="unexplained-logs">
      <h2 id="unexplained-title">Log lines no finding explains ({u.total})</h2>
      <p className="muted small">
        A log signature matched these lines, but no check found their cause on the node now: they
        may be old, or point at something cni-doctor does not check.
        {u.total > u.lines.length ? ` The newest ${u.lines.length} are shown.` : ''}
      </p>
      <ul className="unexplained">
        {u.lines.map((l) => (
          <li key={`${l.path}:${l.line}`}>
            <strong>{l.title}</strong> <span className="muted small">({l.signature})</span>
            <pre className="log-line">{l.text}</pre>
            <button
              type="button"
              className="link"
              onClick={() => openViewer({ kind: 'log', path: l.path, line: l.line })}
            >
              Open {logLineLocation(l)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Overview({ scan }: { scan: ScanResponse }) {
  const openFinding = useView((v) => v.openFinding);
  const go = useView((v) => v.go);
  const openViewer = useView((v) => v.openViewer);
  const { report } = scan;
  const s = report.summary;
  const top = report.findings.find((f) => f.id === s?.topFindingId);
  const unknown = report.checks.filter((c) => c.status === 'unknown').length;

  return (
    <div className="screen overview">
      <h1>
        {report.node.hostname ?? 'Node'} <span className="muted small">— {scan.label}</span>
      </h1>

      <section
        className={`card cause ${top ? `sev-border-${top.severity}` : 'ok'}`}
        aria-labelledby="cause-title"
        data-testid="top-finding"
      >
        <h2 id="cause-title">
          {top
            ? 'Most likely cause'
            : report.access
              ? 'No cause found among the checks that could look'
              : 'No cause found'}
        </h2>
        {top ? (
          <>
            <p className="cause-title">
              <SeverityBadge severity={top.severity} /> {top.title}
            </p>
            <p>{top.summary}</p>
            <p className="muted small">
              Rule <code>{top.rule}</code>
              {top.repairs.length > 0
                ? ` · ${top.repairs.length} repair${top.repairs.length > 1 ? 's' : ''} offered`
                : ' · guidance only'}
            </p>
            <button type="button" className="primary" onClick={() => openFinding(top.id)}>
              {top.repairs.length > 0 ? 'Show evidence and repair' : 'Show evidence and guidance'}
            </button>
          </>
        ) : (
          <p>
            {report.access
              ? `${report.access.denied.length} check(s) could not look without ${report.access.needs} rights (see the banner above); nothing among the others explains a stuck pod sandbox.`
              : 'Nothing on this node explains a stuck pod sandbox.'}
            {unknown > 0
              ? ` ${unknown} check(s) could not determine their answer; see Checks.`
              : ''}
          </p>
        )}
      </section>

      {report.windowsChain && <WindowsChain chain={report.windowsChain} />}

      {report.unexplainedLogLines && <UnexplainedLines u={report.unexplainedLogLines} />}

      <ExplainBox scan={scan} />

      <div className="grid2">
        <section className="card" aria-labelledby="node-title">
          <h2 id="node-title">Node</h2>
          {s ? <NodeFacts s={s} /> : <p className="muted">No summary in this report.</p>}
        </section>

        <section className="card" aria-labelledby="cri-title">
          <h2 id="cri-title">Container runtime (CRI)</h2>
          {s?.criConditions?.length ? (
            <table className="plain">
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col">RuntimeReady</th>
                  <th scope="col">NetworkReady</th>
                </tr>
              </thead>
              <tbody>
                {s.criConditions.map((c) => (
                  <tr key={c.endpoint}>
                    <td>
                      <code>{c.endpoint}</code>
                      {c.message && <div className="muted small">{c.message}</div>}
                    </td>
                    <td>
                      <Ready value={c.runtimeReady} />
                    </td>
                    <td>
                      <Ready value={c.networkReady} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="unknown-note">
              Could not determine: no runtime was asked over CRI in this scan.
            </p>
          )}
          <div className="row-actions">
            <button type="button" onClick={() => openViewer({ kind: 'cri' })}>
              Raw CRI answers (crictl info)
            </button>
          </div>
        </section>
      </div>

      <section className="card" aria-labelledby="counts-title">
        <h2 id="counts-title">Findings</h2>
        <ul className="counts">
          {(['error', 'warning', 'info'] as const).map((sev) => (
            <li key={sev}>
              <SeverityBadge severity={sev} />{' '}
              <strong>
                {s?.counts[sev] ?? report.findings.filter((f) => f.severity === sev).length}
              </strong>
            </li>
          ))}
          <li>
            <span className="badge st-unknown">could not determine</span> <strong>{unknown}</strong>
          </li>
        </ul>
        <div className="row-actions">
          <button type="button" onClick={() => go('findings')}>
            All findings
          </button>
          <button type="button" onClick={() => go('checks')}>
            All checks
          </button>
        </div>
      </section>
    </div>
  );
}
