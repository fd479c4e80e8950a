/**
 * "Start from your error" (issue 22, point 6): paste a FailedCreatePodSandBox event or a log line
 * and land on the finding of this scan that explains it, or be told which signature matched and
 * that no finding explains it. The engine matches (DoctorApi.explain); this only shows the answer.
 */
import { useId, useRef, useState } from 'react';
import type { ScanResponse } from '../../../shared/api';
import type { ExplainResult } from '../../../shared/api-explain';
import { EXPLAIN_MAX_CHARS } from '../../../shared/api-explain';
import { useApi } from '../api/api-context';
import { useView } from '../state/view-store';
import { ErrorNotice } from './ErrorNotice';

export function ExplainBox({ scan }: { scan: ScanResponse }) {
  const api = useApi();
  const openFinding = useView((v) => v.openFinding);
  const [text, setText] = useState('');
  const [result, setResult] = useState<ExplainResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const answer = useRef<HTMLDivElement>(null);
  const fieldId = useId();

  const explain = async (): Promise<void> => {
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await api.explain({ scanId: scan.scanId, text }));
      // The answer is where the eye and the keyboard go next.
      requestAnimationFrame(() => answer.current?.focus());
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="explain-title" data-testid="explain">
      <h2 id="explain-title">Start from your error</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void explain();
        }}
      >
        <label htmlFor={fieldId}>
          Paste a FailedCreatePodSandBox event (kubectl describe pod) or a runtime or kubelet log
          line
        </label>
        <textarea
          id={fieldId}
          className="explain-text"
          rows={3}
          maxLength={EXPLAIN_MAX_CHARS}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="row-actions">
          <button type="submit" disabled={busy || !text.trim()}>
            Explain
          </button>
        </div>
      </form>
      {error !== null && <ErrorNotice error={error} />}
      {result && (
        <div ref={answer} tabIndex={-1} role="status" className="explain-answer">
          {result.matches.length === 0 ? (
            <p>
              No log signature cni-doctor knows matches{' '}
              {result.lines === 1 ? 'this line' : 'these lines'}. The findings of this node are
              under Findings.
            </p>
          ) : (
            <ul>
              {result.matches.map((m, i) => (
                <li key={`${i}-${m.signature.id}`}>
                  <p>
                    Matched <code>{m.signature.id}</code>: {m.signature.title}
                  </p>
                  {m.verdict === 'explained' && m.findingId ? (
                    <button
                      type="button"
                      className="primary"
                      onClick={() => openFinding(m.findingId!)}
                    >
                      Explained by: {m.findingTitle}
                    </button>
                  ) : m.verdict === 'generic' ? (
                    <>
                      <p>
                        This line only says the sandbox&apos;s network setup failed.{' '}
                        {m.signature.fix}
                      </p>
                      {m.findingId && (
                        <button type="button" onClick={() => openFinding(m.findingId!)}>
                          Most likely cause here: {m.findingTitle}
                        </button>
                      )}
                    </>
                  ) : (
                    <p>
                      <strong>No finding on this node explains it</strong> (check{' '}
                      <code>{m.rule}</code> does not fail now: the line may be old, or from another
                      node). {m.signature.explanation} {m.signature.fix}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
