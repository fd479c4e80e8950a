import type { TargetInfo } from '../target';
import type { CheckResult, Finding } from './finding';
import type { NodeSummary } from './summary';

export const REPORT_SCHEMA = 'cni-doctor.report/v1';

/** The document `scan --json` prints (cli.md). Extensions: `summary`, `scannedAt`, `durationMs`. */
export interface Report {
  schema: typeof REPORT_SCHEMA;
  node: { os: 'linux' | 'windows'; hostname?: string; source: 'live' | 'bundle' };
  checks: CheckResult[];
  findings: Finding[];
  /** Extension: what the Overview shows (runtime, kubelet, CNI in use, CRI conditions). */
  summary?: NodeSummary;
  scannedAt?: string;
  /** Extension: which node this is and how it was reached (shared/target.ts). */
  target?: TargetInfo;
  durationMs?: number;
}
