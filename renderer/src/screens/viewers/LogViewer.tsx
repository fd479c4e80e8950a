/**
 * A log around one matched line, as the scan read it: the matched line marked, its real line
 * number (or "line N of the last 64 MiB" when only the tail was read), and more lines above or
 * below on request, up to what the scan kept around its matches.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ScanResponse } from '../../../../shared/api';
import { VIEW_LIMITS } from '../../../../shared/api-viewers';
import { useApi } from '../../api/api-context';
import { asApiError } from '../../api/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { visible } from '../../../../shared/visible-text';
import { centerLine, LOG_CONTEXT_START, widen } from '../../lib/viewer-model';

export function LogViewer({
  scan,
  path,
  line,
}: {
  scan: ScanResponse;
  path: string;
  line: number;
}) {
  const api = useApi();
  const [before, setBefore] = useState(LOG_CONTEXT_START);
  const [after, setAfter] = useState(LOG_CONTEXT_START);
  // The meaningful end of a log line ("unexpected netNS", a pipe name) is often past the window's
  // edge (newcomer review 3.3): wrapped unless the user wants the columns.
  const [wrap, setWrap] = useState(true);
  const q = useQuery({
    queryKey: ['viewLog', scan.scanId, path, line, before, after],
    queryFn: async () => {
      try {
        return await api.viewLog({ scanId: scan.scanId, path, line, before, after });
      } catch (e) {
        throw asApiError(e);
      }
    },
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
  const v = q.data;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => centerLine(box.current, `log-L${line}`), [line, v?.scanId]);

  if (q.error && !v) return <ErrorNotice error={q.error} />;
  if (!v) return <p className="muted">Loading {path}…</p>;

  const to = v.from + v.lines.length - 1;
  const roomAbove = v.from - v.keptFrom;
  const roomBelow = v.keptTo - to;
  const matched = new Map(v.matches.map((m) => [m.line, m.signatures]));

  return (
    <div className="log-viewer">
      <p>
        <code data-testid="log-location">{v.location}</code>
      </p>
      <p className="muted small">
        {v.tailBytes !== undefined
          ? `The log was larger than the part the scan read: line numbers count from the start of its last ${Math.round(v.tailBytes / (1024 * 1024))} MiB (${v.totalLines.toLocaleString()} lines), not from the start of the file.`
          : `As the scan read it: ${v.totalLines.toLocaleString()} line${v.totalLines === 1 ? '' : 's'}.`}{' '}
        The scan kept lines {v.keptFrom.toLocaleString()}–{v.keptTo.toLocaleString()} around its
        matches.
      </p>
      <div className="row-actions">
        <button
          type="button"
          disabled={roomAbove <= 0 || before >= VIEW_LIMITS.maxLogContext}
          onClick={() => setBefore(widen(before, roomAbove, undefined, VIEW_LIMITS.maxLogContext))}
        >
          More lines above
        </button>
        <button
          type="button"
          disabled={roomBelow <= 0 || after >= VIEW_LIMITS.maxLogContext}
          onClick={() => setAfter(widen(after, roomBelow, undefined, VIEW_LIMITS.maxLogContext))}
        >
          More lines below
        </button>
        <button type="button" aria-pressed={wrap} onClick={() => setWrap(!wrap)}>
          Wrap long lines
        </button>
        <span className="muted small" role="status">
          Lines {v.from.toLocaleString()}–{to.toLocaleString()}
          {roomAbove <= 0 && roomBelow <= 0 ? ' (all the scan kept)' : ''}
        </span>
      </div>
      <div
        className={`excerpt viewer-lines${wrap ? ' wrap' : ''}`}
        role="group"
        tabIndex={0}
        ref={box}
        aria-label={`Lines ${v.from} to ${to} of ${path}`}
        data-testid="log-lines"
      >
        {v.lines.map((text, i) => {
          const n = v.from + i;
          const sigs = matched.get(n);
          const cls = ['line', n === line ? 'hl' : sigs ? 'hl-other' : '']
            .filter(Boolean)
            .join(' ');
          return (
            <div key={n} id={`log-L${n}`} className={cls} data-line={n}>
              <span className="ln" aria-hidden="true">
                {n}
              </span>
              {sigs && (
                <span className="sr-only">
                  {n === line ? 'the matched line' : 'another matched line'} {n} ({sigs.join(', ')}
                  ):{' '}
                </span>
              )}
              <code>
                {visible(text)}
                {text === '' && ' '}
              </code>
              {v.cut[n] !== undefined && (
                <span className="cut-note">… {v.cut[n].toLocaleString()} more bytes not kept</span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
