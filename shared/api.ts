/**
 * The DoctorApi: everything the renderer may ask of the engine, and nothing more. In Electron the
 * preload exposes it as `window.doctor`; in a browser the same interface is implemented over HTTP
 * to `cni-doctor serve` (architecture.md). Requests carry ids only (scan source ids, repair ids,
 * journal entry ids): never a path, a command or a script, so the renderer cannot make the engine
 * do anything that no repair plan names.
 *
 * Browser-safe: types and constants only, no Node APIs, no zod (validation lives main-side in
 * app/shared-server/validate.ts and is shared by the IPC handlers and the HTTP server).
 */
import type { ExplainRequest, ExplainResult } from './api-explain';
import type { CredentialAnswer, CredentialAnswerResult, CredentialEvent } from './api-credential';
import type { ClusterNodeView, ClusterView } from './cluster';
import type { Report } from './model/report';
import type { RuleInfo } from './model/finding';
import type {
  ApplyResult,
  HistoryEntry,
  RepairPreview,
  RepairRecord,
  UndoPreview,
} from './api-repair';
import type {
  CompareRequest,
  CompareResponse,
  HeldScan,
  StaleEvent,
  WatchStatus,
} from './api-compare';
import type { CriRaw, FileView, FileViewRequest, LogView, LogViewRequest } from './api-viewers';
import type { HnsObject, HnsObjectRequest, InventoryPage, InventoryRequest } from './api-inventory';

export type { ApplyResult, HistoryEntry, RepairPreview, RepairRecord, RuleInfo, UndoPreview };
export type { CompareRequest, CompareResponse, HeldScan, StaleEvent, WatchStatus };
export type { CriRaw, FileView, FileViewRequest, LogView, LogViewRequest };
export type { HnsObject, HnsObjectRequest, InventoryPage, InventoryRequest };

/** What to scan. Bundle ids are handed out by `openBundle`/`listBundles`, demo ids by `listDemos`. */
export type ScanRequest =
  | { source: 'live' }
  | { source: 'bundle'; bundleId: string }
  | { source: 'demo'; demoId: string }
  | { source: 'target'; targetId: string };

/** A node this machine can reach (`cni-doctor targets`), by server-made id. */
export interface TargetEntry {
  targetId: string;
  /** Its one-line form: `container:podman/kind-control-plane`, `ssh:node1`, … */
  target: string;
  /** "kind cluster dev (control-plane) via podman", "host in ~/.ssh/config", "used last time". */
  what: string;
  source: 'kind' | 'minikube' | 'k3d' | 'kubeconfig' | 'ssh-config' | 'remembered' | 'typed';
  /** Repairs can be applied through it (a node container on this machine's engine). */
  canRepair: boolean;
}

export interface TargetList {
  targets: TargetEntry[];
  /** Sources that could not be asked, and why (no docker, no API server, …). */
  notes: string[];
}

export interface ScanResponse {
  /** Names this scan's results; `inventory({ scanId, … })` pages through its tables. */
  scanId: string;
  request: ScanRequest;
  /** "live node", the bundle's file name, or the demo's title. */
  label: string;
  report: Report;
  /**
   * Findings whose evidence list was shortened for transport (finding id → full count), so a
   * node with 50,000 stale HNS endpoints does not ship them all to draw the first screen.
   */
  evidenceTrimmed: Record<string, number>;
  /** Repairs act on the live node only; a bundle or demo is a recording. */
  canApply: boolean;
}

export interface DemoInfo {
  id: string;
  title: string;
  description: string;
  os: 'linux' | 'windows';
}

export interface BundleInfo {
  bundleId: string;
  /** The uploaded or chosen file's base name, for display only. */
  name: string;
  os: 'linux' | 'windows';
  hostname?: string;
  collectedAt?: string;
  /** Manifest sections that were malformed and ignored. */
  warnings: string[];
}

/**
 * How a bundle reaches the engine. A browser uploads the bytes; the desktop app asks the main
 * process to show its own file dialog (the path never passes through the renderer).
 */
export type BundleUpload =
  { kind: 'upload'; fileName: string; data: ArrayBuffer } | { kind: 'dialog' };

export interface ExportResult {
  fileName: string;
  bytes: number;
  /** Desktop: where the save dialog put it. Browser: absent (the browser downloads it). */
  savedTo?: string;
  cancelled?: boolean;
}

export interface AppInfo {
  door: 'desktop' | 'web';
  version: string;
  /** The OS the engine runs on (what a live scan looks at). */
  platform: 'linux' | 'windows' | 'other';
  /**
   * The node the door was started on (`serve --bundle`, `--root`, `--target`), which the UI opens
   * at once; null when none was chosen: the first screen is the node picker, and nothing is
   * scanned until the user picks (issue 22: never a diagnosis of a machine nobody asked about).
   */
  defaultSource: ScanRequest | null;
  /**
   * Why this machine looks like a node (its kubelet configuration or CNI conf dir exists), so the
   * picker offers it first; absent: it does not (a laptop, a build machine).
   */
  thisMachineIsNode?: string;
  /** The engine process runs as root / Administrator. */
  elevated: boolean;
  /** How repairs that need root run from this door. */
  elevation: 'already-elevated' | 'prompt' | 'unavailable';
}

export type RepairPhase =
  | 'planning'
  | 'elevating'
  | 'backing-up'
  | 'applying'
  | 'verifying'
  | 'rolling-back'
  | 'undoing'
  | 'done'
  | 'failed';

export type ProgressEvent =
  | { kind: 'scan'; jobId: string; step: string; done: boolean; error?: string }
  | {
      kind: 'repair';
      jobId: string;
      repairId: string;
      phase: RepairPhase;
      message: string;
      done: boolean;
    }
  | StaleEvent
  | CredentialEvent;

/** Which cluster: a kubeconfig context, or the current one. */
export interface ClusterRequest {
  context?: string;
}
export interface ClusterScanRequest extends ClusterRequest {
  node: string;
}

export interface DoctorApi {
  info(): Promise<AppInfo>;
  scan(req: ScanRequest): Promise<ScanResponse>;
  /** A window of one Inventory table of a scan, sorted and filtered by the engine. */
  inventory(req: InventoryRequest): Promise<InventoryPage>;
  /** One HNS object of a scan as the node returned it (the JSON behind a row or a finding). */
  hnsObject(req: HnsObjectRequest): Promise<HnsObject>;
  listDemos(): Promise<DemoInfo[]>;
  listBundles(): Promise<BundleInfo[]>;
  /** Nodes to reach: node containers, kubeconfig nodes, ssh hosts, the one used last. */
  listTargets(): Promise<TargetList>;
  /** A target the user typed (`ssh:admin@node1`), checked by the server; its entry to open. */
  addTarget(target: string): Promise<TargetEntry>;
  /** Resolves `null` when the user cancels the desktop file dialog. */
  openBundle(upload: BundleUpload): Promise<BundleInfo | null>;
  /** Records this node into a bundle (.tar.gz): a download in the browser, a save dialog on desktop. */
  exportBundle(source?: ScanRequest): Promise<ExportResult>;
  /**
   * Repairs act on the node of the scan the page shows (`scanId`), never on whatever another tab
   * scanned last; a scan the server no longer holds is refused ("scan again").
   */
  previewRepair(scanId: string, repairId: string): Promise<RepairPreview>;
  applyRepair(scanId: string, repairId: string, previewToken: string): Promise<ApplyResult>;
  /**
   * What undoing a journal entry of `source`'s node would put back (diffs from the current
   * files), touching nothing.
   */
  previewUndo(entryId: string, source: ScanRequest): Promise<UndoPreview>;
  undo(entryId: string, source: ScanRequest): Promise<ApplyResult>;
  /**
   * One journal entry's outcome as `source`'s node's journal kept it (verification with the
   * rescan's before/after, rollback, undo): what the UI shows after a reload, never page memory.
   */
  repairRecord(entryId: string, source: ScanRequest): Promise<RepairRecord>;
  /**
   * The repair journal of `source`'s node (this machine when absent), newest first (one line per
   * entry, as `history --json`). A recording has no journal here: an empty list.
   */
  history(source?: ScanRequest): Promise<HistoryEntry[]>;
  rules(): Promise<RuleInfo[]>;
  /** The scans the server holds, newest first (Compare picks from them). */
  listScans(): Promise<HeldScan[]>;
  /** Two scans side by side: findings added, gone, changed; the load order then and now. */
  compare(req: CompareRequest): Promise<CompareResponse>;
  /** Whether the node changed after this scan (a `stale` progress event says when it does). */
  watchStatus(scanId: string): Promise<WatchStatus>;
  /** A whole file as the scan's snapshot holds it (a page of lines; api-viewers.ts). */
  viewFile(req: FileViewRequest): Promise<FileView>;
  /** A log around a matched line, as the scan read it. */
  viewLog(req: LogViewRequest): Promise<LogView>;
  /** The runtime's CRI Version and verbose Status answers, as the scan got them. */
  criRaw(scanId: string): Promise<CriRaw>;
  /** The cluster through kubectl (nodes, stuck pods by signature); needs an API server. */
  cluster(req: ClusterRequest): Promise<ClusterView>;
  /** One node of it scanned through a kubectl debug pod, its stuck pods tied to findings. */
  clusterScanNode(req: ClusterScanRequest): Promise<ClusterNodeView>;
  /** A pasted event or log line, tied to the finding of a scan that explains it (api-explain.ts). */
  explain(req: ExplainRequest): Promise<ExplainResult>;
  /** The password a `credential` progress event asked for, or none (cancelled): api-credential.ts. */
  answerCredential(req: CredentialAnswer): Promise<CredentialAnswerResult>;
  /** Scan and repair progress; returns the unsubscribe function. */
  onProgress(listener: (e: ProgressEvent) => void): () => void;
}

/** IPC channel names (Electron) — one per DoctorApi call, plus the progress push. */
export const CHANNELS = {
  info: 'doctor:info',
  scan: 'doctor:scan',
  inventory: 'doctor:inventory',
  hnsObject: 'doctor:hns-object',
  listDemos: 'doctor:list-demos',
  listBundles: 'doctor:list-bundles',
  listTargets: 'doctor:list-targets',
  addTarget: 'doctor:add-target',
  openBundle: 'doctor:open-bundle',
  exportBundle: 'doctor:export-bundle',
  previewRepair: 'doctor:preview-repair',
  applyRepair: 'doctor:apply-repair',
  previewUndo: 'doctor:preview-undo',
  undo: 'doctor:undo',
  repairRecord: 'doctor:repair-record',
  history: 'doctor:history',
  rules: 'doctor:rules',
  listScans: 'doctor:list-scans',
  compare: 'doctor:compare',
  watchStatus: 'doctor:watch-status',
  viewFile: 'doctor:view-file',
  viewLog: 'doctor:view-log',
  criRaw: 'doctor:cri-raw',
  cluster: 'doctor:cluster',
  clusterScanNode: 'doctor:cluster-scan-node',
  explain: 'doctor:explain',
  answerCredential: 'doctor:answer-credential',
} as const;

export const PROGRESS_CHANNEL = 'doctor:progress';

export type Operation = keyof typeof CHANNELS;

/** HTTP routes of `serve` (POST, JSON bodies, except openBundle's raw upload and the event stream). */
export const HTTP_ROUTES: Record<Operation, string> = {
  info: '/api/info',
  scan: '/api/scan',
  inventory: '/api/inventory',
  hnsObject: '/api/hns-object',
  listDemos: '/api/list-demos',
  listBundles: '/api/list-bundles',
  listTargets: '/api/list-targets',
  addTarget: '/api/add-target',
  openBundle: '/api/open-bundle',
  exportBundle: '/api/export-bundle',
  previewRepair: '/api/preview-repair',
  applyRepair: '/api/apply-repair',
  previewUndo: '/api/preview-undo',
  undo: '/api/undo',
  repairRecord: '/api/repair-record',
  history: '/api/history',
  rules: '/api/rules',
  listScans: '/api/list-scans',
  compare: '/api/compare',
  watchStatus: '/api/watch-status',
  viewFile: '/api/view-file',
  viewLog: '/api/view-log',
  criRaw: '/api/cri-raw',
  cluster: '/api/cluster',
  clusterScanNode: '/api/cluster-scan-node',
  explain: '/api/explain',
  answerCredential: '/api/answer-credential',
};

export const HTTP_EVENTS_ROUTE = '/api/events';

/** Error codes every door uses; the HTTP door maps them to status codes. */
export type ApiErrorCode =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'refused'
  | 'unavailable'
  | 'too-large'
  | 'internal';

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  refused: 409,
  unavailable: 503,
  'too-large': 413,
  internal: 500,
};

/** What crosses IPC and HTTP: errors keep their code (a thrown Error would lose it). */
export type Envelope<T> =
  { ok: true; result: T } | { ok: false; error: { code: ApiErrorCode; message: string } };

/**
 * The exact text formats of the ids requests may carry. Server-made ids are opaque tokens; repair
 * ids are rule ids plus a discriminator (main/engine/evaluate.ts). None may hold `/`, `\`, spaces,
 * quotes or shell metacharacters, and none is ever used as a path: each is looked up in a table.
 */
export const ID_PATTERNS = {
  scanId: /^s-[a-f0-9]{16}$/,
  bundleId: /^b-[a-f0-9]{16}$/,
  /**
   * A target's own one-line form (shared/target.ts), so an address names the node itself and a
   * link survives a restart; the registry parses it again and looks it up, never runs it as text.
   */
  targetId: /^(?:container|ssh|kubectl|winrm|pssession):[A-Za-z0-9_.:@/+=[\]%\\-]{1,1000}$/,
  demoId: /^[a-z0-9][a-z0-9-]{0,63}$/,
  repairId: /^[A-Za-z0-9][A-Za-z0-9._:@#-]{0,255}$/,
  entryId: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/,
  /** An HNS object id as the snapshot shows it (a GUID; other ids as HNS gave them). */
  hnsId: /^\{?[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\}?$/,
  // Starts with a letter or digit: a token is passed on a command line and must never read as
  // an option (`--state-dir`).
  previewToken: /^[A-Za-z0-9][A-Za-z0-9_-]{7,255}$/,
} as const;
