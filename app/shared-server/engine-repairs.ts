/**
 * The RepairPort backed by the repair engine (main/repairs). The engine rescans the node and
 * rebuilds the plan from the repair id for every preview and apply, so nothing the door holds
 * (an older scan, a host object) can steer what it changes. Like the CLI, apply, undo and history
 * first finish any repair a crash left half-done.
 */
import type { RepairPhase } from '../../shared/api';
import {
  applyRepair,
  localEnvironment,
  prepareRepair,
  previewUndo,
  readHistory,
  recoverJournal,
  toHistoryEntry,
  toRepairRecord,
  undoEntry,
  type LocalEnvironmentOptions,
  type RepairEnvironment,
  usingEnvironment,
} from '../../main/repairs';
import { JournalStore } from '../../main/repairs/journal/store';
import { ApiError } from './errors';
import type { RepairPort, RepairProgress } from './repair-port';
import type { RemoteTarget } from '../../shared/target';

/** Journal transition points (`planned`, `step-2:done`, `revert-1:started`, …) in the UI's words. */
export function phaseOf(point: string): { phase: RepairPhase; message: string } {
  const step = /^(step|revert|undo)-(\d+):(\w+)$/.exec(point);
  if (step) {
    const [, kind, n, state] = step;
    return {
      phase: kind === 'step' ? 'applying' : kind === 'revert' ? 'rolling-back' : 'undoing',
      message: `step ${n} ${state}`,
    };
  }
  const map: Record<string, RepairPhase> = {
    planned: 'planning',
    'backed-up': 'backing-up',
    applying: 'applying',
    applied: 'verifying',
    verified: 'done',
    'rolling-back': 'rolling-back',
    'rolled-back': 'failed',
    'rollback-failed': 'failed',
    undoing: 'undoing',
    undone: 'done',
    'undo-failed': 'failed',
  };
  return {
    phase: map[point] ?? 'applying',
    message: point === 'applied' ? 'applied; verifying by rescanning' : point,
  };
}

export function engineRepairs(
  opts: Omit<LocalEnvironmentOptions, 'onTransition'> = {},
): RepairPort {
  const transition = (progress?: RepairProgress) =>
    progress && {
      onTransition: (point: string) => {
        const p = phaseOf(point);
        progress(p.phase, p.message);
      },
    };
  /** This machine's node, or the node container the page's scan or source names. */
  const env = async (
    progress?: RepairProgress,
    target?: RemoteTarget,
  ): Promise<RepairEnvironment> => {
    if (!target) return localEnvironment({ ...opts, ...transition(progress) });
    const { targetEnvironment } = await import('../../main/remote/repair-environment');
    try {
      return await targetEnvironment(target, {
        ...transition(progress),
        ...(opts.verifyTimeoutMs !== undefined && { verifyTimeoutMs: opts.verifyTimeoutMs }),
        ...(opts.criDeadlineMs !== undefined && { criDeadlineMs: opts.criDeadlineMs }),
      });
    } catch (e) {
      throw new ApiError('refused', (e as Error).message);
    }
  };

  const recover = async (e: RepairEnvironment): Promise<void> => {
    // A problem here (no permission, a busy lock) is the apply/undo's to report, not a crash.
    await recoverJournal(e).catch(() => undefined);
  };

  return {
    // Each request releases what reaching a remote node held (usingEnvironment).
    async preview({ repairId, target }) {
      return usingEnvironment(await env(undefined, target), async (e) => {
        const p = await prepareRepair(e, repairId);
        if (!p.ok) throw new ApiError('refused', p.reason);
        return p.preview;
      });
    },
    async apply({ repairId, previewToken, onProgress, target }) {
      return usingEnvironment(await env(onProgress, target), async (e) => {
        await recover(e);
        return applyRepair(e, repairId, { previewToken });
      });
    },
    async undo(entryId, onProgress, target) {
      return usingEnvironment(await env(onProgress, target), async (e) => {
        await recover(e);
        return undoEntry(e, entryId);
      });
    },
    async undoPreview(entryId, target) {
      return usingEnvironment(await env(undefined, target), async (e) => {
        await recover(e);
        return previewUndo(e, entryId).catch((err: Error) => {
          throw new ApiError('not-found', err.message);
        });
      });
    },
    async record(entryId, target) {
      return usingEnvironment(await env(undefined, target), async (e) => {
        await recover(e);
        const store = await JournalStore.open(e.stateDir, { create: false, io: e.stateIo }).catch(
          (err: Error) => {
            throw new ApiError('refused', `cannot read the repair journal: ${err.message}`);
          },
        );
        const entry = store ? await store.load(entryId).catch(() => null) : null;
        if (!entry) throw new ApiError('not-found', `no journal entry ${entryId} on this node`);
        return toRepairRecord(entry);
      });
    },
    async history(target) {
      return usingEnvironment(await env(undefined, target), async (e) => {
        await recover(e);
        const { entries } = await readHistory(e.stateDir, e.stateIo).catch(
          (err: NodeJS.ErrnoException) => {
            if (err.code === 'ENOENT') return { entries: [] };
            throw new ApiError(
              'refused',
              `cannot read the repair journal in ${e.stateDir}: ${err.code === 'EACCES' ? 'permission denied' : err.message}`,
            );
          },
        );
        return entries.map(toHistoryEntry);
      });
    },
  };
}
