/**
 * One repair: preview (diffs, services, pod impact, risk, elevation), then Apply with live progress,
 * the verification result, and Undo. The renderer sends the repair id and the preview token only.
 */
import { useEffect, useRef, useState } from 'react';
import type { RepairRef } from '../../../../shared/model/finding';
import { ErrorNotice } from '../../components/ErrorNotice';
import {
  useApplyRepair,
  useHistory,
  useInfo,
  useNodeFocus,
  usePreview,
  useScan,
} from '../../queries/use-doctor';
import { useProgress } from '../../state/progress-feed';
import { focusQuietly } from '../../lib/focus-rescue';
import { nodeWords } from '../../lib/node-focus';
import { DiffView } from './DiffView';
import { LoadOrderPair } from '../../components/LoadOrderPair';
import { RepairOutcome } from './RepairOutcome';

function RepairProgress({ repairId }: { repairId: string }) {
  const { repair } = useProgress();
  if (!repair || repair.repairId !== repairId) return null;
  return (
    <p className="progress" role="status" aria-live="polite">
      {!repair.done && <span className="spinner" aria-hidden="true" />} {repair.phase}:{' '}
      {repair.message}
    </p>
  );
}

export function RepairPanel({ repair, canApply }: { repair: RepairRef; canApply: boolean }) {
  const info = useInfo();
  const focus = useNodeFocus();
  const node = focus ? nodeWords(focus) : 'this node';
  /**
   * The scan the preview was asked from (the page's own, never another tab's): kept while the
   * preview and its outcome are shown, though the page rescans after Apply.
   */
  const [planScan, setPlanScan] = useState<string | undefined>(undefined);
  const requested = planScan !== undefined;
  const [confirming, setConfirming] = useState(false);
  const scanId = useScan().data?.scanId;
  const preview = usePreview(planScan, repair.id, requested);
  const apply = useApplyRepair();
  // The last time this repair ran on this node, as its journal says (survives a reload).
  const history = useHistory();
  const last = canApply ? history.data?.find((e) => e.repair === repair.id) : undefined;
  const cli = `cni-doctor fix ${repair.id}`;
  // Focus follows the user's own step: the preview's heading when it arrives, the question
  // when Apply… asks it (issue 22 point 7: never the page body).
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const question = useRef<HTMLParagraphElement>(null);
  const token = preview.data?.previewToken;
  useEffect(() => {
    if (requested && token) focusQuietly(previewHeading.current);
  }, [requested, token]);
  useEffect(() => {
    if (confirming) focusQuietly(question.current);
  }, [confirming]);

  return (
    <section className="repair card" aria-label={`Repair: ${repair.title}`}>
      <h3>{repair.title}</h3>
      <p className="muted small">
        <code>{repair.id}</code>
        {repair.needsElevation ? ' · needs root / Administrator' : ''}
      </p>

      {!canApply ? (
        <p className="note">
          This scan is a recording (bundle or demo): repairs are planned against the node itself.
          There, <code>{cli}</code> shows the exact changes, and the desktop app or{' '}
          <code>cni-doctor serve</code> can apply it.
        </p>
      ) : !requested ? (
        <button type="button" disabled={!scanId} onClick={() => setPlanScan(scanId)}>
          Preview repair
        </button>
      ) : preview.isPending ? (
        <p role="status">Planning…</p>
      ) : preview.error ? (
        <ErrorNotice error={preview.error} retry={() => void preview.refetch()} />
      ) : preview.data ? (
        <div className="preview">
          <h4 className="preview-title" ref={previewHeading} tabIndex={-1}>
            Preview: what this repair changes
          </h4>
          <dl className="facts">
            <dt>Node</dt>
            <dd data-testid="repair-node">{node}</dd>
            <dt>Risk</dt>
            <dd>
              <span className={`badge risk-${preview.data.risk}`}>{preview.data.risk}</span>
            </dd>
            <dt>Services restarted</dt>
            <dd>{preview.data.services.length ? preview.data.services.join(', ') : 'none'}</dd>
            <dt>Running pods</dt>
            <dd>{preview.data.podImpact}</dd>
            <dt>Elevation</dt>
            <dd>
              {preview.data.needsElevation
                ? info.data?.elevation === 'prompt'
                  ? 'needs root/Administrator: the system will ask you; only the repair runs elevated'
                  : info.data?.elevation === 'already-elevated'
                    ? 'needs root/Administrator (the engine already has it)'
                    : `needs root/Administrator: run "sudo ${cli} --yes" on the node`
                : 'not needed'}
            </dd>
          </dl>
          {preview.data.description.length > 0 && (
            <ol className="steps" aria-label="Steps">
              {preview.data.description.map((s, i) => (
                <li key={i}>{s}</li>
              ))}
            </ol>
          )}
          {preview.data.notes.map((n) => (
            <p key={n} className="note">
              {n}
            </p>
          ))}
          {preview.data.loadOrder?.map((lo) => (
            <section
              key={lo.runtime}
              className="preview-lanes"
              aria-label={`Load order of ${lo.label}, now and after this repair`}
              data-testid="preview-load-order"
            >
              <h4>
                Load order of {lo.label}{' '}
                <code className="small">
                  {[...new Set([lo.before?.confDir, lo.after?.confDir].filter(Boolean))].join(
                    ' → ',
                  )}
                </code>
              </h4>
              <LoadOrderPair lo={lo} titles={['Now', 'After this repair']} />
            </section>
          ))}
          {preview.data.diffs.map((d) => (
            <DiffView key={d.path} path={d.path} diff={d.unified} />
          ))}

          {apply.data ? null : confirming ? (
            <div className="confirm" role="group" aria-label="Confirm repair">
              <p ref={question} tabIndex={-1}>
                Apply this repair on {node} now? A backup is taken first, and it is rolled back if
                the rescan does not confirm the fix.
              </p>
              <button
                type="button"
                className="primary"
                disabled={apply.isPending}
                onClick={() =>
                  planScan &&
                  apply.mutate({
                    scanId: planScan,
                    repairId: repair.id,
                    previewToken: preview.data.previewToken,
                  })
                }
              >
                Apply
              </button>{' '}
              <button type="button" disabled={apply.isPending} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="button" className="primary" onClick={() => setConfirming(true)}>
              Apply…
            </button>
          )}
        </div>
      ) : null}

      <RepairProgress repairId={repair.id} />
      {apply.error && <ErrorNotice error={apply.error} />}
      {apply.data ? (
        <RepairOutcome result={apply.data} />
      ) : (
        last && (
          <div className="last-repair">
            <p className="muted small">
              Last time on this node ({new Date(last.createdAt).toLocaleString()}):
            </p>
            <RepairOutcome entryId={last.id} />
          </div>
        )
      )}
    </section>
  );
}
