// What fix / undo / history run on, behind one import() so the CLI starts without it.
export {
  applyRepair,
  executorFor,
  localEnvironment,
  prepareRepair,
  previewUndo,
  readHistory,
  recoverJournal,
  toHistoryEntry,
  undoEntry,
  usingEnvironment,
} from '../../../main/repairs';
export { JournalStore } from '../../../main/repairs/journal/store';
export { entryProblem } from '../../../main/repairs/journal/validate';
export { depsForEntry } from '../../../main/repairs/recovery-deps';
