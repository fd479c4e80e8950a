/**
 * Placeholder seam: turns the manifest's raw HNS arrays into the normalised model. The Windows
 * work (main/probes/windows/hns-normalize) replaces the body.
 */
import type { HnsModel } from '../../shared/model/hns';

export interface RawHns {
  networks: Record<string, unknown>[];
  endpoints: Record<string, unknown>[];
  namespaces: Record<string, unknown>[];
  policyLists: Record<string, unknown>[];
  source?: string | undefined;
}

export function normalizeHnsRecord(raw: RawHns): HnsModel {
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    source: raw.source ?? 'bundle',
    networks: raw.networks.map((n) => ({ id: str(n.ID ?? n.Id), name: str(n.Name), type: str(n.Type), subnets: [] })),
    endpoints: raw.endpoints.map((e) => ({ id: str(e.ID ?? e.Id), name: str(e.Name), isRemote: e.IsRemoteEndpoint === true, sharedContainers: [] })),
    namespaces: [],
    policyLists: [],
  };
}
