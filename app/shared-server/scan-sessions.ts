/**
 * The scans of one session: which host each source opens, the scans made so far (a few, bounded:
 * a Windows snapshot can be tens of MB), which one is current (kept from eviction), and one shared
 * scan per immutable source (bundles and demos scan once). Repairs are resolved against the scan
 * the page names (its scanId), never against whichever scan another tab made last.
 */
import type { ScanRequest, ScanResponse } from '../../shared/api';
import { sourceKey } from '../../shared/source-key';
import type { Host } from '../../main/host/host';
import { BundleHost } from '../../main/host/bundle-host';
import { scanHost, type ScanResult } from '../../main/engine/scan';
import type { BundleRegistry } from './bundles';
import { DEMOS, demoPath } from './demos';
import { ApiError } from './errors';
import { Gate } from './gate';
import { REQUEST_LIMITS } from './limits';
import { newJobId, newScanId } from './ids';
import type { ProgressBus } from './progress';
import type { OpenableTarget, TargetRegistry } from './targets';
import {
  formatTarget,
  isRemoteTarget,
  type RemoteTarget,
  type TargetInfo,
} from '../../shared/target';
import type { CredentialQuestion } from './credentials';
import type { TargetOptions } from '../../main/remote/open-target';
import { trimEvidence } from './trim';
import { keepLogContext } from '../../main/host/context-keeping-host';
import type { KeptLog } from '../../main/logs/kept-context';

export interface ScanEntry {
  response: ScanResponse;
  result: ScanResult;
  host: Host;
  /** The node reached through a transport, when the source is a target. */
  target?: RemoteTarget;
  /** The lines around every matched log line, as this scan read them (the log viewer's). */
  keptLogs?: ReadonlyMap<string, KeptLog>;
  /** When the scan began (ms since the epoch): Watch reports what changed while it ran. */
  startedAtMs?: number;
}

export interface ScanSessionOptions {
  bundles: BundleRegistry;
  progress: ProgressBus;
  demosDir: string | undefined;
  openLive: () => Promise<Host>;
  targets?: TargetRegistry;
  /** Remembers the target opened last (the Targets screen lists it first next time). */
  remember?: (target: string) => Promise<void>;
  liveLabel: string;
  /**
   * Asks the UI for a password a node's session needs (winrm:USER@HOST); undefined = cancelled.
   * Without it such a target says the front end cannot ask.
   */
  askPassword?: (q: CredentialQuestion) => Promise<string | undefined>;
  /** How targets are opened (tests: a stand-in shell for Windows remoting). */
  targetOptions?: TargetOptions;
  /** Called with every finished scan (the watch of the live node starts from it). */
  onScanned?: (entry: ScanEntry) => void;
}

const MAX_SCANS = 6;

interface InFlight {
  controller: AbortController;
  /** Callers waiting with a signal (Infinity: one waits without). */
  waiters: number;
}

export class ScanSessions {
  private readonly scans = new Map<string, ScanEntry>();
  /** Immutable sources (bundles, demos) scan once; concurrent requests share one scan. */
  private readonly bySource = new Map<string, Promise<ScanEntry>>();
  /** The scan made last (never evicted while it is); repairs name their own scan. */
  current: ScanEntry | undefined;

  /** Scans of different sources at once are bounded (one source's scans are already shared). */
  private readonly gate = new Gate(
    'scans',
    REQUEST_LIMITS.maxConcurrentScans,
    REQUEST_LIMITS.maxQueuedScans,
  );
  /**
   * Nodes reached through a transport have slots of their own: a scan of a node mostly waits on
   * it, and a hung node (which holds its slot until its deadline) must never hold up a scan of a
   * bundle, a demo or this machine. One scan per target at a time (bySource shares it).
   */
  private readonly targetGate = new Gate(
    'node scans',
    REQUEST_LIMITS.maxConcurrentTargetScans,
    REQUEST_LIMITS.maxQueuedScans,
  );
  /**
   * Scans kept whatever else is scanned (a repair's "before", RepairSession.pinBefore): never
   * evicted by other tabs' scans, so Compare can show before / after. Counted: two repairs may
   * pin the same scan.
   */
  private readonly pinned = new Map<string, number>();
  /** Scans in flight: who still waits for each, so the last one to leave cancels it. */
  private readonly inFlight = new Map<Promise<ScanEntry>, InFlight>();

  constructor(private readonly opts: ScanSessionOptions) {}

  /**
   * Scans (or reuses the scan of) a source and makes it the current one. `signal`: the request
   * went away (the browser left); once nobody waits for a scan any more, it is cancelled — a
   * node's session closed, a scan still queued dropped.
   */
  async scan(r: ScanRequest, signal?: AbortSignal): Promise<ScanEntry> {
    const entry = await this.scanFor(r, signal);
    this.remember(entry);
    this.current = entry;
    return entry;
  }

  /** Starts a scan without making it current (serve --bundle warms the first screen). */
  prefetch(r: ScanRequest): void {
    void this.scanFor(r).catch(() => undefined);
  }

  pin(scanId: string): void {
    this.pinned.set(scanId, (this.pinned.get(scanId) ?? 0) + 1);
  }

  unpin(scanId: string): void {
    const n = (this.pinned.get(scanId) ?? 0) - 1;
    if (n > 0) this.pinned.set(scanId, n);
    else this.pinned.delete(scanId);
  }

  held(scanId: string): ScanEntry | undefined {
    return this.scans.get(scanId);
  }

  /** The scans held, newest first. */
  list(): ScanEntry[] {
    return [...this.scans.values()].reverse();
  }

  /** Scans (or reuses the scan of) a source without making it current (Compare). */
  scanAside(r: ScanRequest): Promise<ScanEntry> {
    return this.scanFor(r);
  }

  /**
   * The scan `scanId` (the one the page shows), when one of its findings offers `repairId`. A scan
   * no longer held is an error: never a fallback to another tab's scan (another node).
   */
  offering(scanId: string, repairId: string): ScanEntry {
    const entry = this.scans.get(scanId);
    if (!entry) throw new ApiError('not-found', 'this scan is no longer held: scan the node again');
    if (!entry.result.repairs.has(repairId))
      throw new ApiError('not-found', 'no finding of this scan offers this repair (scan again?)');
    return entry;
  }

  private async resolveHost(
    r: ScanRequest,
    cancel: AbortSignal,
    jobId: string,
  ): Promise<{
    host: Host;
    label: string;
    target?: OpenableTarget;
    info?: () => TargetInfo;
    failure?: () => Error | undefined;
    close?: () => Promise<void>;
  }> {
    if (r.source === 'live')
      return { host: await this.opts.openLive(), label: this.opts.liveLabel };
    if (r.source === 'target') {
      const target = this.opts.targets?.get(r.targetId);
      if (!target)
        throw new ApiError('not-found', 'no target with this id (list the targets again)');
      const { openTarget } = await import('../../main/remote/open-target');
      const ask = this.opts.askPassword;
      const base = this.opts.targetOptions ?? {};
      const opened = await openTarget(target, {
        ...base,
        remoting: {
          ...base.remoting,
          // winrm:USER@HOST: the UI's password dialog, asked when the session opens.
          ...(ask &&
            target.kind === 'winrm' &&
            target.user !== undefined && {
              password: () =>
                ask({
                  target: formatTarget(target),
                  user: target.user ?? '',
                  jobId,
                  signal: cancel,
                }),
            }),
        },
      });
      const { RemoteLinuxHost } = await import('../../main/remote/remote-host');
      // Nobody waits any more: the node's session ends now (its program is stopped), so a scan
      // of a hung node does not hold its slot until the deadline.
      const onCancel = (): void => {
        if (opened.host instanceof RemoteLinuxHost)
          opened.host.cancel('the scan was cancelled: nobody waits for it any more');
      };
      cancel.addEventListener('abort', onCancel, { once: true });
      if (cancel.aborted) onCancel();
      try {
        if (opened.host instanceof RemoteLinuxHost) await opened.host.connect();
      } catch (e) {
        await opened.close();
        throw e;
      }
      return {
        host: opened.host,
        label: formatTarget(target),
        target,
        info: opened.info,
        failure: opened.failure,
        close: opened.close,
      };
    }
    if (r.source === 'bundle') {
      const b = this.opts.bundles.get(r.bundleId);
      if (!b) throw new ApiError('not-found', 'no bundle with this id was opened in this session');
      return { host: b.host, label: b.info.name };
    }
    const p = demoPath(this.opts.demosDir, r.demoId);
    const demo = DEMOS.find((d) => d.id === r.demoId);
    if (!p || !demo) throw new ApiError('not-found', 'no demo bundle with this id');
    return { host: await BundleHost.open(p), label: `demo: ${demo.title}` };
  }

  private async run(r: ScanRequest, cancel: AbortSignal): Promise<ScanEntry> {
    const jobId = newJobId();
    const emit = (step: string, done = false, error?: string): void =>
      this.opts.progress.emit({
        kind: 'scan',
        jobId,
        step,
        done,
        ...(error !== undefined && { error }),
      });
    emit('opening');
    const startedAtMs = Date.now();
    try {
      const { host, label, target, info, failure, close } = await this.resolveHost(
        r,
        cancel,
        jobId,
      );
      let result: ScanResult;
      // The scan reads through a wrapper that keeps log context; repairs use the host itself.
      const keeping = keepLogContext(host);
      try {
        result = await scanHost(keeping.host, { onProgress: (step) => emit(step) });
        const failed = failure?.();
        if (failed) throw failed;
        if (cancel.aborted) throw new ApiError('unavailable', 'the scan was cancelled');
      } finally {
        // A target's session (agent, debug pod) is released after every scan, failed or not.
        await close?.();
      }
      if (target) {
        if (info) result.report.target = info();
        await this.opts.remember?.(formatTarget(target)).catch(() => undefined);
      }
      const { report, trimmed } = trimEvidence(result.report);
      const entry: ScanEntry = {
        host,
        result,
        keptLogs: keeping.kept,
        startedAtMs,
        // Windows remoting targets are scanned only (repairs, undo and history act on the rest).
        ...(target && isRemoteTarget(target) && { target }),
        response: {
          scanId: newScanId(),
          request: r,
          label,
          report,
          evidenceTrimmed: trimmed,
          // Repairs are planned against the node itself; a recording only says what it needed.
          // Through a target only where the node's file system is reachable (node containers).
          canApply: r.source === 'live' || target?.kind === 'container',
        },
      };
      this.remember(entry);
      this.opts.onScanned?.(entry);
      emit('done', true);
      return entry;
    } catch (e) {
      const msg =
        e instanceof ApiError ? e.message : ((e as Error).message.split('\n')[0] ?? 'scan failed');
      emit('failed', true, msg);
      if (e instanceof ApiError) throw e;
      throw new ApiError('bad-request', `scan failed: ${msg}`);
    }
  }

  /**
   * Keeps the most recently used scans; drops the rest, but never the current scan (scans made
   * for a comparison must not push out what the screens show) nor a pinned one (the scan a repair
   * was planned from). Pinned scans do not count against MAX_SCANS.
   */
  private remember(entry: ScanEntry): void {
    this.scans.delete(entry.response.scanId);
    this.scans.set(entry.response.scanId, entry);
    while (this.scans.size - this.pinnedHeld() > MAX_SCANS) {
      const oldest = [...this.scans.entries()].find(
        ([id, e]) => e !== this.current && !this.pinned.has(id),
      );
      if (!oldest) break;
      const [oldId, old] = oldest;
      this.scans.delete(oldId);
      const key = sourceKey(old.response.request);
      void this.bySource.get(key)?.then((e) => {
        if (e === old) this.bySource.delete(key);
      });
    }
  }

  private pinnedHeld(): number {
    let n = 0;
    for (const id of this.pinned.keys()) if (this.scans.has(id)) n++;
    return n;
  }

  private scanFor(r: ScanRequest, signal?: AbortSignal): Promise<ScanEntry> {
    const key = sourceKey(r);
    const running = this.bySource.get(key);
    if (running) return this.join(running, signal);
    const controller = new AbortController();
    const gate = r.source === 'target' ? this.targetGate : this.gate;
    const p = gate.run(() => this.run(r, controller.signal), controller.signal);
    this.inFlight.set(p, { controller, waiters: 0 });
    const settled = (): void => void this.inFlight.delete(p);
    void p.then(settled, settled);
    this.bySource.set(key, p);
    // Live nodes change: keep the promise only while it runs. Recordings never change.
    const forget = (): void => {
      if (this.bySource.get(key) === p) this.bySource.delete(key);
    };
    if (r.source === 'live' || r.source === 'target') void p.then(forget, forget);
    else void p.catch(forget);
    return this.join(p, signal);
  }

  /**
   * One more caller waits for `p`. A caller without a signal never leaves (the desktop, Compare,
   * a prefetch); when every caller with one has left, the scan is cancelled.
   */
  private join(p: Promise<ScanEntry>, signal?: AbortSignal): Promise<ScanEntry> {
    const job = this.inFlight.get(p);
    if (!job) return p;
    if (!signal) {
      job.waiters = Infinity;
      return p;
    }
    job.waiters++;
    const leave = (): void => {
      job.waiters--;
      if (job.waiters <= 0) job.controller.abort();
    };
    if (signal.aborted) leave();
    else {
      signal.addEventListener('abort', leave, { once: true });
      void p.then(
        () => signal.removeEventListener('abort', leave),
        () => signal.removeEventListener('abort', leave),
      );
    }
    return p;
  }
}
