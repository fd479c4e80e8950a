/** One scan: host → probes → snapshot → rules → report. The entry point every door calls. */
import type { Snapshot } from '../../shared/model/snapshot';
import type { Host } from '../host/host';
import { collectSnapshot, type SnapshotOptions } from '../probes/snapshot';
import { evaluate, type Evaluation } from './evaluate';

export interface ScanResult extends Evaluation {
  snapshot: Snapshot;
}

export async function scanHost(host: Host, opts: SnapshotOptions = {}): Promise<ScanResult> {
  const started = Date.now();
  const snapshot = await collectSnapshot(host, opts);
  const evaluation = evaluate(snapshot);
  evaluation.report.scannedAt = new Date(started).toISOString();
  evaluation.report.durationMs = Date.now() - started;
  return { ...evaluation, snapshot };
}
