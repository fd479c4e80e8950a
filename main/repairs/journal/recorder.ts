/**
 * Persists each journal transition before anything that depends on it happens, then reports the
 * transition point (`planned`, `step-2:done`, …) to the environment's hook: the crash tests kill
 * the process exactly there.
 */
import type { JournalEntry, JournalStatus, JournalStepState } from '../../../shared/model/repair';
import type { JournalStore } from './store';

export class EntryRecorder {
  constructor(
    private readonly store: JournalStore,
    readonly entry: JournalEntry,
    private readonly hook: (point: string) => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async status(status: JournalStatus, detail?: string): Promise<void> {
    const at = this.now().toISOString();
    this.entry.status = status;
    this.entry.transitions.push({ at, status, ...(detail !== undefined && { detail }) });
    if (status === 'applied') this.entry.appliedAt = at;
    // The apply's end and the undo's end are two times: an undo must not overwrite when the
    // repair itself ended (History shows both; newcomer review 1.8).
    if (['undone', 'undo-failed'].includes(status)) this.entry.undoneAt = at;
    else if (['verified', 'rolled-back', 'rollback-failed'].includes(status))
      this.entry.finishedAt = at;
    await this.store.save(this.entry);
    this.hook(status);
  }

  /** Step k (0-based) changes state; `prefix` names the phase in the hook point. */
  async step(
    k: number,
    state: JournalStepState,
    prefix = 'step',
    alsoStatus?: JournalStatus,
  ): Promise<void> {
    const s = this.entry.steps[k];
    if (!s) throw new Error(`no step ${k}`);
    s.state = state;
    if (alsoStatus && this.entry.status !== alsoStatus) {
      this.entry.status = alsoStatus;
      this.entry.transitions.push({ at: this.now().toISOString(), status: alsoStatus });
    }
    await this.store.save(this.entry);
    this.hook(`${prefix}-${k + 1}:${state}`);
  }

  async save(): Promise<void> {
    await this.store.save(this.entry);
  }

  boundary(point: string): void {
    this.hook(point);
  }
}
