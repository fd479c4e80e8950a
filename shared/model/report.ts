import type { TargetInfo } from '../target';
import type { CheckResult, Finding } from './finding';
import type { LoadOrderLane, WindowsChain } from './pictures';
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
  /**
   * Extension: the checks that could not look because the scan lacked privileges (EACCES, "Access
   * is denied"). Present only when at least one check was refused; every door shows it as a
   * banner ("not running as root") with `rerun`, the command to run elevated, which the door
   * that started the scan fills in (it knows how it was started).
   */
  access?: AccessNote;
  /**
   * Extension: log lines a signature matched that no finding quotes (the newest 20; `total`
   * counts them all). The Overview lists them: a matched error string is never hidden.
   */
  unexplainedLogLines?: UnexplainedLogLines;
  /**
   * Extension: whether the node's text the report quotes (evidence, summaries, reasons, log
   * lines) was redacted as `collect` redacts a bundle, and how many values were hidden;
   * `unredacted` only when asked for (`scan --unredacted`), and every output then says so.
   */
  redaction?: { evidence: 'redacted'; hidden: number } | { evidence: 'unredacted' };
  /** Extension: each runtime's CNI conf dir in its load order, the picture every door draws. */
  loadOrder?: LoadOrderLane[];
  /** Extension (Windows, containerd): the chain of a pod's network, with the broken link. */
  windowsChain?: WindowsChain;
}

export interface UnexplainedLogLines {
  total: number;
  lines: {
    path: string;
    line: number;
    text: string;
    signature: string;
    /** The signature's title: what the line means. */
    title: string;
    tailBytes?: number;
  }[];
}

export interface AccessNote {
  /** Whether the scan ran as root/Administrator, when the host could tell. */
  elevated?: boolean;
  /** root on Linux, Administrator on Windows. */
  needs: 'root' | 'Administrator';
  denied: { rule: string; reason: string }[];
  /** The exact command that reruns this scan elevated (CLI: `sudo …` of its own argv). */
  rerun?: string;
}
