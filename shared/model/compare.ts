/**
 * Two scans side by side (`cni-doctor compare`, the Compare screen): which findings appeared, went
 * away or changed, which checks changed status, and each runtime's CNI load order then and now.
 * Browser-safe: types only; main/compare/ computes it.
 */
import type { CheckStatus, ConfEntryRole, Severity } from './finding';

export const COMPARISON_SCHEMA = 'cni-doctor.comparison/v1';

/** One side of a comparison, as the report names it. */
export interface ComparedScan {
  /** The server's scan id (UI), absent on the command line. */
  scanId?: string;
  /** "live node", a bundle's file name, a demo's title, a target. */
  label: string;
  os: 'linux' | 'windows';
  hostname?: string;
  scannedAt?: string;
}

/** A finding without its evidence: enough to list it. */
export interface FindingBrief {
  id: string;
  rule: string;
  severity: Severity;
  title: string;
  summary: string;
}

/** What differs in a finding both scans have (matched by its stable id). */
export type FindingChange =
  | { field: 'severity'; before: Severity; after: Severity }
  | { field: 'title' | 'summary'; before: string; after: string }
  | {
      field: 'evidence';
      /** One line per evidence item, at most MAX_EVIDENCE_LINES each; the counts are exact. */
      added: string[];
      removed: string[];
      addedCount: number;
      removedCount: number;
    }
  | { field: 'repairs'; added: string[]; removed: string[] };

export interface ChangedFinding {
  before: FindingBrief;
  after: FindingBrief;
  changes: FindingChange[];
}

/** A check whose status differs; `absent` when one scan did not run it (another OS, older build). */
export interface CheckChange {
  rule: string;
  before: CheckStatus | 'absent';
  after: CheckStatus | 'absent';
  /** The newer scan's reason for unknown / not-applicable, when it gave one. */
  reason?: string;
}

/** One file of a conf dir in one scan's load order. */
export interface LoadOrderEntry {
  name: string;
  role: ConfEntryRole;
  network?: string;
  /** Why the runtime treats it so ("containerd stops before this file", a parse error). */
  note?: string;
}

/** A runtime's conf dir in one scan. `note` says why no order could be told (unreadable dir). */
export interface LoadOrderSide {
  confDir: string;
  entries: LoadOrderEntry[];
  note?: string;
}

export type LoadOrderRowChange = 'added' | 'gone' | 'moved' | 'role' | 'same';

/** A file name across both scans: its place (1-based) and role then and now. */
export interface LoadOrderRow {
  name: string;
  before?: { position: number; role: ConfEntryRole; network?: string };
  after?: { position: number; role: ConfEntryRole; network?: string };
  change: LoadOrderRowChange;
}

/** One runtime's load order then and now (matched by runtime). */
export interface LoadOrderComparison {
  /** `containerd`, `crio`. */
  runtime: string;
  /** "containerd", "k3s's containerd", "CRI-O". */
  label: string;
  before?: LoadOrderSide;
  after?: LoadOrderSide;
  rows: LoadOrderRow[];
  /** The file in use (first `in-use` entry) then and now. */
  inUseBefore?: string;
  inUseAfter?: string;
  changed: boolean;
}

export interface ScanComparison {
  schema: typeof COMPARISON_SCHEMA;
  before: ComparedScan;
  after: ComparedScan;
  /** In the newer scan only, most severe first. */
  added: FindingBrief[];
  /** In the older scan only, most severe first. */
  gone: FindingBrief[];
  changed: ChangedFinding[];
  /** Findings both scans have, identical. */
  unchanged: number;
  checks: CheckChange[];
  loadOrder: LoadOrderComparison[];
}

export const MAX_EVIDENCE_LINES = 20;
