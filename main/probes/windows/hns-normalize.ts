/**
 * Normalises the HNS lists of one scan (any of the three PowerShell/HNS surfaces, docs/knowledge/windows-hns.md#three-powershell-surfaces)
 * into one model, then joins them: endpoint → network name, namespace ↔ endpoint membership.
 *
 * Input is untrusted parsed JSON. Anything that is not an object or has no ID is dropped and
 * counted, never thrown. Everything is done in one pass per list plus one join pass, with maps
 * keyed by lower-case ID, so 5,000 endpoints + 20,000 policy lists take a few milliseconds: the
 * rules must never fetch or scan objects one at a time (docs/knowledge/windows-node.md#scale).
 */
import type { HnsKind, NormalizedHns, RawHnsInput } from './hns-model';
import { asList, idOf, isObj, str, type Obj } from './hns-fields';
import { normalizeNetwork } from './normalize-network';
import { normalizeEndpoint } from './normalize-endpoint';
import { normalizeNamespace } from './normalize-namespace';
import { normalizePolicyList } from './normalize-policy-list';
import { NormalizeContext } from './normalize-context';

export interface NormalizeOptions {
  /** Keep each original object as `raw` (evidence in findings). Off by default: the snapshot
   * crosses IPC to the renderer, and 20,000 raw policy lists would dominate it. */
  keepRaw?: boolean;
}

const MAX_DROPPED_NOTES = 50;

export function normalizeHns(input: RawHnsInput, opts: NormalizeOptions = {}): NormalizedHns {
  const ctx = new NormalizeContext(opts.keepRaw === true);
  const out: NormalizedHns = {
    source: str(input.source) ?? 'unknown',
    networks: [],
    endpoints: [],
    namespaces: [],
    policyLists: [],
    dropped: [],
  };
  const drop = (kind: HnsKind, reason: string): void => {
    if (out.dropped.length < MAX_DROPPED_NOTES) out.dropped.push({ kind, reason });
  };
  const each = (list: unknown, kind: HnsKind, fn: (o: Obj, id: string) => void): void => {
    const items = asList(list);
    for (let i = 0; i < items.length; i++) {
      const o = items[i];
      if (!isObj(o)) {
        drop(kind, `item ${i} is not an object`);
        continue;
      }
      const id = idOf(o);
      if (id === undefined) {
        drop(kind, `item ${i} has no ID${typeof o.Name === 'string' ? ` (name ${o.Name})` : ''}`);
        continue;
      }
      fn(o, id);
    }
  };

  each(input.networks, 'network', (o, id) => out.networks.push(normalizeNetwork(o, id, ctx)));
  each(input.endpoints, 'endpoint', (o, id) => out.endpoints.push(normalizeEndpoint(o, id, ctx)));
  each(input.namespaces, 'namespace', (o, id) =>
    out.namespaces.push(normalizeNamespace(o, id, ctx)),
  );
  each(input.policyLists, 'policyList', (o, id) =>
    out.policyLists.push(normalizePolicyList(o, id, ctx)),
  );

  join(out);
  return out;
}

/**
 * Fill what one list knows about another: v2 endpoints carry no network name; v1 list output of
 * namespaces may omit members that the endpoints' `Namespace.ID` still names, and vice versa.
 */
function join(m: NormalizedHns): void {
  const networkName = new Map<string, string>();
  for (const n of m.networks) networkName.set(n.id, n.name);

  const nsById = new Map(m.namespaces.map((ns) => [ns.id, ns]));
  const nsOfEndpoint = new Map<string, string>();
  for (const ns of m.namespaces) for (const e of ns.endpoints) nsOfEndpoint.set(e, ns.id);

  for (const ep of m.endpoints) {
    if (ep.networkName === undefined && ep.networkId !== undefined) {
      const name = networkName.get(ep.networkId);
      if (name !== undefined) ep.networkName = name;
    }
    if (ep.namespaceId === undefined) {
      const ns = nsOfEndpoint.get(ep.id);
      if (ns !== undefined) ep.namespaceId = ns;
    } else {
      const ns = nsById.get(ep.namespaceId);
      if (ns !== undefined && !ns.endpoints.includes(ep.id)) ns.endpoints.push(ep.id);
    }
  }
}
