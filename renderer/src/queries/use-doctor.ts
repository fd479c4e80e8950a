/**
 * Every engine answer the screens show comes through these hooks (TanStack Query): cached per
 * source, refetched on demand, invalidated after a repair or an undo.
 */
import {
  keepPreviousData,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  AppInfo,
  BundleInfo,
  BundleUpload,
  DoctorApi,
  HnsObjectRequest,
  InventoryPage,
  InventoryRequest,
  ScanRequest,
} from '../../../shared/api';
import { useApi } from '../api/api-context';
import { asApiError } from '../api/errors';
import { useView } from '../state/view-store';

import { sourceKey } from '../../../shared/source-key';
import { nodeFocus, type NodeFocus } from '../lib/node-focus';

const wrap =
  <A extends unknown[], T>(fn: (...a: A) => Promise<T>) =>
  async (...a: A): Promise<T> => {
    try {
      return await fn(...a);
    } catch (e) {
      throw asApiError(e);
    }
  };

const infoQuery = (api: DoctorApi) =>
  ({
    queryKey: ['info'],
    queryFn: wrap(() => api.info()),
    staleTime: Infinity,
    retry: false,
  }) as const;

const scanQuery = (api: DoctorApi, source: ScanRequest | undefined) =>
  ({
    queryKey: ['scan', source ? sourceKey(source) : 'none'],
    queryFn: wrap(() => api.scan(source as ScanRequest)),
    enabled: source !== undefined,
    staleTime: Infinity,
    retry: false,
  }) as const;

/**
 * Starts the first screen's two requests while React is still starting, instead of from the first
 * render's effects: the first finding shows a few hundred milliseconds sooner.
 */
export async function prefetchFirstScreen(
  qc: QueryClient,
  api: DoctorApi,
  addressed: ScanRequest | null,
): Promise<void> {
  await qc.prefetchQuery(infoQuery(api));
  const info = qc.getQueryData<AppInfo>(['info']);
  const source = addressed ?? info?.defaultSource;
  if (source) await qc.prefetchQuery(scanQuery(api, source));
}

export function useInfo() {
  const api = useApi();
  return useQuery(infoQuery(api));
}

/** The node in focus: the one the address names, else the one the door started on; else none. */
export function useCurrentSource(): ScanRequest | undefined {
  const chosen = useView((s) => s.source);
  const info = useInfo();
  return chosen ?? info.data?.defaultSource ?? undefined;
}

/** True once the door said it started on no node and none is chosen: show the node picker. */
export function useNoNodeChosen(): boolean {
  const chosen = useView((s) => s.source);
  const info = useInfo();
  return chosen === null && info.data !== undefined && info.data.defaultSource === null;
}

/** "Node: <name> via <transport>" of the node in focus (undefined: none chosen yet). */
export function useNodeFocus(): NodeFocus | undefined {
  const source = useCurrentSource();
  const scan = useScan();
  return nodeFocus(source, scan.data);
}

export function useScan() {
  const api = useApi();
  const source = useCurrentSource();
  return useQuery(scanQuery(api, source));
}

/** Scans the current source again (and makes it the engine's current scan for repairs). */
export function useRescan(): () => Promise<void> {
  const qc = useQueryClient();
  const source = useCurrentSource();
  return async () => {
    if (source) await qc.invalidateQueries({ queryKey: ['scan', sourceKey(source)] });
  };
}

/** Switches to another source; a scan of it runs (again) so repairs resolve against it. */
export function useChooseSource(): (r: ScanRequest) => void {
  const qc = useQueryClient();
  const setSource = useView((s) => s.setSource);
  return (r) => {
    void qc.invalidateQueries({ queryKey: ['scan', sourceKey(r)] });
    setSource(r);
  };
}

/** Rows per window the Inventory asks for (the engine may answer a big window in parts). */
export const INVENTORY_PAGE_ROWS = 200;

/** One window of an Inventory table: rows [page × 200, page × 200 + 200) after sort and filter. */
export const inventoryPageQuery = (
  api: DoctorApi,
  req: Omit<InventoryRequest, 'offset' | 'limit'>,
  page: number,
) =>
  ({
    queryKey: [
      'inventory',
      req.scanId,
      req.tab,
      req.table ?? 0,
      req.sort ?? null,
      req.filter ?? '',
      page,
    ],
    queryFn: wrap(async (): Promise<InventoryPage> => {
      const offset = page * INVENTORY_PAGE_ROWS;
      const first = await api.inventory({ ...req, offset, limit: INVENTORY_PAGE_ROWS });
      // The engine stops early when rows are huge (each answer stays small): ask for the rest.
      const rows = [...first.rows];
      while (rows.length < INVENTORY_PAGE_ROWS && offset + rows.length < first.matched) {
        const more = await api.inventory({
          ...req,
          offset: offset + rows.length,
          limit: INVENTORY_PAGE_ROWS - rows.length,
        });
        if (more.rows.length === 0) break;
        rows.push(...more.rows);
      }
      return { ...first, rows };
    }),
    staleTime: Infinity,
    retry: false,
  }) as const;

export function useInventoryPage(req: Omit<InventoryRequest, 'offset' | 'limit'>, page = 0) {
  const api = useApi();
  return useQuery({ ...inventoryPageQuery(api, req, page), placeholderData: keepPreviousData });
}

/** The pages of a table the user scrolled to (each fetched once, then cached). */
export function useInventoryPages(
  req: Omit<InventoryRequest, 'offset' | 'limit'>,
  pages: number[],
) {
  const api = useApi();
  return useQueries({ queries: pages.map((p) => inventoryPageQuery(api, req, p)) });
}

export function useHnsObject(req: HnsObjectRequest | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['hns-object', req?.scanId, req?.kind, req?.id],
    queryFn: wrap(() => api.hnsObject(req as HnsObjectRequest)),
    enabled: req !== undefined,
    staleTime: Infinity,
    retry: false,
  });
}

export function useDemos() {
  const api = useApi();
  return useQuery({
    queryKey: ['demos'],
    queryFn: wrap(() => api.listDemos()),
    staleTime: Infinity,
  });
}

export function useTargets() {
  const api = useApi();
  return useQuery({ queryKey: ['targets'], queryFn: wrap(() => api.listTargets()), retry: false });
}

/** Checks a typed target on the server (the same parser as `--target`) and returns its entry. */
export function useAddTarget() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: wrap((target: string) => api.addTarget(target)),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['targets'] }),
  });
}

export function useBundles() {
  const api = useApi();
  return useQuery({ queryKey: ['bundles'], queryFn: wrap(() => api.listBundles()) });
}

export function useRules() {
  const api = useApi();
  return useQuery({ queryKey: ['rules'], queryFn: wrap(() => api.rules()), staleTime: Infinity });
}

export function useHistory() {
  const api = useApi();
  // The journal is the node's: a node reached through a target keeps its own.
  const source = useCurrentSource();
  return useQuery({
    queryKey: ['history', source ? sourceKey(source) : 'none'],
    queryFn: wrap(() => api.history(source)),
    enabled: source !== undefined,
    retry: false,
  });
}

/** The preview of a repair on the node of scan `scanId` (the one the page shows). */
export function usePreview(scanId: string | undefined, repairId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['preview', scanId ?? '', repairId],
    queryFn: wrap(() => api.previewRepair(scanId as string, repairId)),
    enabled: enabled && scanId !== undefined,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useApplyRepair() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: wrap((v: { scanId: string; repairId: string; previewToken: string }) =>
      api.applyRepair(v.scanId, v.repairId, v.previewToken),
    ),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['scan'] }),
        qc.invalidateQueries({ queryKey: ['history'] }),
      ]),
  });
}

/** Undoes an entry of the journal of the node the page shows. */
export function useUndo() {
  const api = useApi();
  const qc = useQueryClient();
  const source = useCurrentSource();
  return useMutation({
    mutationFn: wrap((entryId: string) => {
      if (!source) throw new Error('choose a node first');
      return api.undo(entryId, source);
    }),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['scan'] }),
        qc.invalidateQueries({ queryKey: ['history'] }),
        qc.invalidateQueries({ queryKey: ['repair-record'] }),
      ]),
  });
}

export function useOpenBundle() {
  const api = useApi();
  const qc = useQueryClient();
  const choose = useChooseSource();
  return useMutation({
    mutationFn: wrap((u: BundleUpload) => api.openBundle(u)),
    onSuccess: (info: BundleInfo | null) => {
      void qc.invalidateQueries({ queryKey: ['bundles'] });
      if (info) choose({ source: 'bundle', bundleId: info.bundleId });
    },
  });
}

/** Records the node in focus (this machine, or the node a target reaches) into a bundle. */
export function useExportBundle() {
  const api = useApi();
  const source = useCurrentSource();
  return useMutation({ mutationFn: wrap(() => api.exportBundle(source)) });
}

/** The cluster through kubectl (needs an API server; 'unavailable' says when none answers). */
export function useCluster(context?: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['cluster', context ?? ''],
    queryFn: wrap(() => api.cluster(context !== undefined ? { context } : {})),
    retry: false,
  });
}

/** One node scanned through a kubectl debug pod, its stuck pods tied to the findings. */
export function useClusterScanNode() {
  const api = useApi();
  return useMutation({
    mutationFn: wrap((req: { node: string; context?: string }) => api.clusterScanNode(req)),
  });
}
