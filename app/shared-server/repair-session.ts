/**
 * Repairs from a door: resolved against the scan the page shows (its scanId) and the node it
 * looks at, never against whatever another tab scanned last; planned against the live node only,
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
import { formatTarget, type RemoteTarget } from '../../shared/target';

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
  /** The last preview shown for each repair of each scan (key: previewKey), with its node. */
  private readonly previews = new Map<string, { preview: RepairPreview; node: string }>();
  /**
   * The scan each repair was planned from (journal entry id → scan id), newest last: the scan is
   * pinned in ScanSessions so that "before / after" can be compared as long as the outcome is
   * shown. Bounded: the pins of the oldest repairs are released past MAX_PINNED.
   */
  private readonly before = new Map<string, string>();
  /**
   * Scans made before a repair or an undo changed their node: they no longer vouch for the repair
   * ids they offered (scan again). Only ids of scans still held are kept.
   */
  private readonly spent = new Set<string>();

  constructor(private readonly opts: RepairSessionOptions) {}

  private liveEntry(scanId: string, repairId: string, refusal: string): ScanEntry {
    const entry = this.opts.scans.offering(scanId, repairId);
    if (this.spent.has(scanId))
      throw new ApiError(
        'not-found',
        'the node changed since this scan (a repair or an undo ran): scan the node again',
      );
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

  /**
   * `node` changed (or may have): the previews of its scans are void, and its scan `spent` (the
   * one a repair was planned from) is no longer the latest. Other nodes' previews stay.
   */
  private forget(node: string, spent?: ScanEntry): void {
    if (spent && this.opts.scans.current === spent) this.opts.scans.current = undefined;
    for (const [key, p] of this.previews) if (p.node === node) this.previews.delete(key);
    const held = new Set<string>();
    for (const e of this.opts.scans.list()) {
      held.add(e.response.scanId);
      if (e.response.canApply && nodeKey(e.target) === node) this.spent.add(e.response.scanId);
    }
    for (const id of this.spent) if (!held.has(id)) this.spent.delete(id);
  }

  async preview(scanId: string, repairId: string): Promise<RepairPreview> {
    const entry = this.liveEntry(
      scanId,
      repairId,
      `this scan is a recording (bundle or demo); on the node itself, \`cni-doctor fix ${repairId}\` previews this repair`,
    );
    const p = await this.opts.repairs.preview({
      host: entry.host,
      scan: entry.result,
      repairId,
      ...(entry.target && { target: entry.target }),
    });
    this.previews.set(previewKey(scanId, repairId), { preview: p, node: nodeKey(entry.target) });
    return p;
  }

  async apply(scanId: string, repairId: string, previewToken: string): Promise<ApplyResult> {
    const entry = this.liveEntry(
      scanId,
      repairId,
      'repairs change the live node; this scan is of a recording (bundle or demo)',
    );
    const progress = this.progressFor(repairId);
    const seen = this.previews.get(previewKey(scanId, repairId))?.preview;
    const node = nodeKey(entry.target);
    if (!seen || seen.previewToken !== previewToken) {
      progress('failed', 'no matching preview');
      throw new ApiError('refused', 'this is not the preview shown last: preview the repair again');
    }
    if (seen.needsElevation && !this.opts.elevated) {
      // The elevated command repairs this machine: never a node container's disk by mistake.
      if (!this.opts.runElevated || entry.target) {
        progress('failed', 'needs root');
        throw new ApiError(
          'refused',
          entry.target
            ? `this repair needs root on ${node}: run "sudo cni-doctor fix ${repairId} --target ${node}" in a terminal`
            : `this repair needs root or Administrator: run "sudo cni-doctor fix ${repairId}" in a terminal, or use the desktop app`,
        );
      }
      // The elevated engine recomputes and checks the plan itself; the window never runs elevated.
      progress('elevating', 'asking the system for permission');
      const r = await this.opts.runElevated(repairId, previewToken);
      progress(r.status === 'applied' ? 'done' : 'failed', r.reason || r.status);
      this.forget(node, entry);
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
    this.forget(node, entry);
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

  /** `target`: the node the page shows (absent: this machine), whose journal holds the entry. */
  async undoPreview(entryId: string, target: RemoteTarget | undefined): Promise<UndoPreview> {
    return this.opts.repairs.undoPreview(entryId, target);
  }

  async record(entryId: string, target: RemoteTarget | undefined): Promise<RepairRecord> {
    const r = await this.opts.repairs.record(entryId, target);
    const scanId = this.before.get(entryId);
    return scanId && this.opts.scans.held(scanId) ? { ...r, beforeScanId: scanId } : r;
  }

  async undo(entryId: string, target: RemoteTarget | undefined): Promise<ApplyResult> {
    const r = await this.opts.repairs.undo(entryId, this.progressFor(entryId), target);
    this.forget(nodeKey(target));
    return r;
  }
}

function previewKey(scanId: string, repairId: string): string {
  return `${scanId}\u0000${repairId}`;
}

/** Which node a repair changes: this machine, or the node a target reaches. */
function nodeKey(target: RemoteTarget | undefined): string {
  return target ? formatTarget(target) : 'this machine';
}
