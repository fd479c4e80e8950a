/**
 * The DoctorApi over HTTP to `cni-doctor serve`. Every call carries the session token in an
 * Authorization header (never a cookie, never the URL); progress comes from one fetch-read event
 * stream shared by all listeners.
 */
import {
  HTTP_EVENTS_ROUTE,
  HTTP_ROUTES,
  type BundleInfo,
  type DoctorApi,
  type Envelope,
  type ExportResult,
  type Operation,
  type ProgressEvent,
  type ScanRequest,
} from '../../../shared/api';
import { DoctorApiError } from './errors';
import { readEventStream } from './event-stream';

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpApiOptions {
  token: string;
  baseUrl?: string;
  fetch?: FetchLike;
  /** The browser's download step; tests replace it. */
  saveDownload?: (fileName: string, data: Blob) => void;
}

function browserDownload(fileName: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function unwrap<T>(res: Response): Promise<T> {
  let env: Envelope<T>;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    throw new DoctorApiError(
      'internal',
      `the server answered ${res.status} without a readable body`,
    );
  }
  if (!env.ok) throw new DoctorApiError(env.error.code, env.error.message);
  return env.result;
}

export function createHttpApi(opts: HttpApiOptions): DoctorApi {
  const base = opts.baseUrl ?? '';
  const doFetch: FetchLike = opts.fetch ?? ((i, init) => fetch(i, init));
  const auth = { Authorization: `Bearer ${opts.token}` };

  const call = async <T>(op: Operation, payload?: unknown): Promise<T> =>
    unwrap<T>(
      await doFetch(`${base}${HTTP_ROUTES[op]}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload ?? {}),
        credentials: 'omit',
      }),
    );

  const listeners = new Set<(e: ProgressEvent) => void>();
  let stream: AbortController | undefined;

  async function runStream(ctrl: AbortController): Promise<void> {
    let delay = 500;
    while (!ctrl.signal.aborted) {
      try {
        const res = await doFetch(`${base}${HTTP_EVENTS_ROUTE}`, {
          headers: auth,
          signal: ctrl.signal,
          credentials: 'omit',
        });
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        delay = 500;
        await readEventStream(res.body, (event, data) => {
          if (event !== 'progress') return;
          const e = JSON.parse(data) as ProgressEvent;
          for (const fn of listeners) fn(e);
        });
      } catch {
        if (ctrl.signal.aborted) return;
      }
      // The server went away or restarted: try again, slower each time, up to 10 s.
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  }

  return {
    info: () => call('info'),
    scan: (req) => call('scan', req),
    inventory: (req) => call('inventory', req),
    hnsObject: (req) => call('hnsObject', req),
    listDemos: () => call('listDemos'),
    listBundles: () => call('listBundles'),
    listTargets: () => call('listTargets'),
    addTarget: (target) => call('addTarget', { target }),
    async openBundle(upload): Promise<BundleInfo | null> {
      if (upload.kind === 'dialog')
        throw new DoctorApiError(
          'bad-request',
          'the browser has no file dialog here: choose a file to upload',
        );
      return unwrap<BundleInfo>(
        await doFetch(`${base}${HTTP_ROUTES.openBundle}`, {
          method: 'POST',
          headers: {
            ...auth,
            'Content-Type': 'application/gzip',
            'X-Bundle-Name': encodeURIComponent(upload.fileName),
          },
          body: upload.data,
          credentials: 'omit',
        }),
      );
    },
    async exportBundle(source?: ScanRequest): Promise<ExportResult> {
      const res = await doFetch(`${base}${HTTP_ROUTES.exportBundle}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(source ? { source } : {}),
        credentials: 'omit',
      });
      if (!res.ok || res.headers.get('Content-Type') !== 'application/gzip')
        return unwrap<ExportResult>(res);
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ??
        'cni-doctor-bundle.tar.gz';
      const blob = await res.blob();
      (opts.saveDownload ?? browserDownload)(name, blob);
      return { fileName: name, bytes: blob.size };
    },
    previewRepair: (scanId, repairId) => call('previewRepair', { scanId, repairId }),
    applyRepair: (scanId, repairId, previewToken) =>
      call('applyRepair', { scanId, repairId, previewToken }),
    previewUndo: (entryId, source) => call('previewUndo', { entryId, source }),
    undo: (entryId, source) => call('undo', { entryId, source }),
    repairRecord: (entryId, source) => call('repairRecord', { entryId, source }),
    history: (source) => call('history', source ? { source } : undefined),
    rules: () => call('rules'),
    listScans: () => call('listScans'),
    compare: (req) => call('compare', req),
    watchStatus: (scanId) => call('watchStatus', { scanId }),
    viewFile: (req) => call('viewFile', req),
    viewLog: (req) => call('viewLog', req),
    criRaw: (scanId) => call('criRaw', { scanId }),
    cluster: (req) => call('cluster', req),
    clusterScanNode: (req) => call('clusterScanNode', req),
    explain: (req) => call('explain', req),
    answerCredential: (req) => call('answerCredential', req),
    onProgress(fn) {
      listeners.add(fn);
      if (!stream) {
        stream = new AbortController();
        void runStream(stream);
      }
      return () => {
        listeners.delete(fn);
        if (listeners.size === 0 && stream) {
          stream.abort();
          stream = undefined;
        }
      };
    },
  };
}
