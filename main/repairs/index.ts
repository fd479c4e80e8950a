/**
 * The repair engine (architecture.md: plan → preview → apply (journal, backup) → verify → undo).
 * Doors call prepareRepair (preview), applyRepair, undoEntry, readHistory and recoverJournal
 * with a RepairEnvironment (localEnvironment() for a real node).
 */
export { prepareRepair, type Prepared } from './prepare';
export { applyRepair, type ApplyOptions } from './apply';
export { undoEntry, type UndoEnvironment } from './undo';
export {
  recoverJournal,
  type RecoveryReport,
  type RecoveredEntry,
  type RecoverEnvironment,
} from './recover';
export { readHistory, toHistoryEntry, toRepairRecord } from './history';
export { previewUndo } from './undo-preview';
export {
  localEnvironment,
  defaultIsElevated,
  type LocalEnvironmentOptions,
} from './local-environment';
export type { RepairEnvironment, Rescan } from './environment';
export { usingEnvironment } from './environment';
export { defaultStateDir } from './state-dir';
export { buildPlan, type PlanOutcome } from './plans/build';
export { PLAN_BUILDERS } from './plans/index';
export type { PlanBuilder, PlanDraft } from './plans/types';
export { PlanHost } from './plans/plan-host';
export { refuse, PlanRefusal } from './plans/refusal';
export { LocalNodeFs, type NodeFs } from './node-fs';
export type { ServiceManager } from './services/types';
export { SystemdServiceManager } from './services/systemd';
export { ProcessServiceManager, type ProcessControl } from './services/process';
export { OfflineServiceManager } from './services/offline';
export { WindowsServiceManager } from './services/windows';
export { scriptPowerShellRunner, type PowerShellRunner } from './services/powershell';
export { executorFor } from './steps/registry';
export type { StepExecutor } from './steps/types';
export { unifiedDiff } from './diff';
