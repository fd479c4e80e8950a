/**
 * What the doors call once a request has been validated: the DoctorApi in the engine's terms.
 * Both the IPC handlers (app/desktop) and the HTTP server (app/web) reach the engine only through
 * a Backend handed to `createDispatcher`, so tests can spy on it and prove that a hostile request
 * never reaches it.
 */
import type { ExplainRequest, ExplainResult } from '../../shared/api-explain';
import type { CredentialAnswer, CredentialAnswerResult } from '../../shared/api-credential';
import type {
  AppInfo,
  CompareRequest,
  CompareResponse,
  HeldScan,
  WatchStatus,
  CriRaw,
  FileView,
  FileViewRequest,
  LogView,
  LogViewRequest,
  ApplyResult,
  BundleInfo,
  DemoInfo,
  HnsObject,
  HnsObjectRequest,
  InventoryPage,
  InventoryRequest,
  HistoryEntry,
  RepairPreview,
  RepairRecord,
  UndoPreview,
  RuleInfo,
  ScanRequest,
  ScanResponse,
  TargetEntry,
  TargetList,
  ClusterRequest,
  ClusterScanRequest,
} from '../../shared/api';
import type { ClusterNodeView, ClusterView } from '../../shared/cluster';

/** A bundle handed over by the user: uploaded bytes, or a path the main process itself chose. */
export type BundleSource =
  { kind: 'upload'; fileName: string; data: Uint8Array } | { kind: 'path'; path: string };

export interface ExportedBundle {
  fileName: string;
  data: Uint8Array;
}

/** Request and result of each operation after validation. */
export interface BackendOps {
  info: { req: undefined; res: AppInfo };
  scan: { req: ScanRequest; res: ScanResponse };
  inventory: { req: InventoryRequest; res: InventoryPage };
  hnsObject: { req: HnsObjectRequest; res: HnsObject };
  listDemos: { req: undefined; res: DemoInfo[] };
  listBundles: { req: undefined; res: BundleInfo[] };
  listTargets: { req: undefined; res: TargetList };
  addTarget: { req: { target: string }; res: TargetEntry };
  openBundle: { req: BundleSource; res: BundleInfo };
  /** The node in focus: this machine when `source` is absent. */
  exportBundle: { req: { source?: ScanRequest } | undefined; res: ExportedBundle };
  /** `scanId`: the scan the page shows; the repair acts on the node that scan looked at. */
  previewRepair: { req: { scanId: string; repairId: string }; res: RepairPreview };
  applyRepair: {
    req: { scanId: string; repairId: string; previewToken: string };
    res: ApplyResult;
  };
  /** `source`: the page's node, whose journal holds the entry. */
  previewUndo: { req: { entryId: string; source: ScanRequest }; res: UndoPreview };
  undo: { req: { entryId: string; source: ScanRequest }; res: ApplyResult };
  repairRecord: { req: { entryId: string; source: ScanRequest }; res: RepairRecord };
  history: { req: { source?: ScanRequest } | undefined; res: HistoryEntry[] };
  rules: { req: undefined; res: RuleInfo[] };
  listScans: { req: undefined; res: HeldScan[] };
  compare: { req: CompareRequest; res: CompareResponse };
  watchStatus: { req: { scanId: string }; res: WatchStatus };
  viewFile: { req: FileViewRequest; res: FileView };
  viewLog: { req: LogViewRequest; res: LogView };
  criRaw: { req: { scanId: string }; res: CriRaw };
  cluster: { req: ClusterRequest; res: ClusterView };
  clusterScanNode: { req: ClusterScanRequest; res: ClusterNodeView };
  explain: { req: ExplainRequest; res: ExplainResult };
  answerCredential: { req: CredentialAnswer; res: CredentialAnswerResult };
}

export type BackendOp = keyof BackendOps;

/**
 * `signal` aborts when whoever asked has gone (serve: the HTTP request was closed); an operation
 * that can stop early (a scan of a remote node) does, the others ignore it.
 */
export type Backend = {
  [K in BackendOp]: (
    req: BackendOps[K]['req'],
    signal?: AbortSignal,
  ) => Promise<BackendOps[K]['res']>;
};
