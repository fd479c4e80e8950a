/**
 * One entry point for every door: validate the payload, then call the backend. The IPC handlers
 * and the HTTP server both go through here, so they cannot disagree about what is allowed.
 */
import type { BundleInfo, Envelope, Operation } from '../../shared/api';
import type { Backend, BackendOps } from './backend';
import { ApiError, toErrorEnvelope } from './errors';
import { validateRequest, type ValidRequest } from './validate';

export type DispatchResults = {
  [K in Operation]: K extends 'openBundle' ? BundleInfo | null : BackendOps[K]['res'];
};

export type Dispatcher = <K extends Operation>(
  op: K,
  payload: unknown,
  /** Aborted when the caller has gone (an HTTP request closed before its answer). */
  signal?: AbortSignal,
) => Promise<Envelope<DispatchResults[K]>>;

export interface DispatcherDeps {
  backend: Backend;
  /** Desktop only: shows the native open dialog; the chosen path never passes through the renderer. */
  chooseBundleFile?: () => Promise<string | null>;
  /** Called with every refused or failed request (the door logs it; payloads are not logged). */
  onError?: (op: string, code: string, message: string) => void;
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { backend } = deps;
  const handlers: {
    [K in Operation]: (req: ValidRequest<K>, signal?: AbortSignal) => Promise<DispatchResults[K]>;
  } = {
    info: () => backend.info(undefined),
    scan: (r, signal) => backend.scan(r, signal),
    inventory: (r) => backend.inventory(r),
    hnsObject: (r) => backend.hnsObject(r),
    listDemos: () => backend.listDemos(undefined),
    listBundles: () => backend.listBundles(undefined),
    listTargets: () => backend.listTargets(undefined),
    addTarget: (r) => backend.addTarget(r),
    openBundle: async (r) => {
      if (r.kind === 'upload') return backend.openBundle(r);
      if (!deps.chooseBundleFile)
        throw new ApiError(
          'bad-request',
          'this door has no file dialog: upload the .tar.gz instead',
        );
      const chosen = await deps.chooseBundleFile();
      return chosen === null ? null : backend.openBundle({ kind: 'path', path: chosen });
    },
    exportBundle: (r) => backend.exportBundle(r),
    previewRepair: (r) => backend.previewRepair(r),
    applyRepair: (r) => backend.applyRepair(r),
    previewUndo: (r) => backend.previewUndo(r),
    undo: (r) => backend.undo(r),
    repairRecord: (r) => backend.repairRecord(r),
    history: (r) => backend.history(r),
    rules: () => backend.rules(undefined),
    listScans: () => backend.listScans(undefined),
    compare: (r) => backend.compare(r),
    watchStatus: (r) => backend.watchStatus(r),
    viewFile: (r) => backend.viewFile(r),
    viewLog: (r) => backend.viewLog(r),
    criRaw: (r) => backend.criRaw(r),
    cluster: (r) => backend.cluster(r),
    clusterScanNode: (r) => backend.clusterScanNode(r),
    explain: (r) => backend.explain(r),
    answerCredential: (r) => backend.answerCredential(r),
  };

  return async (op, payload, signal) => {
    try {
      if (!Object.prototype.hasOwnProperty.call(handlers, op))
        throw new ApiError('not-found', 'unknown operation');
      const req = validateRequest(op, payload);
      const handler = handlers[op] as (
        r: typeof req,
        signal?: AbortSignal,
      ) => Promise<DispatchResults[typeof op]>;
      return { ok: true, result: await handler(req, signal) };
    } catch (e) {
      const env = toErrorEnvelope(e);
      if (!env.ok) deps.onError?.(String(op).slice(0, 40), env.error.code, env.error.message);
      return env;
    }
  };
}
