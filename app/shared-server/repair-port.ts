/**
 * The seam between the doors and the repair engine (main/repairs). The backend resolves a repair
 * id against the current scan first; only then does a RepairPort see it (engine-repairs.ts).
 */
import type { ApplyResult, HistoryEntry, RepairPhase, RepairPreview } from '../../shared/api';
import type { Host } from '../../main/host/host';
import type { ScanResult } from '../../main/engine/scan';

export interface RepairContext {
  host: Host;
  scan: ScanResult;
  repairId: string;
}

export type RepairProgress = (phase: RepairPhase, message: string) => void;

export interface RepairPort {
  preview(ctx: RepairContext): Promise<RepairPreview>;
  apply(
    ctx: RepairContext & { previewToken: string; onProgress: RepairProgress },
  ): Promise<ApplyResult>;
  undo(entryId: string, onProgress: RepairProgress): Promise<ApplyResult>;
  history(): Promise<HistoryEntry[]>;
}
