import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import type { HnsEndpoint } from '../../../shared/model/hns';

const ATTACHED = new Set(['attached', 'attachedsharing']);

/** Endpoints that are never counted (docs/knowledge/windows-hns.md#stale-and-leaked-objects): remote ones, `*_ep` host endpoints, kube-proxy's source VIP. */
export function isProtected(e: HnsEndpoint): boolean {
  return e.isRemote || /_ep$/i.test(e.name) || /source.?vip/i.test(e.name);
}

/** `<64hex>_<net>` or `cid-<64hex>`: the sandbox id an endpoint name encodes (docs/knowledge/windows-hns.md#stale-and-leaked-objects). */
export function sandboxIdOf(name: string): string | undefined {
  return /^(?:cid-)?([0-9a-f]{64})(?:_|$)/i.exec(name)?.[1]?.toLowerCase();
}

export const hnsEndpointStale: Rule = {
  id: 'hns.endpoint.stale',
  area: 'windows',
  severity: 'warning',
  title: 'Local HNS endpoints are left over from pods that are gone',
  firesWhen:
    "local HNS endpoints that are not attached (state not AttachedSharing/Attached), have no namespace, or (when the runtime's sandboxes are known) belong to no sandbox; remote endpoints, names ending in `_ep`, and kube-proxy's source-VIP endpoint are never counted",
  repair: { kind: 'auto', text: 'remove the stale endpoints, listed one by one in the preview' },
  platforms: ['windows'],
  kb: ['docs/knowledge/windows-hns.md#stale-and-leaked-objects'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (s.node.os !== 'windows') return notApplicable('a Windows node check');
    const hns = s.windows?.hns;
    if (!hns || !hns.known)
      return unknown(
        `HNS endpoints could not be read${hns && !hns.known ? `: ${hns.reason}` : ''}`,
      );
    const sandboxes = s.cri?.flatMap((c) => c.sandboxes ?? []);
    const live =
      sandboxes && sandboxes.length > 0
        ? new Set(sandboxes.map((x) => x.id.toLowerCase()))
        : undefined;
    const stale: { e: HnsEndpoint; why: string }[] = [];
    for (const e of hns.value.endpoints) {
      if (isProtected(e)) continue;
      const state = (e.state ?? '').toLowerCase();
      const sid = sandboxIdOf(e.name);
      if (state !== '' && !ATTACHED.has(state)) stale.push({ e, why: `state ${e.state}` });
      else if (!e.namespaceId && e.sharedContainers.length === 0)
        stale.push({ e, why: 'no namespace and no container' });
      else if (live && sid && !live.has(sid))
        stale.push({ e, why: `its sandbox ${sid.slice(0, 12)} no longer exists` });
    }
    if (stale.length === 0) return pass();
    const shown = stale.slice(0, 50);
    return fail({
      severity: 'warning',
      title: `${stale.length} stale HNS endpoint(s)`,
      summary: `These local endpoints belong to no running pod. Leaked endpoints hold IP addresses (host-local/IPAM exhaustion), and a new pod whose endpoint name collides fails with "endpoint already exists".`,
      evidence: shown.map(({ e, why }) => ({
        kind: 'hns' as const,
        objectType: 'endpoint' as const,
        id: e.id,
        name: e.name,
        detail: `${e.ip ?? 'no IP'} on ${e.networkName ?? e.networkId ?? '?'}: ${why}`,
      })),
      repairs: [
        offer('hns-remove-endpoints', `Remove ${stale.length} stale endpoint(s)`, {
          ids: stale.map(({ e }) => e.id),
        }),
      ],
    });
  },
};
