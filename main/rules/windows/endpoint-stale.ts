import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import type { Evidence } from '../../../shared/model/finding';
import type { HnsEndpoint } from '../../../shared/model/hns';
import {
  endpointStaleness,
  isProtectedEndpoint,
  liveSandboxIds,
  sandboxIdOf,
} from '../../../shared/hns-stale';

/** Endpoints that are never counted (docs/knowledge/windows-hns.md#stale-and-leaked-objects). */
export const isProtected = isProtectedEndpoint;
export { sandboxIdOf };

export const hnsEndpointStale: Rule = {
  id: 'hns.endpoint.stale',
  area: 'windows',
  severity: 'warning',
  title: 'Local HNS endpoints are left over from pods that are gone',
  firesWhen:
    "local HNS endpoints that are not attached (state not AttachedSharing/Attached), are in no namespace and have no container, or (when the runtime's sandboxes are known) are still attached to a namespace whose sandbox no longer exists; remote endpoints, names ending in `_ep`, and kube-proxy's source-VIP endpoint are never counted. Differs from Microsoft's networkhealth.ps1 on purpose: it calls any local endpoint not in state AttachedSharing invalid and flags remote endpoints that no load-balancer policy references; here state Attached is accepted too (HNS reports endpoints attached to a running pod either way), and remote endpoints are never flagged (they are normally State 1 with no containers, and kube-proxy owns them)",
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
    const live = liveSandboxIds(s.cri);
    const stale: { e: HnsEndpoint; why: string }[] = [];
    for (const e of hns.value.endpoints) {
      const v = endpointStaleness(e, live);
      if (v.stale) stale.push({ e, why: v.why });
    }
    if (stale.length === 0) return pass();
    const shown = stale.slice(0, 50);
    return fail({
      severity: 'warning',
      title: `${stale.length} stale HNS endpoint(s)`,
      summary: `These local endpoints belong to no running pod: HNS does not call them attached, they are in no namespace (compartment) and have no container, or HNS still calls them Attached to a namespace whose pod sandbox the runtime no longer has (the Inventory's Stale column says which). Leaked endpoints hold IP addresses (host-local/IPAM exhaustion), and a new pod whose endpoint name collides fails with "endpoint already exists".`,
      evidence: [
        ...shown.map(({ e, why }): Evidence => ({
          kind: 'hns' as const,
          objectType: 'endpoint' as const,
          id: e.id,
          name: e.name,
          detail: `${e.ip ?? 'no IP'} on ${e.networkName ?? e.networkId ?? '?'}: ${why}`,
        })),
        // The list stops at 50: say how many were left out and where they all are.
        ...(stale.length > shown.length
          ? [
              {
                kind: 'text' as const,
                text: `… and ${stale.length - shown.length} more stale endpoint(s): the Inventory's HNS endpoints tab lists every one (filter "stale").`,
              },
            ]
          : []),
      ],
      repairs: [
        offer('hns-remove-endpoints', `Remove ${stale.length} stale endpoint(s)`, {
          ids: stale.map(({ e }) => e.id),
        }),
      ],
    });
  },
};
