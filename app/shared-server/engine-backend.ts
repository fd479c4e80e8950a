/**
 * The Backend the doors use in production: one session of scans (scan-sessions.ts), the bundles
 * the user opened (bundles.ts), repairs against the page's scan (repair-session.ts), the live
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
import { MemoryVersionCache } from '../../main/remote/version-cache';
import { compareHeldScans, heldScans } from './compare-scans';
import { WatchSession } from './watch-session';
import type { NodeWatcherOptions } from '../../main/watch/node-watcher';
import { explainText } from '../../main/engine/explain';
import { criRaw, viewFile, viewLog, type ViewableScan } from './viewers';
import { clusterScanNode, clusterView } from './cluster';
import { isRemoteTarget, nodeNameOf, type RemoteTarget } from '../../shared/target';
import type { OpenableTarget } from './targets';
import { looksLikeNode } from './node-identity';

export interface EngineBackendOptions {
  door: 'desktop' | 'web';
  progress: ProgressBus;
  repairs: RepairPort;
  demosDir: string | undefined;
  /** `serve --bundle PATH`: registered at start and scanned first. */
  initialBundle?: string;
  /** `serve --target T` (container:, ssh:, kubectl:): the node the UI opens on, scanned first. */
  initialTarget?: string;
  /**
   * The live node is the one the user chose (`serve --root DIR`, `serve --target local`, test
   * seams): the UI opens on it. Otherwise nothing is chosen and the first screen is the picker.
   */
  liveChosen?: boolean;
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
  readonly defaultSource: ScanRequest | null;
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
    // Plugins' and kubelets' versions remembered for as long as this server runs: the app scans the same
    // nodes again and again (version-cache.ts).
    targetOptions: { versionCache: new MemoryVersionCache(), ...opts.targetOptions },
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

  // Nothing is scanned before the user (or the command line) chose a node.
  let defaultSource: ScanRequest | null = opts.liveChosen ? { source: 'live' } : null;
  if (opts.initialBundle) {
    const info = await bundles.add({ kind: 'path', path: opts.initialBundle });
    defaultSource = { source: 'bundle', bundleId: info.bundleId };
  } else if (opts.initialTarget !== undefined) {
    defaultSource = { source: 'target', targetId: targets.add(opts.initialTarget).targetId };
  }
  // Have the first screen's answer ready before the window asks for it.
  if (defaultSource) scans.prefetch(defaultSource);
  const machineIsNode = opts.liveChosen ? Promise.resolve(undefined) : looksLikeNode(openLive);
  /** The node a request names: a target's transport, or this machine (a recording: none). */
  const nodeOf = (source: ScanRequest | undefined): { target?: OpenableTarget } | 'recording' => {
    if (!source || source.source === 'live') return {};
    if (source.source !== 'target') return 'recording';
    const target = targets.get(source.targetId);
    if (!target) throw new ApiError('not-found', 'this target was not opened in this session');
    return { target };
  };

  /** The node whose repair journal `source` means (absent: this machine); a recording has none. */
  const journalNode = (
    source: ScanRequest | undefined,
    doing: 'undo' | 'read',
  ): RemoteTarget | undefined => {
    const node = nodeOf(source);
    if (node === 'recording')
      throw new ApiError(
        'refused',
        doing === 'undo'
          ? 'this scan is a recording (bundle or demo): undo acts on the node itself'
          : 'a recording (bundle or demo) keeps no repair journal here',
      );
    if (node.target && !isRemoteTarget(node.target))
      throw new ApiError(
        'refused',
        'repairs through PowerShell remoting are not in this build, so this node keeps no cni-doctor journal from here',
      );
    return node.target;
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
        ...(await machineIsNode.then((why) => why && { thisMachineIsNode: why })),
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
    exportBundle: async (r) => {
      const node = nodeOf(r?.source);
      if (node === 'recording')
        throw new ApiError(
          'refused',
          'this is a recording already: export a live node or a node container',
        );
      if (!node.target) return exportLiveNode(await openLive(), opts.progress, opts.tmpRoot);
      const { openTarget } = await import('../../main/remote/open-target');
      const { RemoteLinuxHost } = await import('../../main/remote/remote-host');
      const opened = await openTarget(node.target);
      try {
        if (opened.host instanceof RemoteLinuxHost) await opened.host.connect();
        const out = await exportLiveNode(
          opened.host,
          opts.progress,
          opts.tmpRoot,
          nodeNameOf(node.target),
        );
        const failed = opened.failure();
        if (failed) throw new ApiError('unavailable', failed.message.split('\n')[0] ?? 'failed');
        return out;
      } finally {
        await opened.close();
      }
    },

    // Each repair acts on the node of the page's scan or source (not whatever another tab
    // scanned last): two tabs on two nodes never cross.
    previewRepair: ({ scanId, repairId }) => repairs.preview(scanId, repairId),
    applyRepair: ({ scanId, repairId, previewToken }) =>
      repairs.apply(scanId, repairId, previewToken),
    previewUndo: async ({ entryId, source }) =>
      repairs.undoPreview(entryId, journalNode(source, 'undo')),
    undo: async ({ entryId, source }) => repairs.undo(entryId, journalNode(source, 'undo')),
    repairRecord: async ({ entryId, source }) =>
      repairs.record(entryId, journalNode(source, 'read')),
    // The journal of the node the page shows (this machine when the request names none).
    history: async (r) => {
      if (r?.source && nodeOf(r.source) === 'recording') return [];
      return opts.repairs.history(journalNode(r?.source, 'read'));
    },
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
