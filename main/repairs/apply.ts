/**
 * applyRepair: the UI or CLI sends a repair id (and the preview token it showed). The plan is
 * recomputed from a fresh scan and refused — with nothing touched — when a file changed since the
 * preview, when root is needed and missing, or when the state dir is unsafe. Otherwise:
 *
 *   journal "planned" → backups (fsynced) → "backed-up" → each step "started"/"done" →
 *   "applied" → verify by rescanning → "verified", or roll back → "rolled-back".
 *
 * Every transition is persisted before the next change, so recovery can finish the job after a
 * crash at any point (recover.ts).
 */
import * as os from 'node:os';
import type {
  ApplyResult,
  FileBackup,
  JournalEntry,
  JournalStep,
  RepairPlan,
  RollbackReport,
  Verification,
} from '../../shared/model/repair';
import type { Report } from '../../shared/model/report';
import type { Snapshot } from '../../shared/model/snapshot';
import { DEFAULT_RERUN, type RepairEnvironment } from './environment';
import { sha256 } from './hash';
import { changedInputs } from './inputs';
import { acquireNodeLock, LockBusy, type Lock } from './journal/lock';
import { EntryRecorder } from './journal/recorder';
import { JournalStore, newEntryId } from './journal/store';
import { prepareRepair } from './prepare';
import { recoverLastHolder, recoverWithLock } from './recover';
import { rollBack, type RevertDeps } from './revert';
import { stateDirProblem } from './state-dir';
import { executorFor } from './steps/registry';
import type { StepContext } from './steps/types';
import { compareToken } from './token';
import { describeSteps } from './preview';
import { verifyRepair } from './verify';

export interface ApplyOptions {
  /** The token of the preview the user approved; without it the fresh plan is applied as is. */
  previewToken?: string;
}

const refused = (
  repair: string,
  reason: string,
  extra: Partial<ApplyResult> = {},
): ApplyResult => ({
  entry: null,
  repair,
  status: 'refused',
  reason,
  verification: null,
  ...extra,
});

export async function applyRepair(
  env: RepairEnvironment,
  repairId: string,
  opts: ApplyOptions = {},
): Promise<ApplyResult> {
  const prepared = await prepareRepair(env, repairId);
  if (!prepared.ok) return refused(repairId, prepared.reason);
  const { plan, scan } = prepared;
  if (opts.previewToken !== undefined) {
    const cmp = compareToken(opts.previewToken, plan);
    if (!cmp.ok) return refused(repairId, cmp.reason);
  }
  if (plan.needsElevation && !(await env.isElevated())) {
    const words = describeSteps(plan, env.fs.live);
    const steps = plan.steps.flatMap((s, i) => (s.needsElevation ? [`${i + 1}. ${words[i]}`] : []));
    const rerun = (env.rerunCommand ?? DEFAULT_RERUN)(repairId);
    return refused(
      repairId,
      `this repair needs root (${steps.length} of ${plan.steps.length} step(s)); nothing was changed. Rerun: ${rerun}`,
      { elevation: { steps, rerun } },
    );
  }
  const unsafe = await stateDirProblem(env.stateDir, scan.snapshot, env.fs);
  if (unsafe) return refused(repairId, unsafe);

  let store: JournalStore;
  let lock: Lock;
  try {
    store = (await JournalStore.open(env.stateDir, {
      create: true,
      io: env.stateIo,
    })) as JournalStore;
    lock = await acquireNodeLock(env);
  } catch (e) {
    return refused(
      repairId,
      e instanceof LockBusy
        ? e.message
        : `cannot use the state dir ${env.stateDir}: ${(e as Error).message}`,
    );
  }
  try {
    // Entries a crashed run left behind are put right before anything new starts — in our state
    // dir, and in the one the last holder of this node's lock used.
    await recoverLastHolder(lock, env);
    await recoverWithLock(store, env);
    const changed = await changedInputs(plan, env.fs);
    if (changed.length > 0)
      return refused(
        repairId,
        `${changed.join(', ')} changed while the repair was being prepared; nothing was touched. Try again`,
      );
    const stepCtx = stepContext(env, () => undefined);
    for (const s of plan.steps) {
      try {
        await executorFor(s).precheck(s, stepCtx);
      } catch (e) {
        return refused(repairId, `${(e as Error).message}; nothing was touched`);
      }
    }
    return await run(env, store, plan, scan);
  } finally {
    await lock.release();
  }
}

function stepContext(env: RepairEnvironment, boundary: (p: string) => void): StepContext {
  return {
    fs: env.fs,
    services: env.services,
    ...(env.powershell && { powershell: env.powershell }),
    boundary,
    serviceWaitMs: env.serviceWaitMs ?? 30_000,
  };
}

function newEntry(env: RepairEnvironment, plan: RepairPlan): JournalEntry {
  const now = (env.now ?? (() => new Date()))();
  const words = describeSteps(plan, env.fs.live);
  const steps: JournalStep[] = plan.steps.map((step, index) => ({
    index,
    step,
    state: 'pending',
    description: words[index] ?? step.kind,
    backups: [],
  }));
  const files = [...new Set(plan.steps.flatMap((s) => executorFor(s).touches(s)))];
  return {
    schema: 'cni-doctor.journal/v1',
    id: newEntryId(now),
    repair: plan.repairId,
    rule: plan.rule,
    findingId: plan.findingId,
    kind: plan.kind,
    title: plan.title,
    status: 'planned',
    createdAt: now.toISOString(),
    appliedAt: null,
    finishedAt: null,
    root: env.fs.root,
    pid: process.pid,
    // The node repaired, not the machine the repair was driven from (a node container, ssh).
    hostname: env.nodeName ?? os.hostname(),
    risk: plan.risk,
    podImpact: plan.podImpact,
    services: plan.services,
    files,
    steps,
    transitions: [],
  };
}

/** Backs up every path a step touches (bytes, mode, owner; or "did not exist"). */
async function backUp(
  env: RepairEnvironment,
  store: JournalStore,
  entry: JournalEntry,
): Promise<void> {
  for (const js of entry.steps) {
    const paths = executorFor(js.step).touches(js.step);
    for (const [i, p] of paths.entries()) {
      const st = await env.fs.stat(p, true);
      const data = st?.type === 'file' ? await env.fs.read(p) : null;
      let b: FileBackup;
      if (st === null || data === null) b = { path: p, file: null, sha256: null };
      else {
        const file = `${js.index + 1}-${i + 1}.bak`;
        await store.writeBackup(entry.id, file, data);
        b = { path: p, file, sha256: sha256(data), mode: st.mode, uid: st.uid, gid: st.gid };
      }
      js.backups.push(b);
    }
  }
}

async function run(
  env: RepairEnvironment,
  store: JournalStore,
  plan: RepairPlan,
  scan: { report: Report; snapshot: Snapshot },
): Promise<ApplyResult> {
  const entry = newEntry(env, plan);
  const rec = new EntryRecorder(store, entry, env.onTransition, env.now);
  const deps: RevertDeps = {
    fs: env.fs,
    services: env.services,
    ...(env.powershell && { powershell: env.powershell }),
    store,
    serviceWaitMs: env.serviceWaitMs ?? 30_000,
  };
  const result = (
    status: ApplyResult['status'],
    reason: string,
    verification: Verification | null,
    rollback?: RollbackReport,
  ): ApplyResult => ({
    entry: entry.id,
    repair: plan.repairId,
    status,
    reason,
    verification,
    ...(rollback && { rollback }),
  });

  await rec.status('planned');
  await backUp(env, store, entry);
  await rec.status('backed-up');

  for (const js of entry.steps) {
    const k = js.index;
    await rec.step(k, 'started', 'step', 'applying');
    const ctx = stepContext(env, (p) => rec.boundary(`step-${k + 1}:${p}`));
    try {
      const exec = executorFor(js.step);
      await exec.precheck(js.step, ctx);
      const out = await exec.run(js.step, ctx);
      if (out.resultSha256 !== undefined) js.resultSha256 = out.resultSha256;
    } catch (e) {
      js.error = (e as Error).message;
      // The journal keeps the whole message (e.g. a log tail); the reason stays one line.
      const why = `step ${k + 1} (${js.description}) failed: ${js.error.split('\n')[0]}`;
      const rb = await rollBack(entry, rec, deps, why);
      return result('rolled-back', `${why}; ${rollbackWords(rb)}`, null, rb);
    }
    await rec.step(k, 'done');
  }
  await rec.status('applied');

  const live = env.services.live;
  const hasRestart = plan.steps.some((s) => s.kind === 'restart-service');
  const verification = await verifyRepair({
    plan,
    before: scan,
    rescan: () => (env.rescan ? env.rescan() : env.scan()),
    services: env.services,
    timeoutMs: env.verifyTimeoutMs ?? (!env.fs.live ? 0 : live && hasRestart ? 30_000 : 10_000),
    intervalMs: env.verifyIntervalMs ?? 1000,
  });
  entry.verification = verification;
  if (verification.passed) {
    await rec.status('verified');
    return result(
      'applied',
      `${plan.title}: done and verified (the finding is gone${verification.cri.length ? ', the runtime answers CRI' : ''})`,
      verification,
    );
  }
  const why = `verification failed: ${verification.detail ?? 'unknown reason'}`;
  const rb = await rollBack(entry, rec, deps, why);
  return result('rolled-back', `${why}; ${rollbackWords(rb)}`, verification, rb);
}

export function rollbackWords(rb: RollbackReport): string {
  const parts = [
    `rolled back (${rb.restored.length} file(s) restored${rb.services.length ? `, ${rb.services.join(', ')} restarted` : ''})`,
  ];
  if (rb.conflicts.length)
    parts.push(`unexpected content kept in ${rb.conflicts.map((c) => c.savedAs).join(', ')}`);
  if (rb.errors.length)
    parts.push(`ROLLBACK INCOMPLETE: ${rb.errors.map((e) => e.split('\n')[0]).join('; ')}`);
  return parts.join('; ');
}
