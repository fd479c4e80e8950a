/**
 * Evidence as the engine gave it: file excerpts with the relevant lines highlighted, a conf dir in
 * load order with the winner marked, CRI answers, HNS objects, log lines, processes.
 */
import type { ConfEntryRole, Evidence } from '../../../../shared/model/finding';
import { logLineLocation } from '../../../../shared/log-location';
import { ID_PATTERNS } from '../../../../shared/api';
import { HnsObjectButton } from '../../components/HnsObject';
import { LoadOrderLane } from '../../components/LoadOrderLane';
import { useScan } from '../../queries/use-doctor';
import { joinNodePath } from '../../lib/viewer-model';
import { useView } from '../../state/view-store';
import '../../styles/viewers.css';

type Of<K extends Evidence['kind']> = Extract<Evidence, { kind: K }>;

const ROLE_TEXT: Record<ConfEntryRole, string> = {
  'in-use': 'in use: the runtime loads this one',
  'valid-unused': 'valid, not used',
  invalid: 'invalid',
  skipped: 'skipped by the runtime',
  'never-read': 'never read',
  disabled: 'disabled (renamed)',
  ignored: 'ignored (not a config)',
};

function FileExcerpt({ e }: { e: Of<'file'> }) {
  const open = useView((v) => v.openViewer);
  const first = e.lines.find((l) => l.highlight)?.line;
  const last = e.lines.at(-1)?.line;
  return (
    <figure className="evidence file">
      <figcaption>
        <code>{e.path}</code>
        {e.note && <span className="muted"> — {e.note}</span>}
        <span className="evidence-actions">
          {e.lines.length > 0 && (
            <span className="muted small">
              {first === undefined
                ? `an excerpt: lines 1–${last ?? 1} of the file`
                : `an excerpt around the marked line${e.lines.filter((l) => l.highlight).length > 1 ? 's' : ''}`}
            </span>
          )}
          <button
            type="button"
            className="link"
            onClick={() =>
              open({ kind: 'file', path: e.path, ...(first !== undefined && { line: first }) })
            }
          >
            Open the whole file
          </button>
        </span>
      </figcaption>
      <div className="excerpt" role="group" aria-label={`Lines of ${e.path}`}>
        {e.lines.map((l) => (
          <div key={l.line} className={l.highlight ? 'line hl' : 'line'}>
            <span className="ln" aria-hidden="true">
              {l.line}
            </span>
            {l.highlight && <span className="sr-only">highlighted line {l.line}: </span>}
            <code>{l.text || ' '}</code>
          </div>
        ))}
      </div>
    </figure>
  );
}

function ConfDir({ e }: { e: Of<'conf-dir'> }) {
  const open = useView((v) => v.openViewer);
  return (
    <figure className="evidence conf-dir">
      <figcaption>
        <code>{e.path}</code> as {e.runtime} reads it, in load order
        {e.note ? <span className="muted"> — {e.note}</span> : null}
      </figcaption>
      <LoadOrderLane side={{ confDir: e.path, entries: e.entries }} runtime={e.runtime} />
      <ol className="load-order" aria-label="Each file, with its plugins">
        {e.entries.map((x) => (
          <li
            key={x.name}
            className={`role-${x.role}`}
            aria-current={x.role === 'in-use' ? 'true' : undefined}
          >
            <span className="winner" aria-hidden="true">
              {x.role === 'in-use' ? '★' : ''}
            </span>
            {x.role === 'ignored' ? (
              <code className="name">{x.name}</code>
            ) : (
              <button
                type="button"
                className="link name"
                title={`Open ${x.name} as the scan read it`}
                onClick={() => open({ kind: 'file', path: joinNodePath(e.path, x.name) })}
              >
                <code>{x.name}</code>
              </button>
            )}
            <span className={`badge role role-${x.role}`}>{ROLE_TEXT[x.role]}</span>
            {x.network && <span className="muted"> network "{x.network}"</span>}
            {x.plugins && x.plugins.length > 0 && (
              <span className="muted"> · {x.plugins.join(', ')}</span>
            )}
            {x.note && <div className="muted small">{x.note}</div>}
          </li>
        ))}
      </ol>
    </figure>
  );
}

/** The object's JSON as the scan recorded it (fetched when asked). */
function HnsJson({ e }: { e: Of<'hns'> }) {
  const scanId = useScan().data?.scanId;
  if (!scanId || !ID_PATTERNS.hnsId.test(e.id)) return null;
  return <HnsObjectButton scanId={scanId} kind={e.objectType} id={e.id} />;
}

export function EvidenceItem({ e }: { e: Evidence }) {
  const open = useView((v) => v.openViewer);
  switch (e.kind) {
    case 'file':
      return <FileExcerpt e={e} />;
    case 'conf-dir':
      return <ConfDir e={e} />;
    case 'cri':
      return (
        <div className="evidence cri">
          <span className="kind">CRI</span> <code>{e.endpoint}</code> <strong>{e.field}</strong> ={' '}
          <code className="value">{e.value}</code>{' '}
          <button
            type="button"
            className="link"
            onClick={() => open({ kind: 'cri', endpoint: e.endpoint })}
          >
            Raw CRI answer
          </button>
        </div>
      );
    case 'hns':
      return (
        <div className="evidence hns">
          <span className="kind">HNS {e.objectType}</span> <code>{e.name ?? e.id}</code>{' '}
          <span className="muted">{e.id}</span> — {e.detail} <HnsJson e={e} />
        </div>
      );
    case 'log':
      return (
        <div className="evidence log">
          <span className="kind">log</span> <code>{logLineLocation(e)}</code>{' '}
          <span className="muted small">({e.signature})</span>
          {e.note && <span className="small note"> — {e.note}</span>}{' '}
          <button
            type="button"
            className="link"
            onClick={() => open({ kind: 'log', path: e.path, line: e.line })}
          >
            Open the log around this line
          </button>
          <pre className="log-line">{e.text}</pre>
        </div>
      );
    case 'process':
      return (
        <div className="evidence process">
          <span className="kind">process</span> <strong>{e.name}</strong>
          {e.pid !== undefined && <span className="muted"> pid {e.pid}</span>}
          <pre className="log-line">{e.args.join(' ')}</pre>
        </div>
      );
    case 'registry':
      return (
        <div className="evidence registry">
          <span className="kind">registry</span> <code>{e.key}</code> <strong>{e.value}</strong>
          {e.note && <span className="muted"> ({e.note})</span>}
          <pre className="log-line">{e.data}</pre>
        </div>
      );
    case 'path':
      return (
        <div className="evidence path">
          <span className="kind">path</span> <code>{e.path}</code> — {e.state}
          {e.note && <span className="muted"> ({e.note})</span>}
        </div>
      );
    case 'text':
      return <p className="evidence text">{e.text}</p>;
  }
}
