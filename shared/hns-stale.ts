/**
 * What makes a local HNS endpoint stale (docs/knowledge/windows-hns.md#stale-and-leaked-objects),
 * in one place: the rule `hns.endpoint.stale` counts endpoints with it and the Inventory shows
 * the same verdict beside HNS's own State, so an endpoint HNS calls "Attached" but whose pod
 * sandbox is gone reads the same on both screens. Browser-safe (no Node imports).
 */
import type { HnsEndpoint } from './model/hns';

const ATTACHED = new Set(['attached', 'attachedsharing']);

/** Endpoints that are never counted: remote ones, `*_ep` host endpoints, kube-proxy's source VIP. */
export function isProtectedEndpoint(e: HnsEndpoint): boolean {
  return e.isRemote || /_ep$/i.test(e.name) || /source.?vip/i.test(e.name);
}

/** `<64hex>_<net>` or `cid-<64hex>`: the sandbox id an endpoint name encodes. */
export function sandboxIdOf(name: string): string | undefined {
  return /^(?:cid-)?([0-9a-f]{64})(?:_|$)/i.exec(name)?.[1]?.toLowerCase();
}

/** The runtime's pod sandboxes, lower-cased; undefined when the runtime listed none (not asked). */
export function liveSandboxIds(
  cri: readonly { sandboxes?: readonly { id: string }[] }[] | undefined,
): Set<string> | undefined {
  const ids = cri?.flatMap((c) => c.sandboxes ?? []).map((s) => s.id.toLowerCase()) ?? [];
  return ids.length > 0 ? new Set(ids) : undefined;
}

export type Staleness =
  | { stale: false }
  | {
      stale: true;
      kind: 'not-attached' | 'no-namespace' | 'sandbox-gone';
      /** Plain words: "state Detached", "attached to namespace …, whose sandbox … no longer exists". */
      why: string;
    };

/**
 * Stale means one of three things, checked in this order: HNS does not call it attached; it is
 * attached to no namespace (compartment) and no container; or HNS still calls it attached, to a
 * namespace whose pod sandbox the runtime no longer has (its name encodes the sandbox id).
 */
export function endpointStaleness(e: HnsEndpoint, live: Set<string> | undefined): Staleness {
  if (isProtectedEndpoint(e)) return { stale: false };
  const state = (e.state ?? '').toLowerCase();
  if (state !== '' && !ATTACHED.has(state))
    return { stale: true, kind: 'not-attached', why: `state ${e.state ?? ''}: not attached` };
  if (!e.namespaceId && e.sharedContainers.length === 0)
    return { stale: true, kind: 'no-namespace', why: 'attached to no namespace and no container' };
  const sid = sandboxIdOf(e.name);
  if (live && sid && !live.has(sid))
    return {
      stale: true,
      kind: 'sandbox-gone',
      why: `${e.state ? `HNS state ${e.state}, ` : ''}attached to ${e.namespaceId ? `namespace ${e.namespaceId.slice(0, 8)}` : 'a namespace'} whose sandbox ${sid.slice(0, 12)} no longer exists`,
    };
  return { stale: false };
}
