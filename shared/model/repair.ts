import type { FindingBrief, LoadOrderComparison } from './compare';

/**
 * Repairs as data (architecture.md "Repairs are data"): a plan is a list of typed steps that the
 * engine's own executors carry out. The renderer only ever sends a repair id (and the preview
 * token it was shown); it never sends a path, a command or a script. Browser-safe: types only.
 */

export type RepairRisk = 'low' | 'medium' | 'high';

/** Every step says whether it needs root/Administrator, so a refusal can list exactly those. */
interface StepBase {
  needsElevation: boolean;
}

/** Rename within the node's file system (same directory for CNI configs: one Rename event). */
export interface RenameStep extends StepBase {
  kind: 'rename';
  from: string;
  to: string;
}

/**
 * Replace (or create) a file atomically: temp file in `tempDir` (default: the same directory),
 * fsync, rename, fsync the directory. `expectedSha256` is the hash of the file the plan was
 * computed from; `null` means the file must not exist yet.
 */
export interface WriteStep extends StepBase {
  kind: 'write';
  path: string;
  content: string;
  expectedSha256: string | null;
  /** Mode for a new file; an existing file keeps its own mode and owner. */
  mode?: number;
  /** Where the temp file goes when the target directory loads every file (CRI-O's crio.conf.d). */
  tempDir?: string;
}

export type TomlStepValue = string | number | boolean | string[];

/**
 * TOML intents. Plan builders lower them to `write` steps with the full new content before a
 * preview is shown (so the diff is exact); executors accept them too and lower them the same way.
 */
export interface TomlSetStep extends StepBase {
  kind: 'toml-set';
  path: string;
  keyPath: string[];
  value: TomlStepValue;
  expectedSha256: string;
}

export interface TomlRemoveStep extends StepBase {
  kind: 'toml-remove';
  path: string;
  keyPath: string[];
  expectedSha256: string;
}

export interface TomlRemoveElementStep extends StepBase {
  kind: 'toml-remove-element';
  path: string;
  keyPath: string[];
  element: string;
  expectedSha256: string;
}

export interface RestartServiceStep extends StepBase {
  kind: 'restart-service';
  service: string;
  /** `systemd`, `windows`, … — the manager the plan expects; informational. */
  manager?: string;
  /** systemd: run `daemon-reload` first (a unit drop-in changed). */
  daemonReload?: boolean;
}

/** The only PowerShell a plan may run: one allow-listed cmdlet with typed parameters. */
// Remove-HnsNetwork exists only as the undo of New-HnsNetwork (by the ID it created).
export type PowerShellCmdlet =
  | 'New-HnsNetwork'
  | 'Remove-HnsNetwork'
  | 'Remove-HnsEndpoint'
  | 'Restart-Service'
  | 'Start-Service';
export const POWERSHELL_CMDLETS: readonly PowerShellCmdlet[] = [
  'New-HnsNetwork',
  'Remove-HnsNetwork',
  'Remove-HnsEndpoint',
  'Restart-Service',
  'Start-Service',
];
export type PowerShellParam = string | number | boolean | string[];

export interface PowerShellStep extends StepBase {
  kind: 'powershell';
  cmdlet: PowerShellCmdlet;
  params: Record<string, PowerShellParam>;
  /** Words for the preview, e.g. "Create the NAT network 'nat' (10.0.0.0/24)". */
  description?: string;
}

export type RepairStep =
  | RenameStep
  | WriteStep
  | TomlSetStep
  | TomlRemoveStep
  | TomlRemoveElementStep
  | RestartServiceStep
  | PowerShellStep;

export type RepairStepKind = RepairStep['kind'];

/** A file (or directory listing) the planner read; its hash goes into the preview token. */
export interface PlanInput {
  kind: 'file' | 'dir';
  path: string;
  /** sha256 of the content (dir: of the sorted names); null = did not exist. */
  sha256: string | null;
}

export interface RepairPlan {
  repairId: string;
  rule: string;
  findingId: string;
  /** The offer kind the plan was built for (rename-file, containerd-enable-cri, …). */
  kind: string;
  title: string;
  risk: RepairRisk;
  needsElevation: boolean;
  steps: RepairStep[];
  /** What running pods notice (docs/knowledge/node-layouts.md#what-each-repair-does-to-a-running-node). */
  podImpact: string;
  services: string[];
  /** Everything the plan was computed from (the preview token hashes these). */
  inputs: PlanInput[];
  /** Extra cautions shown with the preview. */
  notes: string[];
}

export interface FileDiff {
  path: string;
  /** Unified diff (`---`/`+++`/`@@`), 3 lines of context. */
  unified: string;
}

export interface RepairPreview {
  repairId: string;
  title: string;
  plan: RepairPlan;
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
  /**
   * Each runtime whose CNI conf dir or settings the repair changes: its load order now and after
   * this repair (the plan applied to the scan's snapshot, judged by the rules' model).
   */
  loadOrder?: LoadOrderComparison[];
}

// ---------------------------------------------------------------- apply, verify, journal

export interface Verification {
  /** Every check passed (the repair is kept). */
  passed: boolean;
  /** The finding the repair targets is gone after a rescan. */
  resolved: boolean;
  /** Error findings that were not errors before the repair (a reason to roll back). */
  newFindings: string[];
  /** The same findings in words, for people: id and title. */
  newFindingTitles?: { id: string; title: string }[];
  /** Runtime endpoints asked over CRI after the repair. */
  cri: { endpoint: string; ok: boolean; detail: string }[];
  services: { name: string; active: boolean }[];
  /** Conf dirs the repair touched, with how many valid loadable configs they hold now. */
  confDirs: { path: string; valid: number }[];
  attempts: number;
  notes: string[];
  /** Why verification failed, in one sentence. */
  detail?: string;
  /**
   * What the verification rescan saw beside the scan the repair was planned from (kept in the
   * journal, so the outcome reads the same after a reload or from another machine).
   */
  rescan?: RescanDiff;
}

/** The verification rescan against the scan before the repair: findings and each load order. */
export interface RescanDiff {
  /** In the scan before the repair only. */
  gone: FindingBrief[];
  /** In both. */
  stayed: FindingBrief[];
  /** In the rescan only. */
  appeared: FindingBrief[];
  /** Each runtime's conf dir load order before the repair and after it. */
  loadOrder: LoadOrderComparison[];
}

export type ApplyStatus = 'applied' | 'rolled-back' | 'refused' | 'undone';

export interface RollbackReport {
  /** Files put back (node paths). */
  restored: string[];
  /** Files that held unexpected content; that content was kept in the state dir first. */
  conflicts: { path: string; savedAs: string }[];
  services: string[];
  errors: string[];
}

export interface ApplyResult {
  /** Journal entry id; null when refused before anything was journaled. */
  entry: string | null;
  repair: string;
  status: ApplyStatus;
  reason: string;
  verification: Verification | null;
  rollback?: RollbackReport;
  /** On a privilege refusal: the steps that need root/Administrator and how to rerun. */
  elevation?: { steps: string[]; rerun: string };
}

/**
 * planned → backed-up → applying (step k started/done …) → applied → verified
 *                                                      ↘ rolling-back → rolled-back | rollback-failed
 * verified → undoing → undone | undo-failed
 */
export type JournalStatus =
  | 'planned'
  | 'backed-up'
  | 'applying'
  | 'applied'
  | 'verified'
  | 'rolling-back'
  | 'rolled-back'
  | 'rollback-failed'
  | 'undoing'
  | 'undone'
  | 'undo-failed';

export const TERMINAL_STATUSES: readonly JournalStatus[] = [
  'verified',
  'rolled-back',
  'rollback-failed',
  'undone',
  'undo-failed',
];

export type JournalStepState = 'pending' | 'started' | 'done' | 'reverted';

/** What a file held before the repair touched it. */
export interface FileBackup {
  path: string;
  /** Backup file name inside the entry's backup dir; null when the path did not exist. */
  file: string | null;
  sha256: string | null;
  mode?: number;
  uid?: number;
  gid?: number;
}

export interface JournalStep {
  index: number;
  step: RepairStep;
  state: JournalStepState;
  description: string;
  backups: FileBackup[];
  /**
   * Hash of the file the step left behind (write: the content; rename: the moved file). A
   * powershell New-HnsNetwork step records the ID of the network it created here instead, so
   * that undo removes exactly that network.
   */
  resultSha256?: string | null;
  error?: string;
}

export interface JournalTransition {
  at: string;
  status: JournalStatus;
  detail?: string;
}

export interface JournalEntry {
  schema: 'cni-doctor.journal/v1';
  id: string;
  repair: string;
  rule: string;
  findingId: string;
  kind: string;
  title: string;
  status: JournalStatus;
  createdAt: string;
  /** When every step had run; null if it never got there. */
  appliedAt: string | null;
  /** When the apply ended (verified, rolled back, refused); an undo does not move it. */
  finishedAt: string | null;
  /** When an undo ended (undone or undo-failed); absent until one did. */
  undoneAt?: string;
  /** The node root the repair acted on (`/`, or a node disk under --root). */
  root: string;
  pid: number;
  hostname: string;
  risk: RepairRisk;
  podImpact: string;
  services: string[];
  /** Node paths of every file the repair writes or renames. */
  files: string[];
  steps: JournalStep[];
  transitions: JournalTransition[];
  reason?: string;
  verification?: Verification;
  rollback?: RollbackReport;
  undo?: RollbackReport;
}

/** One line of `history --json`: what the text history and the History screen show. */
export interface HistoryEntry {
  id: string;
  repair: string;
  rule: string;
  /** The repair's title, in words ("Disable 10-containerd-net.conflist"). */
  title: string;
  status: JournalStatus;
  /** When the entry was written (before any change). */
  createdAt: string;
  appliedAt: string | null;
  /** When the apply ended (verified, rolled back …); an undo keeps it (newcomer review 1.8). */
  finishedAt: string | null;
  /** When an undo ended (undone or undo-failed). */
  undoneAt?: string;
  /** The node it acted on: its host name and root (`/`, or a node disk under --root). */
  hostname: string;
  root: string;
  /** Why it ended as it did (a refusal, what verification found, why it was rolled back). */
  reason: string | null;
  files: string[];
  /** The finding the repair was for (the finding panel finds its repair again after a reload). */
  findingId?: string;
}

/** One journal entry as the UI shows its outcome: the history line and what the journal kept. */
export interface RepairRecord extends HistoryEntry {
  verification: Verification | null;
  rollback: RollbackReport | null;
  undo: RollbackReport | null;
  /** The server's scan from before the repair, while it still holds it (Compare before/after). */
  beforeScanId?: string;
}

/** What undoing a file does: put back its content, rename it back, or remove what the repair made. */
export interface UndoChange {
  path: string;
  action: 'restore' | 'rename-back' | 'remove';
  /** rename-back: the name the file has now. */
  from?: string;
  /** Unified diff from the current content to what undo leaves ('' when the content is the same). */
  diff: string;
}

/** `undo` without `--yes`: what undoing an entry would change, or why it is refused now. */
export interface UndoPreview {
  entry: string;
  repair: string;
  title: string;
  status: JournalStatus;
  changes: UndoChange[];
  /** Services restarted again once the files are back. */
  services: string[];
  /** Other actions undo takes, in words (an HNS network it removes again, …). */
  actions: string[];
  /** Why undo would be refused now (a file changed since the repair); empty: undo can run. */
  refusedBecause: string[];
}
