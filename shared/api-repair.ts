/** The repair shapes the DoctorApi carries: the repair engine's own (shared/model/repair.ts). */
export type {
  ApplyResult,
  HistoryEntry,
  RepairPreview,
  RepairRecord,
  RescanDiff,
  UndoChange,
  UndoPreview,
  Verification,
} from './model/repair';
