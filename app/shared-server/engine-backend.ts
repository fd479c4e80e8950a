/**
 * The Backend the doors use in production: scans through the engine (main/engine), bundles and
 * demos by id, repairs through a RepairPort, progress on a ProgressBus. Holds the session: the
 * scans made so far (a few, bounded), which one is current, and the bundles the user opened.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type {
  AppInfo,
  ApplyResult,
  RepairPhase,
  ScanRequest,
  ScanResponse,
} from '../../shared/api';
import type { Host } from '../../main/host/host';
import { BundleHost } from '../../main/host/bundle-host';
import { RecordingHost } from '../../main/host/recording-host';
import { openHost } from '../../main/engine/open-host';
import { scanHost, type ScanResult } from '../../main/engine/scan';
import { collectSnapshot } from '../../main/probes/snapshot';
import { writeBundleArchive } from '../../main/bundle/writer';
import { recordReferencedFiles } from '../../main/bundle/referenced-files';
import { ruleInfos } from '../../main/rules/info';
import { defaultIsElevated } from '../../main/repairs';
import { VERSION } from '../cli/version';
import type { Backend, BundleSource } from './backend';
import { BundleRegistry } from './bundles';
import { DEMOS, demoPath } from './demos';
import { ApiError } from './errors';
import { newJobId, newScanId } from './ids';
import type { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';
import { trimEvidence } from './trim';

export interface EngineBackendOptions {
  door: 'desktop' | 'web';
  progress: ProgressBus;
  repairs: RepairPort;
  demosDir: string | undefined;
  /** `serve --bundle PATH`: registered at start and scanned first. */
  initialBundle?: string;
  /** Where uploads go (a private folder is made inside). */
  tmpRoot?: string;
  elevated?: boolean;
  /** Desktop: runs `cni-doctor fix <id> --yes --json --preview-token T` elevated (pkexec / UAC). */
  runElevated?: (repairId: string, previewToken: string) => Promise<ApplyResult>;
  /** Test seam: the live node. */
  openLiveHost?: () => Promise<Host>;
}

interface ScanEntry {
  response: ScanResponse;
  result: ScanResult;
  host: Host;
}

const MAX_SCANS = 6;

export interface EngineBackend extends Backend {
  readonly defaultSource: ScanRequest;
  dispose(): Promise<void>;
}

export async function createEngineBackend(opts: EngineBackendOptions): Promise<EngineBackend> {
  const bundles = new BundleRegistry(opts.tmpRoot);
  const scans = new Map<string, ScanEntry>();
  /** Immutable sources (bundles, demos) scan once; concurrent requests share one scan. */
  const bySource = new Map<string, Promise<ScanEntry>>();
  let current: ScanEntry | undefined;
  const elevated = opts.elevated ?? defaultIsElevated();
  const openLive = opts.openLiveHost ?? ((): Promise<Host> => openHost({}));

  let defaultSource: ScanRequest = { source: 'live' };
  if (opts.initialBundle) {
    const info = await bundles.add({ kind: 'path', path: opts.initialBundle });
    defaultSource = { source: 'bundle', bundleId: info.bundleId };
  }

  const keyOf = (r: ScanRequest): string =>
    r.source === 'live'
      ? 'live'
      : r.source === 'bundle'
        ? `bundle:${r.bundleId}`
        : `demo:${r.demoId}`;

  async function resolveHost(r: ScanRequest): Promise<{ host: Host; label: string }> {
    if (r.source === 'live') return { host: await openLive(), label: 'live node' };
    if (r.source === 'bundle') {
      const b = bundles.get(r.bundleId);
      if (!b) throw new ApiError('not-found', 'no bundle with this id was opened in this session');
      return { host: await BundleHost.open(b.path), label: b.info.name };
    }
    const p = demoPath(opts.demosDir, r.demoId);
    const demo = DEMOS.find((d) => d.id === r.demoId);
    if (!p || !demo) throw new ApiError('not-found', 'no demo bundle with this id');
    return { host: await BundleHost.open(p), label: `demo: ${demo.title}` };
  }

  async function runScan(r: ScanRequest): Promise<ScanEntry> {
    const jobId = newJobId();
    const emit = (step: string, done = false, error?: string): void =>
      opts.progress.emit({
        kind: 'scan',
        jobId,
        step,
        done,
        ...(error !== undefined && { error }),
      });
    emit('opening');
    try {
      const { host, label } = await resolveHost(r);
      const result = await scanHost(host, { onProgress: (step) => emit(step) });
      const { report, trimmed } = trimEvidence(result.report);
      const entry: ScanEntry = {
        host,
        result,
        response: {
          scanId: newScanId(),
          request: r,
          label,
          report,
          evidenceTrimmed: trimmed,
          canApply: r.source === 'live' && opts.repairs.available,
        },
      };
      remember(entry);
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

  /** Keeps the most recently used scans (a Windows snapshot can be tens of MB); drops the rest. */
  function remember(entry: ScanEntry): void {
    scans.delete(entry.response.scanId);
    scans.set(entry.response.scanId, entry);
    while (scans.size > MAX_SCANS) {
      const [oldId, old] = scans.entries().next().value as [string, ScanEntry];
      scans.delete(oldId);
      const key = keyOf(old.response.request);
      void bySource.get(key)?.then((e) => {
        if (e === old) bySource.delete(key);
      });
    }
  }

  function scanFor(r: ScanRequest): Promise<ScanEntry> {
    const key = keyOf(r);
    const running = bySource.get(key);
    if (running) return running;
    const p = runScan(r);
    bySource.set(key, p);
    // Live nodes change: keep the promise only while it runs. Recordings never change.
    const forget = (): void => {
      if (bySource.get(key) === p) bySource.delete(key);
    };
    if (r.source === 'live') void p.then(forget, forget);
    else void p.catch(forget);
    return p;
  }

  // serve --bundle: have the first screen's answer ready before the browser asks for it.
  if (defaultSource.source !== 'live') void scanFor(defaultSource).catch(() => undefined);

  function offered(repairId: string): ScanEntry {
    if (!current) throw new ApiError('not-found', 'scan first: no current scan offers repairs');
    if (!current.result.repairs.has(repairId))
      throw new ApiError(
        'not-found',
        'no finding of the current scan offers this repair (scan again?)',
      );
    return current;
  }

  const repairProgress = (repairId: string) => {
    const jobId = newJobId();
    return (phase: RepairPhase, message: string): void =>
      opts.progress.emit({
        kind: 'repair',
        jobId,
        repairId,
        phase,
        message,
        done: phase === 'done' || phase === 'failed',
      });
  };

  return {
    get defaultSource() {
      return defaultSource;
    },

    async info(): Promise<AppInfo> {
      const platform =
        process.platform === 'linux' ? 'linux' : process.platform === 'win32' ? 'windows' : 'other';
      return {
        door: opts.door,
        version: VERSION,
        platform,
        defaultSource,
        elevated,
        repairsAvailable: opts.repairs.available,
        elevation: elevated ? 'already-elevated' : opts.runElevated ? 'prompt' : 'unavailable',
      };
    },

    async scan(r) {
      const entry = await scanFor(r);
      remember(entry);
      current = entry;
      return entry.response;
    },

    async inventory({ scanId }) {
      const entry = scans.get(scanId);
      if (!entry) throw new ApiError('not-found', 'this scan is no longer held; scan again');
      return { scanId, snapshot: entry.result.snapshot };
    },

    listDemos: async () => DEMOS.filter((d) => demoPath(opts.demosDir, d.id) !== undefined),
    listBundles: async () => bundles.list(),
    openBundle: (src: BundleSource) => bundles.add(src),

    async exportBundle() {
      const inner = await openLive();
      const rec = new RecordingHost(inner, { redact: true, collectorVersion: VERSION });
      const jobId = newJobId();
      opts.progress.emit({ kind: 'scan', jobId, step: 'recording this node', done: false });
      const snapshot = await collectSnapshot(rec, {
        onProgress: (step) =>
          opts.progress.emit({ kind: 'scan', jobId, step: `recording: ${step}`, done: false }),
      });
      await recordReferencedFiles(rec, snapshot);
      const { manifest, files } = rec.result();
      const dir = await fsp.mkdtemp(path.join(opts.tmpRoot ?? os.tmpdir(), 'cni-doctor-export-'));
      try {
        const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
        const fileName = `cni-doctor-${(manifest.host.hostname ?? 'node').replace(/[^A-Za-z0-9.-]/g, '_')}-${stamp}.tar.gz`;
        const out = path.join(dir, fileName);
        await writeBundleArchive(out, inner.os, manifest, files);
        const data = await fsp.readFile(out);
        opts.progress.emit({ kind: 'scan', jobId, step: 'recorded', done: true });
        return { fileName, data };
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },

    async previewRepair({ repairId }) {
      const entry = offered(repairId);
      // The engine plans against the node itself; a recording only says what the node needed then.
      if (entry.response.request.source !== 'live')
        throw new ApiError(
          'refused',
          `this scan is a recording (bundle or demo); on the node itself, \`cni-doctor fix ${repairId}\` previews this repair`,
        );
      return opts.repairs.preview({ host: entry.host, scan: entry.result, repairId });
    },

    async applyRepair({ repairId, previewToken }) {
      const entry = offered(repairId);
      if (entry.response.request.source !== 'live')
        throw new ApiError(
          'refused',
          'repairs change the live node; this scan is of a recording (bundle or demo)',
        );
      const progress = repairProgress(repairId);
      progress('planning', 'recomputing the plan');
      // Recompute: apply only the plan the user saw. A changed node means a new preview.
      const fresh = await opts.repairs.preview({ host: entry.host, scan: entry.result, repairId });
      if (fresh.previewToken !== previewToken) {
        progress('failed', 'the plan changed since the preview');
        throw new ApiError(
          'refused',
          'the node changed since the preview: preview the repair again',
        );
      }
      if (fresh.needsElevation && !elevated) {
        if (!opts.runElevated) {
          progress('failed', 'needs root');
          throw new ApiError(
            'refused',
            `this repair needs root or Administrator: run "sudo cni-doctor fix ${repairId}" in a terminal, or use the desktop app`,
          );
        }
        // The elevated engine recomputes and checks the plan itself; the window never runs elevated.
        progress('elevating', 'asking the system for permission');
        const r = await opts.runElevated(repairId, previewToken);
        progress(r.status === 'applied' ? 'done' : 'failed', r.reason || r.status);
        current = undefined;
        return r;
      }
      const r = await opts.repairs.apply({
        host: entry.host,
        scan: entry.result,
        repairId,
        previewToken,
        onProgress: progress,
      });
      current = undefined;
      return r;
    },

    async undo({ entryId }) {
      const r = await opts.repairs.undo(entryId, repairProgress(entryId));
      current = undefined;
      return r;
    },

    history: () => opts.repairs.history(),

    rules: async () => ruleInfos(),

    dispose: () => bundles.dispose(),
  };
}
