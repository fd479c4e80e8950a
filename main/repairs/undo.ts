/**
 * Undo a verified repair: every file goes back to its backup byte for byte, refused (touching
 * nothing) when a file changed since the repair wrote it; then the services are restarted again.
 */
import type { ApplyResult, JournalEntry } from '../../shared/model/repair';
import { shellLine } from '../../shared/shell-quote';
import type { RepairEnvironment } from './environment';
import { acquireNodeLock, LockBusy, type Lock } from './journal/lock';
import { EntryRecorder } from './journal/recorder';
import { ENTRY_ID, JournalStore } from './journal/store';
import { entryProblem } from './journal/validate';
import { depsForEntry } from './recovery-deps';
import { recoverLastHolder, recoverWithLock } from './recover';
import { revertSteps } from './revert';
import { executorFor } from './steps/registry';

export type UndoEnvironment = Pick<
  RepairEnvironment,
  | 'fs'
  | 'services'
  | 'powershell'
  | 'stateDir'
  | 'stateIo'
  | 'onTransition'
  | 'serviceWaitMs'
  | 'now'
  | 'isElevated'
  | 'lockNode'
  | 'lockWaitMs'
>;

const refused = (entry: JournalEntry | null, id: string, reason: string): ApplyResult => ({
  entry: entry?.id ?? id,
  repair: entry?.repair ?? '',
  status: 'refused',
  reason,
  verification: null,
});

export async function undoEntry(
  env: UndoEnvironment,
  id: string,
  rerun = `sudo npx cni-doctor undo ${shellLine([id, '--yes', ...(env.fs.root !== '/' ? ['--root', env.fs.root] : []), '--state-dir', env.stateDir])}`,
): Promise<ApplyResult> {
  if (!ENTRY_ID.test(id))
    return refused(null, id, `"${id}" is not a journal entry id (see \`cni-doctor history\`)`);
  let store: JournalStore | null;
  let first: JournalEntry | null;
  try {
    store = await JournalStore.open(env.stateDir, { create: false, io: env.stateIo });
    first = store ? await store.load(id) : null;
  } catch (e) {
    return refused(null, id, `${(e as Error).message}; nothing was done`);
  }
  if (!store || !first) return refused(null, id, `no journal entry ${id} in ${env.stateDir}`);
  const invalid = entryProblem(first, env.fs.root);
  if (invalid) return refused(first, id, `cannot undo ${id}: ${invalid}; nothing was done`);
  if (first.steps.some((s) => s.step.needsElevation) && !(await env.isElevated()))
    return refused(
      first,
      id,
      `undoing this repair needs root; nothing was changed. Rerun: ${rerun}`,
    );
  let lock: Lock;
  try {
    lock = await acquireNodeLock(env);
  } catch (e) {
    return refused(
      first,
      id,
      e instanceof LockBusy ? e.message : `cannot use ${env.stateDir}: ${(e as Error).message}`,
    );
  }
  try {
    await recoverLastHolder(lock, env);
    await recoverWithLock(store, env);
    const entry = await store.load(id).catch(() => null);
    if (!entry) return refused(null, id, `no journal entry ${id}`);
    if (entry.status !== 'verified')
      return refused(
        entry,
        id,
        `entry ${id} is ${entry.status}; only a verified repair can be undone`,
      );
    const again = entryProblem(entry, env.fs.root);
    if (again) return refused(entry, id, `cannot undo ${id}: ${again}; nothing was done`);
    const { fs, services } = depsForEntry(env, entry);
    const changed: string[] = [];
    for (const js of entry.steps) {
      const why = await executorFor(js.step).changedSince(js.step, js, fs);
      if (why) changed.push(why);
    }
    if (changed.length > 0)
      return refused(
        entry,
        id,
        `${changed.join('; ')}; nothing was restored (undo would destroy that change). Undo later repairs first, or restore by hand from ${store.backupDir(id)}`,
      );
    const rec = new EntryRecorder(store, entry, env.onTransition, env.now);
    await rec.status('undoing');
    const report = await revertSteps(
      entry,
      rec,
      {
        fs,
        services,
        ...(env.powershell && { powershell: env.powershell }),
        store,
        serviceWaitMs: env.serviceWaitMs ?? 30_000,
      },
      'undo',
    );
    entry.undo = report;
    const ok = report.errors.length === 0;
    await rec.status(ok ? 'undone' : 'undo-failed', ok ? undefined : report.errors.join('; '));
    return {
      entry: id,
      repair: entry.repair,
      status: ok ? 'undone' : 'refused',
      reason: ok
        ? `restored ${report.restored.length} file(s)${report.services.length ? `, restarted ${report.services.join(', ')}` : ''}`
        : `undo incomplete: ${report.errors.join('; ')}`,
      verification: null,
      rollback: report,
    };
  } finally {
    await lock.release();
  }
}
