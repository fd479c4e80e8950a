/** `history`: the journal, newest first, in the shape of `history --json` (cli.md). */
import type { HistoryEntry, JournalEntry, RepairRecord } from '../../shared/model/repair';
import { JournalStore, type StateIo } from './journal/store';

export function toHistoryEntry(e: JournalEntry): HistoryEntry {
  return {
    id: e.id,
    repair: e.repair,
    rule: e.rule,
    title: e.title,
    status: e.status,
    createdAt: e.createdAt,
    appliedAt: e.appliedAt,
    finishedAt: e.finishedAt,
    ...(e.undoneAt !== undefined && { undoneAt: e.undoneAt }),
    hostname: e.hostname,
    root: e.root,
    reason: e.reason ?? null,
    files: e.files,
    findingId: e.findingId,
  };
}

/** An entry's outcome as the journal kept it: verification (with the rescan), rollback, undo. */
export function toRepairRecord(e: JournalEntry): RepairRecord {
  return {
    ...toHistoryEntry(e),
    verification: e.verification ?? null,
    rollback: e.rollback ?? null,
    undo: e.undo ?? null,
  };
}

/** The journal of a checked state dir (refused, throwing UnsafeStateDir, when it is not safe). */
export async function readHistory(
  stateDir: string,
  io?: StateIo,
): Promise<{ entries: JournalEntry[]; damaged: string[] }> {
  const store = await JournalStore.open(stateDir, { create: false, io });
  return store ? store.list() : { entries: [], damaged: [] };
}
