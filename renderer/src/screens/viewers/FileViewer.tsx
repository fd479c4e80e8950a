/**
 * A whole file as the scan's snapshot holds it: line numbers, the lines the findings mark, search
 * with next/previous, a page at a time for big files, and a clear mark where the collection cut
 * the file. Binary files are refused by the engine with its reason. Text is node text: shown as
 * text, every control character made visible (viewer-model.ts segments).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ScanResponse } from '../../../../shared/api';
import { VIEW_LIMITS } from '../../../../shared/api-viewers';
import { useApi } from '../../api/api-context';
import { asApiError } from '../../api/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import {
  centerLine,
  FILE_PAGE_LINES,
  hitStatus,
  onPage,
  pageStartFor,
  segments,
  stepHit,
} from '../../lib/viewer-model';

export function FileViewer({
  scan,
  path,
  line,
  findingId,
}: {
  scan: ScanResponse;
  path: string;
  line?: number;
  findingId: string | null;
}) {
  const api = useApi();
  const searchId = useId();
  const [from, setFrom] = useState(pageStartFor(line ?? 1));
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [hit, setHit] = useState(-1);
  const [target, setTarget] = useState<number | undefined>(line);
  const box = useRef<HTMLDivElement>(null);

  const q = useQuery({
    queryKey: ['viewFile', scan.scanId, path, from, query],
    queryFn: async () => {
      try {
        return await api.viewFile({
          scanId: scan.scanId,
          path,
          from,
          count: FILE_PAGE_LINES,
          ...(query !== '' && { query }),
        });
      } catch (e) {
        throw asApiError(e);
      }
    },
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
  const v = q.data;
  const hits = v?.search?.query === query ? v.search.lines : [];

  // Bring the line the user asked for (a marked line, a search hit) onto the page and into view.
  useEffect(() => {
    if (!v || q.isPlaceholderData || target === undefined) return;
    if (!onPage(target, v)) {
      if (target <= v.totalLines) setFrom(pageStartFor(target));
      return;
    }
    centerLine(box.current, `L${target}`);
  }, [v, q.isPlaceholderData, target]);

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    setQuery(draft.slice(0, VIEW_LIMITS.maxQueryChars));
    setHit(-1);
  };
  // When a new search's answer arrives, go to its first hit.
  useEffect(() => {
    if (query === '' || !v?.search || v.search.query !== query || hit !== -1) return;
    if (hits.length > 0) {
      setHit(0);
      setTarget(hits[0]);
    }
  }, [query, v, hit, hits]);
  const step = (dir: 1 | -1): void => {
    const next = stepHit(hits.length, hit, dir);
    if (next < 0) return;
    setHit(next);
    setTarget(hits[next]);
  };

  if (q.error && !v) return <ErrorNotice error={q.error} />;
  if (!v) return <p className="muted">Loading {path}…</p>;

  const own = new Set(
    v.marks.filter((m) => findingId !== null && m.findings.includes(findingId)).map((m) => m.line),
  );
  const marked = new Map(v.marks.map((m) => [m.line, m.findings]));
  const current = hit >= 0 ? hits[hit] : undefined;
  const to = v.from + v.lines.length - 1;
  const lastPage = to >= v.totalLines;

  return (
    <div className="file-viewer">
      <p className="muted small">
        As the scan’s snapshot holds it ({v.holder}) · {v.totalLines.toLocaleString()} line
        {v.totalLines === 1 ? '' : 's'}
      </p>
      {v.capped && (
        <p className="notice warn" data-testid="capped">
          <strong>Cut at collection:</strong> {v.capped}.
        </p>
      )}
      {v.encodingError && <p className="notice warn">Not valid UTF-8: {v.encodingError}.</p>}
      {v.state === 'binary' ? (
        <p className="notice warn" role="note" data-testid="binary">
          {v.message}
        </p>
      ) : (
        <>
          {v.marks.length > 0 && (
            <div className="row-actions wrap">
              <span className="muted small">Marked lines:</span>
              {v.marks.slice(0, 20).map((m) => (
                <button
                  key={m.line}
                  type="button"
                  className="link"
                  onClick={() => setTarget(m.line)}
                  aria-label={`Go to marked line ${m.line}`}
                >
                  {m.line}
                </button>
              ))}
            </div>
          )}
          <form className="find-bar" role="search" onSubmit={submit}>
            <label htmlFor={searchId}>Find in file</label>
            <input
              id={searchId}
              type="search"
              value={draft}
              maxLength={VIEW_LIMITS.maxQueryChars}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && draft === query && query !== '') {
                  e.preventDefault();
                  step(e.shiftKey ? -1 : 1);
                }
              }}
            />
            <button type="submit">Find</button>
            <button type="button" onClick={() => step(-1)} disabled={hits.length === 0}>
              Previous
            </button>
            <button type="button" onClick={() => step(1)} disabled={hits.length === 0}>
              Next
            </button>
            <span role="status" className="muted small" data-testid="find-status">
              {query !== '' && v.search?.query === query ? hitStatus(v.search, hit) : ''}
            </span>
          </form>
          {v.totalLines > v.lines.length && (
            <Pager
              from={v.from}
              to={to}
              total={v.totalLines}
              onPrev={() => setFrom(Math.max(1, v.from - FILE_PAGE_LINES))}
              onNext={() => setFrom(to + 1)}
            />
          )}
          <div
            className="excerpt viewer-lines"
            role="group"
            tabIndex={0}
            ref={box}
            aria-label={`Lines ${v.from} to ${to} of ${path}`}
            data-testid="file-lines"
          >
            {v.lines.map((text, i) => {
              const n = v.from + i;
              const by = marked.get(n);
              const cls = [
                'line',
                by ? (own.has(n) || findingId === null ? 'hl' : 'hl-other') : '',
                n === current ? 'hit-current' : '',
              ]
                .filter(Boolean)
                .join(' ');
              return (
                <div key={n} id={`L${n}`} className={cls} data-line={n}>
                  <span className="ln" aria-hidden="true">
                    {n}
                  </span>
                  {by && (
                    <span className="sr-only">
                      marked line {n} ({by.join(', ')}):{' '}
                    </span>
                  )}
                  <code>
                    {segments(text, v.search?.query === query ? query : '').map((s, k) =>
                      s.hit ? <mark key={k}>{s.text}</mark> : <span key={k}>{s.text}</span>,
                    )}
                    {text === '' && ' '}
                  </code>
                  {v.cut[n] !== undefined && (
                    <span className="cut-note">
                      … {v.cut[n].toLocaleString()} more characters not shown
                    </span>
                  )}
                </div>
              );
            })}
          </div>
          {lastPage && v.capped && (
            <p className="notice warn" data-testid="capped-end">
              The scan kept no more of this file: it goes on past line{' '}
              {v.totalLines.toLocaleString()}.
            </p>
          )}
        </>
      )}
    </div>
  );
}

function Pager(p: {
  from: number;
  to: number;
  total: number;
  onPrev: () => void;
  onNext: () => void;
}) {
  return (
    <div className="row-actions">
      <span className="muted small">
        Lines {p.from.toLocaleString()}–{p.to.toLocaleString()} of {p.total.toLocaleString()}
      </span>
      <button type="button" onClick={p.onPrev} disabled={p.from <= 1}>
        Earlier lines
      </button>
      <button type="button" onClick={p.onNext} disabled={p.to >= p.total}>
        Later lines
      </button>
    </div>
  );
}
