/**
 * The runtime's own CRI answers as the scan got them: Version, and Status with verbose info —
 * what `crictl version` and `crictl info` show — pretty-printed JSON. When no runtime was asked,
 * why. The JSON is node text: shown as text, control characters made visible.
 */
import { useQuery } from '@tanstack/react-query';
import type { ScanResponse } from '../../../../shared/api';
import { visibleLines } from '../../../../shared/visible-text';
import { useApi } from '../../api/api-context';
import { asApiError } from '../../api/errors';
import { CopyButton } from '../../components/CopyButton';
import { ErrorNotice } from '../../components/ErrorNotice';

export function CriRawViewer({ scan, endpoint }: { scan: ScanResponse; endpoint?: string }) {
  const api = useApi();
  const q = useQuery({
    queryKey: ['criRaw', scan.scanId],
    queryFn: async () => {
      try {
        return await api.criRaw(scan.scanId);
      } catch (e) {
        throw asApiError(e);
      }
    },
    staleTime: Infinity,
    retry: false,
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  const r = q.data;
  if (!r) return <p className="muted">Loading the CRI answers…</p>;
  if (r.unknown !== undefined)
    return (
      <p className="unknown-note" data-testid="cri-unknown">
        Could not determine: {r.unknown}.
      </p>
    );
  // The runtime the user came from first.
  const entries = [...r.entries].sort(
    (a, b) => Number(b.endpoint === endpoint) - Number(a.endpoint === endpoint),
  );
  return (
    <div className="cri-raw">
      <p className="muted small">
        What each runtime answered over CRI during this scan ({scan.label}), as the scan got it.
      </p>
      {entries.map((e) => (
        <section
          key={e.endpoint}
          className="card"
          aria-label={`CRI answers of ${e.endpoint}`}
          data-testid="cri-entry"
        >
          <h2>
            <code>{e.endpoint}</code>
          </h2>
          <p className="muted small">API {e.api ?? 'none answered'}</p>
          {e.error && (
            <p className="notice error">
              The runtime answered with an error ({e.error.code}): {e.error.message}
            </p>
          )}
          {e.missing && !e.error && (
            <p className="unknown-note">Could not determine: {e.missing}.</p>
          )}
          {e.versionJson !== undefined && (
            <JsonBlock
              title="Version (crictl version)"
              copy="Copy Version JSON"
              json={e.versionJson}
            />
          )}
          {e.statusJson !== undefined && (
            <JsonBlock
              title="Status, verbose (crictl info)"
              copy="Copy Status JSON"
              json={e.statusJson}
            />
          )}
          {e.cutAt !== undefined && (
            <p className="notice warn">
              Cut after {e.cutAt.toLocaleString()} characters: the answer is larger than the viewer
              shows.
            </p>
          )}
        </section>
      ))}
    </div>
  );
}

function JsonBlock({ title, copy, json }: { title: string; copy: string; json: string }) {
  return (
    <>
      <div className="row-actions">
        <h3>{title}</h3>
        <CopyButton label={copy} text={() => json} />
      </div>
      <pre className="json-block" tabIndex={0} aria-label={title}>
        {visibleLines(json)}
      </pre>
    </>
  );
}
