/** Compare and Watch answers (TanStack Query), beside use-doctor.ts. */
import { useEffect } from 'react';
import { useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompareRequest } from '../../../shared/api';
import { useApi } from '../api/api-context';
import { asApiError } from '../api/errors';

const wrap =
  <A extends unknown[], T>(fn: (...a: A) => Promise<T>) =>
  async (...a: A): Promise<T> => {
    try {
      return await fn(...a);
    } catch (e) {
      throw asApiError(e);
    }
  };

export function useHeldScans() {
  const api = useApi();
  return useQuery({ queryKey: ['held-scans'], queryFn: wrap(() => api.listScans()) });
}

export function useCompare() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: wrap((req: CompareRequest) => api.compare(req)),
    // A side given as a source was scanned: the list of held scans grew.
    onSettled: () => qc.invalidateQueries({ queryKey: ['held-scans'] }),
  });
}

export function useWatchStatus(scanId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['watch', scanId],
    queryFn: wrap(() => api.watchStatus(scanId as string)),
    enabled: !!scanId,
    retry: false,
  });
}

/** A `stale` event from the engine refreshes the watch answers (the banner follows). */
export function useStaleEvents(): void {
  const api = useApi();
  const qc = useQueryClient();
  useEffect(
    () =>
      api.onProgress((e) => {
        if (e.kind === 'stale') void qc.invalidateQueries({ queryKey: ['watch'] });
      }),
    [api, qc],
  );
}

/** True while a repair or an undo runs: Watch does not rescan under it (it scans by itself). */
export function useRepairRunning(): boolean {
  return useIsMutating() > 0;
}
