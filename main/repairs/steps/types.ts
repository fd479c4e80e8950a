/**
 * One executor per step kind. Executors change the node only through NodeFs, a ServiceManager or
 * the allow-listed PowerShell runner, and can put back what they changed from the journal's
 * backups (idempotently: a revert that finds the file already restored does nothing).
 */
import type { FileBackup, JournalStep, RepairStep } from '../../../shared/model/repair';
import type { NodeFs } from '../node-fs';
import type { PowerShellRunner } from '../services/powershell';
import type { ServiceManager } from '../services/types';

export interface StepContext {
  fs: NodeFs;
  services: ServiceManager;
  powershell?: PowerShellRunner;
  /** A boundary inside a step (temp file complete, not yet renamed): crash tests stop here. */
  boundary(point: string): void;
  /** How long a restarted service may take to report active. */
  serviceWaitMs: number;
}

export interface RevertContext {
  fs: NodeFs;
  /** For steps whose undo is another allow-listed cmdlet (New-HnsNetwork → Remove-HnsNetwork). */
  powershell?: PowerShellRunner;
  readBackup(name: string): Promise<Buffer>;
  /** Keep bytes we are about to replace that the repair did not write; returns where. */
  saveConflict(path: string, data: Buffer): Promise<string>;
}

export interface RevertOutcome {
  restored: string[];
  conflicts: { path: string; savedAs: string }[];
  errors: string[];
}

export class StepConflict extends Error {}

export interface StepExecutor<S extends RepairStep = RepairStep> {
  describe(step: S, live: boolean): string;
  /** Node paths whose prior state is backed up before any step runs. */
  touches(step: S): string[];
  /** Right before running: is the node still as the plan expects? Throws StepConflict. */
  precheck(step: S, ctx: StepContext): Promise<void>;
  run(step: S, ctx: StepContext): Promise<{ resultSha256?: string | null }>;
  /** Put back the state before this step (idempotent). */
  revert(step: S, js: JournalStep, ctx: RevertContext): Promise<RevertOutcome>;
  /** Undo's precondition: does the node still hold what the step left? Returns why not, or null. */
  changedSince(step: S, js: JournalStep, fs: NodeFs): Promise<string | null>;
}

export const noRevert = (): RevertOutcome => ({ restored: [], conflicts: [], errors: [] });

export function backupFor(js: JournalStep, path: string): FileBackup | undefined {
  return js.backups.find((b) => b.path === path);
}
