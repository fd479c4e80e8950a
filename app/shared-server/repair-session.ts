/**
 * Repairs from a door: resolved against the current scan, planned against the live node only,
 * applied once through the RepairPort. Apply does not plan a second time here: the engine's
 * apply rescans once and refuses, with nothing touched, when the plan or any file it read no
 * longer matches the preview token (main/repairs/token.ts). This session only remembers which
 * preview the user saw, to know whether it needs root before asking the system for it.
 */
import type {
  ApplyResult,
  RepairPhase,
  RepairPreview,
  RepairRecord,
  UndoPreview,
} from '../../shared/api';
import { ApiError } from './errors';
import { newJobId } from './ids';
import type { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';
import type { ScanEntry, ScanSessions } from './scan-sessions';
import type { RemoteTarget } from '../../shared/target';

export interface RepairSessionOptions {
  scans: ScanSessions;
  repairs: RepairPort;
  progress: ProgressBus;
  elevated: boolean;
  /** Desktop: runs `cni-doctor fix <id> --yes --json --preview-token T` elevated (pkexec / UAC). */
  runElevated?: (repairId: string, previewToken: string) => Promise<ApplyResult>;
}

/** Pre-repair scans kept for Compare (each a few MB at most for a Linux node). */
const MAX_PINNED = 4;

export class RepairSession {
  /** The last preview shown for each repair id (of the current scan). */
  private readonly previews = new Map<string, RepairPreview>();
  /**
   * The scan each repair was planned from (journal entry id → scan id), newest last: the scan is
   * pinned in ScanSessions so that "before / after" can be compared as long as the outcome is
   * shown. Bounded: the pins of the oldest repairs are released past MAX_PINNED.
   */
  private readonly before = new Map<string, string>();

  constructor(private readonly opts: RepairSessionOptions) {}

  private liveEntry(repairId: string, refusal: string): ScanEntry {
    const entry = this.opts.scans.offering(repairId);
    if (!entry.response.canApply) throw new ApiError('refused', refusal);
    return entry;
  }

  private progressFor(repairId: string) {
    const jobId = newJobId();
    return (phase: RepairPhase, message: string): void =>
      this.opts.progress.emit({
        kind: 'repair',
        jobId,
        repairId,
        phase,
        message,
        done: phase === 'done' || phase === 'failed',
      });
  }

  /** The node changed (or may have): the offers and previews of the old scan are void. */
  private forget(): void {
    this.opts.scans.current = undefined;
    this.previews.clear();
  }

  async preview(repairId: string): Promise<RepairPreview> {
    const entry = this.liveEntry(
      repairId,
      `this scan is a recording (bundle or demo); on the node itself, \`cni-doctor fix ${repairId}\` previews this repair`,
    );
    const p = await this.opts.repairs.preview({
      host: entry.host,
      scan: entry.result,
      repairId,
      ...(entry.target && { target: entry.target }),
    });
    this.previews.set(repairId, p);
    return p;
  }

  async apply(repairId: string, previewToken: string): Promise<ApplyResult> {
    const entry = this.liveEntry(
      repairId,
      'repairs change the live node; this scan is of a recording (bundle or demo)',
    );
    const progress = this.progressFor(repairId);
    const seen = this.previews.get(repairId);
    if (!seen || seen.previewToken !== previewToken) {
      progress('failed', 'no matching preview');
      throw new ApiError('refused', 'this is not the preview shown last: preview the repair again');
    }
    if (seen.needsElevation && !this.opts.elevated) {
      if (!this.opts.runElevated) {
        progress('failed', 'needs root');
        throw new ApiError(
          'refused',
          `this repair needs root or Administrator: run "sudo cni-doctor fix ${repairId}" in a terminal, or use the desktop app`,
        );
      }
      // The elevated engine recomputes and checks the plan itself; the window never runs elevated.
      progress('elevating', 'asking the system for permission');
      const r = await this.opts.runElevated(repairId, previewToken);
      progress(r.status === 'applied' ? 'done' : 'failed', r.reason || r.status);
      this.forget();
      this.pinBefore(r, entry);
      return r;
    }
    const r = await this.opts.repairs.apply({
      host: entry.host,
      scan: entry.result,
      repairId,
      previewToken,
      onProgress: progress,
      ...(entry.target && { target: entry.target }),
    });
    this.forget();
    this.pinBefore(r, entry);
    return r;
  }

  /** Keeps the scan a repair was planned from while its outcome can be shown (Compare). */
  private pinBefore(r: ApplyResult, entry: ScanEntry): void {
    if (!r.entry || r.status === 'refused') return;
    this.before.set(r.entry, entry.response.scanId);
    this.opts.scans.pin(entry.response.scanId);
    while (this.before.size > MAX_PINNED) {
      const [oldest, scanId] = this.before.entries().next().value as [string, string];
      this.before.delete(oldest);
      if (![...this.before.values()].includes(scanId)) this.opts.scans.unpin(scanId);
    }
  }

  async undoPreview(entryId: string): Promise<UndoPreview> {
    return this.opts.repairs.undoPreview(entryId, this.currentTarget());
  }

  async record(entryId: string): Promise<RepairRecord> {
    const r = await this.opts.repairs.record(entryId, this.currentTarget());
    const scanId = this.before.get(entryId);
    return scanId && this.opts.scans.held(scanId) ? { ...r, beforeScanId: scanId } : r;
  }

  /** The node the current scan looks at: undo and history act on its journal. */
  currentTarget(): RemoteTarget | undefined {
    return this.opts.scans.lastTarget;
  }

  async undo(entryId: string): Promise<ApplyResult> {
    const target = this.currentTarget();
    const r = await this.opts.repairs.undo(entryId, this.progressFor(entryId), target);
    this.forget();
    return r;
  }
}
