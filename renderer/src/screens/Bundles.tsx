/**
 * Open a support bundle (upload in a browser, the system dialog on desktop), switch between the
 * bundles of this session, or record this node into one.
 */
import { useRef } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import {
  useBundles,
  useChooseSource,
  useCurrentSource,
  useExportBundle,
  useInfo,
  useNodeFocus,
  useOpenBundle,
} from '../queries/use-doctor';
import { nodeLine } from '../lib/node-focus';

export function Bundles() {
  const info = useInfo();
  const bundles = useBundles();
  const open = useOpenBundle();
  const exp = useExportBundle();
  const focus = useNodeFocus();
  const source = useCurrentSource();
  const recording = source?.source === 'bundle' || source?.source === 'demo';
  const choose = useChooseSource();
  const fileInput = useRef<HTMLInputElement>(null);
  const desktop = info.data?.door === 'desktop';

  return (
    <div className="screen bundles">
      <h1>Bundles</h1>
      <section className="card" aria-labelledby="open-title">
        <h2 id="open-title">Open a bundle</h2>
        <p>
          A bundle is a recording of a node (`cni-doctor collect`): scanning it gives the same
          findings as the node it came from.
        </p>
        {desktop ? (
          <button
            type="button"
            className="primary"
            disabled={open.isPending}
            onClick={() => open.mutate({ kind: 'dialog' })}
          >
            Choose a bundle file…
          </button>
        ) : (
          <>
            <label htmlFor="bundle-file">Bundle file (.tar.gz)</label>{' '}
            <input
              id="bundle-file"
              ref={fileInput}
              type="file"
              accept=".tar.gz,.tgz,application/gzip"
              disabled={open.isPending}
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                open.mutate({
                  kind: 'upload',
                  fileName: file.name,
                  data: await file.arrayBuffer(),
                });
                if (fileInput.current) fileInput.current.value = '';
              }}
            />
          </>
        )}
        {open.isPending && <p role="status">Opening…</p>}
        {open.error && <ErrorNotice error={open.error} />}
      </section>

      <section className="card" aria-labelledby="session-title">
        <h2 id="session-title">Opened in this session</h2>
        {bundles.data?.length ? (
          <ul className="plain-list">
            {bundles.data.map((b) => (
              <li key={b.bundleId}>
                <button
                  type="button"
                  className="link"
                  onClick={() => choose({ source: 'bundle', bundleId: b.bundleId })}
                >
                  {b.name}
                </button>{' '}
                <span className="muted">
                  {b.os}
                  {b.hostname ? ` · ${b.hostname}` : ''}
                  {b.collectedAt ? ` · collected ${b.collectedAt}` : ''}
                </span>
                {b.warnings.map((w) => (
                  <div key={w} className="note small">
                    {w}
                  </div>
                ))}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">None yet.</p>
        )}
        <button type="button" onClick={() => choose({ source: 'live' })}>
          Scan this machine instead
        </button>
      </section>

      <section className="card" aria-labelledby="export-title">
        <h2 id="export-title">Export this node</h2>
        {focus && <p data-testid="export-node">{nodeLine(focus)}</p>}
        {recording ? (
          <p className="muted">This node is a recording already: its bundle is what you have.</p>
        ) : (
          <>
            <p>
              Records {focus?.name ?? 'this node'} (secrets redacted) into a .tar.gz you can attach
              to a support ticket.
            </p>
            <button type="button" disabled={exp.isPending || !focus} onClick={() => exp.mutate()}>
              Export bundle of {focus?.name ?? 'this node'}
            </button>
          </>
        )}
        {exp.isPending && <p role="status">Recording {focus?.name ?? 'this node'}…</p>}
        {exp.error && <ErrorNotice error={exp.error} />}
        {exp.data && !exp.data.cancelled && (
          <p role="status">
            Saved {exp.data.fileName} ({(exp.data.bytes / 1024).toFixed(0)} KiB)
            {exp.data.savedTo ? ` to ${exp.data.savedTo}` : ''}.
          </p>
        )}
      </section>
    </div>
  );
}
