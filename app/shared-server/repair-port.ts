/**
 * The seam between the doors and the repair engine (main/repairs). The backend resolves a repair
 * id against the current scan first; only then does a RepairPort see it. Until the engine is part
 * of the build, `unavailableRepairs` answers every call with a clear "not available" error.
 */
import type { ApplyResult, HistoryEntry, RepairPhase, RepairPreview } from '../../shared/api';
import type { Host } from '../../main/host/host';
import type { ScanResult } from '../../main/engine/scan';
import { ApiError } from './errors';

export interface RepairContext {
  host: Host;
  scan: ScanResult;
  repairId: string;
}

export type RepairProgress = (phase: RepairPhase, message: string) => void;

export interface RepairPort {
  readonly available: boolean;
  preview(ctx: RepairContext): Promise<RepairPreview>;
  apply(
    ctx: RepairContext & { previewToken: string; onProgress: RepairProgress },
  ): Promise<ApplyResult>;
  undo(entryId: string, onProgress: RepairProgress): Promise<ApplyResult>;
  history(): Promise<HistoryEntry[]>;
}

const notYet = (): never => {
  throw new ApiError(
    'unavailable',
    "repairs are not available in this build yet (the repair engine has not landed); use the finding's guidance",
  );
};

export const unavailableRepairs: RepairPort = {
  available: false,
  preview: async () => notYet(),
  apply: async () => notYet(),
  undo: async () => notYet(),
  history: async () => [],
};
