/**
 * Recovery of entries a crash (kill -9, power loss, a closed laptop lid on the GUI) left
 * unfinished. Runs at the start of every command that touches the journal and of the app.
 *
 * Policy — the node goes back to the state before the repair unless the repair was verified:
 *   planned, backed-up          nothing on the node was touched yet → marked rolled-back
 *   applying, applied           rolled back (also when every step had run: only a verified
 *                               repair is kept, and verification cannot be trusted to a
 *                               half-dead process; rerun `fix` to apply it again)
 *   rolling-back                the rollback is finished
 *   undoing                     the undo is finished (the user asked for the old state)
 * Reverts are idempotent, so a crash during recovery is recovered the same way.
 */
import type { JournalEntry, JournalStatus } from '../../shared/model/repair';
import { TERMINAL_STATUSES } from '../../shared/model/repair';
import type { RepairEnvironment } from './environment';
import { acquireLock, LockBusy } from './journal/lock';
import { EntryRecorder } from './journal/recorder';
import { JournalStore } from './journal/store';
import { depsForEntry } from './recovery-deps';
import { rollBack, revertSteps, tempDirs } from './revert';

export interface RecoveredEntry {
  entry: string;
  repair: string;
  from: JournalStatus;
  to: JournalStatus;
  detail: string;
}

export interface RecoveryReport {
  recovered: RecoveredEntry[];
  /** Set when recovery could not run (another process holds the lock, no permission). */
  problem?: string;
}

export type RecoverEnvironment = Pick<
  RepairEnvironment,
  'fs' | 'services' | 'powershell' | 'stateDir' | 'onTransition' | 'serviceWaitMs' | 'now'
>;

export async function recoverJournal(env: RecoverEnvironment): Promise<RecoveryReport> {
  const store = new JournalStore(env.stateDir);
  if (!(await store.exists())) return { recovered: [] };
  const { entries } = await store.list().catch(() => ({ entries: [] as JournalEntry[] }));
  if (!entries.some((e) => !TERMINAL_STATUSES.includes(e.status))) return { recovered: [] };
  let lock;
  try {
    lock = await acquireLock(env.stateDir);
  } catch (e) {
    return {
      recovered: [],
      problem:
        e instanceof LockBusy
          ? e.message
          : `cannot recover unfinished repairs in ${env.stateDir}: ${(e as Error).message}`,
    };
  }
  try {
    return { recovered: await recoverWithLock(store, env) };
  } catch (e) {
    return { recovered: [], problem: `recovery failed: ${(e as Error).message}` };
  } finally {
    await lock.release();
  }
}

/** Recovers every unfinished entry; the caller holds the lock (so none is in progress). */
export async function recoverWithLock(
  store: JournalStore,
  env: RecoverEnvironment,
): Promise<RecoveredEntry[]> {
  await store.removeStaleTemps();
  const { entries } = await store.list();
  const out: RecoveredEntry[] = [];
  for (const entry of entries.filter((e) => !TERMINAL_STATUSES.includes(e.status)).reverse()) {
    const from = entry.status;
    const { fs, services } = depsForEntry(env, entry);
    const rec = new EntryRecorder(store, entry, env.onTransition, env.now);
    const deps = {
      fs,
      services,
      ...(env.powershell && { powershell: env.powershell }),
      store,
      serviceWaitMs: env.serviceWaitMs ?? 30_000,
    };
    let detail: string;
    if (from === 'planned' || from === 'backed-up') {
      for (const dir of tempDirs(entry)) await fs.removeStaleTemps(dir);
      entry.reason = 'interrupted before any change to the node; nothing to put back';
      await rec.status('rolled-back', entry.reason);
      detail = entry.reason;
    } else if (from === 'undoing') {
      const report = await revertSteps(entry, rec, deps, 'undo');
      entry.undo = report;
      await rec.status(
        report.errors.length ? 'undo-failed' : 'undone',
        'an interrupted undo was finished',
      );
      detail = `finished the interrupted undo (${report.restored.length} file(s) restored)`;
    } else {
      const why =
        from === 'rolling-back'
          ? (entry.reason ?? 'an interrupted rollback')
          : `interrupted while ${from === 'applied' ? 'verifying' : 'applying'} (the process ended before the repair was verified)`;
      const report = await rollBack(
        entry,
        rec,
        deps,
        from === 'rolling-back' ? why : `${why}; rolled back by recovery`,
      );
      detail = `rolled back: ${report.restored.length} file(s) restored${report.services.length ? `, ${report.services.join(', ')} restarted` : ''}${report.errors.length ? `; errors: ${report.errors.join('; ')}` : ''}`;
    }
    out.push({ entry: entry.id, repair: entry.repair, from, to: entry.status, detail });
  }
  return out;
}
