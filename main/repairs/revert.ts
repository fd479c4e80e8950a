/**
 * Putting a node back: revert the steps that ran, newest first, each idempotently (so a crash
 * in the middle of a rollback is finished by recovery), remove our temp files, then restart the
 * services the repair restarted so they read the restored files.
 */
import type { JournalEntry, RollbackReport } from '../../shared/model/repair';
import { dirnameNode } from '../conventions/node-paths';
import type { EntryRecorder } from './journal/recorder';
import type { JournalStore } from './journal/store';
import type { NodeFs } from './node-fs';
import { restartExecutor } from './steps/restart';
import { executorFor } from './steps/registry';
import type { RevertContext, StepContext } from './steps/types';
import type { ServiceManager } from './services/types';
import type { PowerShellRunner } from './services/powershell';

export interface RevertDeps {
  fs: NodeFs;
  services: ServiceManager;
  powershell?: PowerShellRunner;
  store: JournalStore;
  serviceWaitMs: number;
}

const osOf = (p: string): 'linux' | 'windows' => (/^[A-Za-z]:[\\/]/.test(p) ? 'windows' : 'linux');

/** Directories where a killed write may have left a temp file. */
export function tempDirs(entry: JournalEntry): string[] {
  const dirs = new Set<string>();
  for (const js of entry.steps) {
    const s = js.step;
    if (s.kind === 'write') {
      dirs.add(dirnameNode(osOf(s.path), s.path));
      if (s.tempDir) dirs.add(s.tempDir);
    } else if (
      s.kind === 'toml-set' ||
      s.kind === 'toml-remove' ||
      s.kind === 'toml-remove-element'
    )
      dirs.add(dirnameNode(osOf(s.path), s.path));
  }
  return [...dirs];
}

export async function revertSteps(
  entry: JournalEntry,
  rec: EntryRecorder,
  deps: RevertDeps,
  phase: 'rollback' | 'undo',
): Promise<RollbackReport> {
  const report: RollbackReport = { restored: [], conflicts: [], errors: [], services: [] };
  let conflictNo = 0;
  const ctx: RevertContext = {
    fs: deps.fs,
    ...(deps.powershell && { powershell: deps.powershell }),
    readBackup: (name) => deps.store.readBackup(entry.id, name),
    async saveConflict(_path, data) {
      const name = `${phase}-${++conflictNo}.conflict`;
      await deps.store.writeBackup(entry.id, name, data);
      return `${deps.store.backupDir(entry.id)}/${name}`;
    },
  };
  // Services whose restart ran (or, for undo, every restart of the plan) are restarted again.
  const restart = [
    ...new Set(
      entry.steps.flatMap((js) =>
        js.step.kind === 'restart-service' &&
        (phase === 'undo' || js.state === 'started' || js.state === 'done')
          ? [js.step]
          : [],
      ),
    ),
  ];
  for (let k = entry.steps.length - 1; k >= 0; k--) {
    const js = entry.steps[k];
    // Restart steps are "reverted" by restarting again below, once every file is back.
    if (
      !js ||
      js.step.kind === 'restart-service' ||
      (js.state !== 'started' && js.state !== 'done')
    )
      continue;
    try {
      const out = await executorFor(js.step).revert(js.step, js, ctx);
      report.restored.push(...out.restored);
      report.conflicts.push(...out.conflicts);
      report.errors.push(...out.errors);
    } catch (e) {
      report.errors.push(`reverting step ${k + 1}: ${(e as Error).message}`);
    }
    await rec.step(k, 'reverted', `${phase}-step`);
  }
  for (const dir of tempDirs(entry)) {
    await deps.fs
      .removeStaleTemps(dir)
      .catch((e: Error) => report.errors.push(`cleaning ${dir}: ${e.message}`));
  }
  const stepCtx: StepContext = {
    fs: deps.fs,
    services: deps.services,
    ...(deps.powershell && { powershell: deps.powershell }),
    boundary: () => undefined,
    serviceWaitMs: deps.serviceWaitMs,
  };
  const done = new Set<string>();
  for (const s of restart) {
    if (s.kind !== 'restart-service' || done.has(s.service)) continue;
    done.add(s.service);
    try {
      await restartExecutor.run(s, stepCtx);
      if (deps.services.live) report.services.push(s.service);
    } catch (e) {
      report.errors.push(`restarting ${s.service}: ${(e as Error).message}`);
    }
  }
  for (const js of entry.steps) {
    if (js.step.kind === 'restart-service' && (js.state === 'started' || js.state === 'done'))
      await rec.step(js.index, 'reverted', `${phase}-step`);
  }
  report.restored = [...new Set(report.restored)];
  return report;
}

/** Roll an entry back to the state before its repair and record why. */
export async function rollBack(
  entry: JournalEntry,
  rec: EntryRecorder,
  deps: RevertDeps,
  reason: string,
): Promise<RollbackReport> {
  entry.reason = reason;
  await rec.status('rolling-back', reason);
  const report = await revertSteps(entry, rec, deps, 'rollback');
  entry.rollback = report;
  await rec.status(
    report.errors.length > 0 ? 'rollback-failed' : 'rolled-back',
    report.errors.length > 0 ? report.errors.join('; ') : reason,
  );
  return report;
}
