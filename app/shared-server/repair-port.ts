/**
 * The seam between the doors and the repair engine (main/repairs). The backend resolves a repair
 * id against the scan the page names (its scanId) first; only then does a RepairPort see it.
 */
import type {
  ApplyResult,
  HistoryEntry,
  RepairPhase,
  RepairPreview,
  RepairRecord,
  UndoPreview,
} from '../../shared/api';
import type { Host } from '../../main/host/host';
import type { ScanResult } from '../../main/engine/scan';
import type { RemoteTarget } from '../../shared/target';

export interface RepairContext {
  host: Host;
  scan: ScanResult;
  repairId: string;
  /** The node reached through a transport (a node container); absent: this machine. */
  target?: RemoteTarget;
}

export type RepairProgress = (phase: RepairPhase, message: string) => void;

export interface RepairPort {
  preview(ctx: RepairContext): Promise<RepairPreview>;
  apply(
    ctx: RepairContext & { previewToken: string; onProgress: RepairProgress },
  ): Promise<ApplyResult>;
  undo(entryId: string, onProgress: RepairProgress, target?: RemoteTarget): Promise<ApplyResult>;
  history(target?: RemoteTarget): Promise<HistoryEntry[]>;
  /** What undoing an entry would do, touching nothing. */
  undoPreview(entryId: string, target?: RemoteTarget): Promise<UndoPreview>;
  /** One entry's outcome as the node's journal holds it. */
  record(entryId: string, target?: RemoteTarget): Promise<RepairRecord>;
}
