/**
 * The Backend the doors use in production: one session of scans (scan-sessions.ts), the bundles
 * the user opened (bundles.ts), repairs against the current scan (repair-session.ts), the live
 * node's export (node-export.ts), progress on a ProgressBus.
 */
import type { AppInfo, ApplyResult, ScanRequest } from '../../shared/api';
import type { Host } from '../../main/host/host';
import { openHost } from '../../main/engine/open-host';
import { ruleInfos } from '../../main/rules/info';
import { defaultIsElevated } from '../../main/repairs';
import { VERSION } from '../cli/version';
import type { Backend, BundleSource } from './backend';
import { BundleRegistry } from './bundles';
import { DEMOS, demoPath } from './demos';
import { ApiError } from './errors';
import { HnsObjects } from './hns-objects';
import { InventoryPages } from './inventory-pages';
import { exportLiveNode } from './node-export';
import type { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';
import { RepairSession } from './repair-session';
import { ScanSessions, type ScanEntry } from './scan-sessions';
import { TargetRegistry } from './targets';
import { CredentialBroker } from './credentials';
import type { TargetOptions } from '../../main/remote/open-target';
import { compareHeldScans, heldScans } from './compare-scans';
import { WatchSession } from './watch-session';
import type { NodeWatcherOptions } from '../../main/watch/node-watcher';
import { explainText } from '../../main/engine/explain';
import { criRaw, viewFile, viewLog, type ViewableScan } from './viewers';
import { clusterScanNode, clusterView } from './cluster';

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
  /** The live node (`serve --root DIR`: a node disk; tests: a seam). */
  openLiveHost?: () => Promise<Host>;
  /** Nodes reachable through a transport (default: discovered on this machine). */
  targets?: TargetRegistry;
  /** Where the target opened last is remembered (default ~/.config/cni-doctor/last-target). */
  rememberFile?: string;
  /** How the live node is named in the UI ("live node", or "node disk /mnt/x"). */
  liveLabel?: string;
  /**
   * The exact command that starts this door again as root/Administrator, shown in the "could not
   * look" banner of a live or node-container scan (serve: `sudo cni-doctor serve …`).
   */
  rerunElevated?: string;
  /** How targets are opened (tests: a stand-in local shell for Windows remoting). */
  targetOptions?: TargetOptions;
  /** Tests: faster watch polling and debounce (app/shared-server/watch-session.ts). */
  watch?: Partial<NodeWatcherOptions>;
}

export interface EngineBackend extends Backend {
  readonly defaultSource: ScanRequest;
  dispose(): Promise<void>;
}

/** A held scan, for the viewers: only what that scan kept is ever shown. */
function viewable(scans: ScanSessions, scanId: string): ViewableScan {
  const entry = scans.held(scanId);
  if (!entry) throw new ApiError('not-found', 'this scan is no longer held; scan again');
  return { scanId, result: entry.result, ...(entry.keptLogs && { keptLogs: entry.keptLogs }) };
}

export async function createEngineBackend(opts: EngineBackendOptions): Promise<EngineBackend> {
  const bundles = new BundleRegistry(opts.tmpRoot);
  const elevated = opts.elevated ?? defaultIsElevated();
  const openLive = opts.openLiveHost ?? ((): Promise<Host> => openHost({}));
  const targets =
    opts.targets ??
    TargetRegistry.default(
      opts.rememberFile !== undefined ? { rememberFile: opts.rememberFile } : {},
    );
  const watch = new WatchSession(opts.progress, opts.watch);
  // winrm:USER@HOST: the UI's password dialog answers what the terminal would ask.
  const credentials = new CredentialBroker(opts.progress);
  const scans = new ScanSessions({
    onScanned: (entry) => watch.onScanned(entry),
    bundles,
    progress: opts.progress,
    demosDir: opts.demosDir,
    openLive,
    targets,
    remember: async (t) =>
      (await import('../../main/remote/discover')).rememberTarget(t, opts.rememberFile),
    liveLabel: opts.liveLabel ?? 'live node',
    askPassword: (q) => credentials.ask(q),
    ...(opts.targetOptions !== undefined && { targetOptions: opts.targetOptions }),
  });
  const repairs = new RepairSession({
    scans,
    repairs: opts.repairs,
    progress: opts.progress,
    elevated,
    ...(opts.runElevated && { runElevated: opts.runElevated }),
  });

  const inventory = new InventoryPages();
  const hnsObjects = new HnsObjects();
  const held = (scanId: string): ScanEntry => {
    const entry = scans.held(scanId);
    if (!entry) throw new ApiError('not-found', 'this scan is no longer held; scan again');
    return entry;
  };

  let defaultSource: ScanRequest = { source: 'live' };
  if (opts.initialBundle) {
    const info = await bundles.add({ kind: 'path', path: opts.initialBundle });
    defaultSource = { source: 'bundle', bundleId: info.bundleId };
    // serve --bundle: have the first screen's answer ready before the browser asks for it.
    scans.prefetch(defaultSource);
  }

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
        elevation: elevated ? 'already-elevated' : opts.runElevated ? 'prompt' : 'unavailable',
      };
    },

    async scan(r, signal) {
      const res = (await scans.scan(r, signal)).response;
      const access = res.report.access;
      // Elevating this door helps for this machine and a node container, not for a recording.
      if (!access || !opts.rerunElevated || (r.source !== 'live' && r.source !== 'target'))
        return res;
      return {
        ...res,
        report: { ...res.report, access: { ...access, rerun: opts.rerunElevated } },
      };
    },

    async inventory(r) {
      const entry = held(r.scanId);
      return inventory.page(entry, entry.result.snapshot, r);
    },
    async hnsObject(r) {
      const entry = held(r.scanId);
      return hnsObjects.get(entry, entry.host, r);
    },

    listDemos: async () => DEMOS.filter((d) => demoPath(opts.demosDir, d.id) !== undefined),
    listBundles: async () => bundles.list(),
    listTargets: () => targets.list(),
    addTarget: async (r) => targets.add(r.target),
    openBundle: (src: BundleSource) => bundles.add(src),
    exportBundle: async () => exportLiveNode(await openLive(), opts.progress, opts.tmpRoot),

    previewRepair: ({ repairId }) => repairs.preview(repairId),
    applyRepair: ({ repairId, previewToken }) => repairs.apply(repairId, previewToken),
    previewUndo: ({ entryId }) => repairs.undoPreview(entryId),
    undo: ({ entryId }) => repairs.undo(entryId),
    repairRecord: ({ entryId }) => repairs.record(entryId),
    history: () => opts.repairs.history(repairs.currentTarget()),
    rules: async () => ruleInfos(),

    listScans: async () => heldScans(scans),
    compare: (req) => compareHeldScans(scans, req),
    watchStatus: async ({ scanId }) => watch.status(scans.held(scanId), scanId),

    viewFile: async ({ scanId, ...req }) => viewFile(viewable(scans, scanId), req),
    viewLog: async ({ scanId, ...req }) => viewLog(viewable(scans, scanId), req),
    criRaw: async ({ scanId }) => criRaw(viewable(scans, scanId)),
    answerCredential: async (a) => ({ accepted: credentials.answer(a) }),
    explain: async ({ scanId, text }) => explainText(text, held(scanId).result.report),

    cluster: (r) => clusterView(r),
    clusterScanNode: (r) => clusterScanNode(r),

    dispose: () => {
      watch.dispose();
      return bundles.dispose();
    },
  };
}
