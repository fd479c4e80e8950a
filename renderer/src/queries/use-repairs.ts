/**
 * A repair's outcome and its Undo preview, read from the node's journal (beside use-doctor.ts):
 * what the panels show survives a reload because it is asked for again, never kept in the page.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/api-context';
import { asApiError } from '../api/errors';
import { useCurrentSource } from './use-doctor';
import { sourceKey } from '../../../shared/source-key';
import type { ScanRequest } from '../../../shared/api';

export function useRepairRecord(entryId: string | null | undefined) {
  const api = useApi();
  const source = useCurrentSource();
  return useQuery({
    queryKey: ['repair-record', source ? sourceKey(source) : 'none', entryId ?? ''],
    queryFn: async () => {
      try {
        return await api.repairRecord(entryId as string, source as ScanRequest);
      } catch (e) {
        throw asApiError(e);
      }
    },
    enabled: !!entryId && source !== undefined,
    retry: false,
  });
}

/** What undoing an entry would change, asked afresh each time (the node may have changed). */
export function useUndoPreview(entryId: string, enabled: boolean) {
  const api = useApi();
  // The journal is of the node the page shows (not of whatever another tab scanned last).
  const source = useCurrentSource();
  return useQuery({
    queryKey: ['undo-preview', source ? sourceKey(source) : 'none', entryId],
    queryFn: async () => {
      try {
        return await api.previewUndo(entryId, source as ScanRequest);
      } catch (e) {
        throw asApiError(e);
      }
    },
    enabled: enabled && source !== undefined,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}
