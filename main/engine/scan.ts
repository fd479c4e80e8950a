/** One scan: host → probes → snapshot → rules → report. The entry point every door calls. */
import type { Snapshot } from '../../shared/model/snapshot';
import type { Host } from '../host/host';
import { collectSnapshot, type SnapshotOptions } from '../probes/snapshot';
import { redactReport, unredactedReport } from '../bundle/redaction/report';
import { evaluate, type Evaluation } from './evaluate';

export interface ScanResult extends Evaluation {
  snapshot: Snapshot;
}

export interface ScanOptions extends SnapshotOptions {
  /**
   * Quote the node's text verbatim in the report (`scan --unredacted`). Without it every string
   * the report quotes is redacted as `collect` redacts a bundle, so no door can print, export or
   * copy a secret the node holds (main/bundle/redaction/report.ts).
   */
  unredacted?: boolean;
}

export async function scanHost(host: Host, opts: ScanOptions = {}): Promise<ScanResult> {
  const started = Date.now();
  const snapshot = await collectSnapshot(host, opts);
  const evaluation = evaluate(snapshot);
  evaluation.report = opts.unredacted
    ? unredactedReport(evaluation.report)
    : redactReport(evaluation.report, snapshot);
  evaluation.report.scannedAt = new Date(started).toISOString();
  evaluation.report.durationMs = Date.now() - started;
  return { ...evaluation, snapshot };
}
