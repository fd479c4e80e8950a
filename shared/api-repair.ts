/**
 * The repair shapes the DoctorApi carries. The repair engine (main/repairs, types in
 * shared/model/repair.ts) is being written in parallel; until that file is committed these mirror
 * the parts of its shapes the doors and the UI read, field for field, so switching to
 * `export type { … } from './model/repair'` changes no caller.
 */
export type RepairRisk = 'low' | 'medium' | 'high';

export interface FileDiff {
  path: string;
  /** Unified diff (`---`/`+++`/`@@`), 3 lines of context. */
  unified: string;
}

export interface RepairPreview {
  repairId: string;
  title: string;
  /** Each step in plain words, in the order they run. */
  description: string[];
  diffs: FileDiff[];
  services: string[];
  podImpact: string;
  needsElevation: boolean;
  risk: RepairRisk;
  notes: string[];
  /** Names the files (and plan) the preview was computed from: apply refuses when any changed. */
  previewToken: string;
}

export interface Verification {
  passed: boolean;
  /** The finding the repair targets is gone after a rescan. */
  resolved: boolean;
  /** Error findings that were not errors before the repair. */
  newFindings: string[];
  notes: string[];
  detail?: string;
}

export type ApplyStatus = 'applied' | 'rolled-back' | 'refused' | 'undone';

export interface ApplyResult {
  /** Journal entry id; null when refused before anything was journaled. */
  entry: string | null;
  repair: string;
  status: ApplyStatus;
  reason: string;
  verification: Verification | null;
  /** On a privilege refusal: the steps that need root/Administrator and how to rerun. */
  elevation?: { steps: string[]; rerun: string };
}

/** One line of `history --json` (cli.md). */
export interface HistoryEntry {
  id: string;
  repair: string;
  rule: string;
  status: string;
  appliedAt: string | null;
  files: string[];
}
