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
 *
 * Only entries made for the root this run names, that pass validation (journal/validate.ts), are
 * acted on; the others are named in the report and left alone (docs/security.md "Journal").
 */
import type { JournalEntry, JournalStatus } from '../../shared/model/repair';
import { TERMINAL_STATUSES } from '../../shared/model/repair';
import type { RepairEnvironment } from './environment';
import { acquireNodeLock, LockBusy, type Lock } from './journal/lock';
import { EntryRecorder } from './journal/recorder';
import { JournalStore } from './journal/store';
import { entryProblem } from './journal/validate';
import { depsForEntry } from './recovery-deps';
import { rollBack, revertSteps, tempDirs } from './revert';
import { canonicalRoot, examinedDiskJournal } from './state-dir';

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
  /** Unfinished entries left alone, each with why (another root, failed validation). */
  skipped?: string[];
  /** Things worth saying that are not problems (a journal seen on the examined disk). */
  notes?: string[];
}

export type RecoverEnvironment = Pick<
  RepairEnvironment,
  | 'fs'
  | 'services'
  | 'powershell'
  | 'stateDir'
  | 'stateIo'
  | 'onTransition'
  | 'serviceWaitMs'
  | 'now'
  | 'lockNode'
  | 'lockWaitMs'
>;

const unfinished = (e: JournalEntry): boolean => !TERMINAL_STATUSES.includes(e.status);

export async function recoverJournal(env: RecoverEnvironment): Promise<RecoveryReport> {
  const diskJournal = examinedDiskJournal(env.fs.root);
  const notes = diskJournal ? { notes: [diskJournal] } : {};
  let store: JournalStore | null;
  try {
    store = await JournalStore.open(env.stateDir, { create: false, io: env.stateIo });
  } catch (e) {
    return { recovered: [], problem: (e as Error).message, ...notes };
  }
  if (!store) return { recovered: [], ...notes };
  const { entries } = await store.list().catch(() => ({ entries: [] as JournalEntry[] }));
  if (!entries.some(unfinished) && !(await store.hasStaleTemps()))
    return { recovered: [], ...notes };
  let lock;
  try {
    lock = await acquireNodeLock(env);
  } catch (e) {
    return {
      recovered: [],
      problem:
        e instanceof LockBusy
          ? e.message
          : `cannot recover unfinished repairs in ${env.stateDir}: ${(e as Error).message}`,
      ...notes,
    };
  }
  try {
    const skipped: string[] = [];
    const recovered = await recoverWithLock(store, env, skipped);
    return { recovered, ...(skipped.length && { skipped }), ...notes };
  } catch (e) {
    return { recovered: [], problem: `recovery failed: ${(e as Error).message}`, ...notes };
  } finally {
    await lock.release();
  }
}

/**
 * Before a run changes the node: finish what the last lock holder left unfinished in another
 * state dir (same node and root, another --state-dir), then record ours. The caller holds `lock`.
 * Entries there are validated like our own; a state dir that is no longer safe is not read.
 */
export async function recoverLastHolder(
  lock: Lock,
  env: RecoverEnvironment,
): Promise<RecoveredEntry[]> {
  const last = await lock.lastStateDir?.();
  let out: RecoveredEntry[] = [];
  if (last && canonicalRoot(last) !== canonicalRoot(env.stateDir)) {
    // A state dir that is gone (a node container since restarted) or no longer safe holds
    // nothing we may execute; it must not block this node forever either, so it is passed over.
    const other = await JournalStore.open(last, { create: false, io: env.stateIo }).catch(
      () => null,
    );
    if (other) out = await recoverWithLock(other, env);
  }
  await lock.claim?.(env.stateDir);
  return out;
}

/**
 * Recovers every unfinished entry of this run's root; the caller holds the node lock (so none is
 * in progress). Entries it must not touch are described in `skipped`.
 */
export async function recoverWithLock(
  store: JournalStore,
  env: RecoverEnvironment,
  skipped: string[] = [],
): Promise<RecoveredEntry[]> {
  await store.removeStaleTemps();
  const { entries } = await store.list();
  const out: RecoveredEntry[] = [];
  for (const entry of entries.filter(unfinished).reverse()) {
    const refuse = entryProblem(entry, env.fs.root);
    if (refuse) {
      skipped.push(`unfinished journal entry ${entry.id} was left alone: ${refuse}`);
      continue;
    }
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
