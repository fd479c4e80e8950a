/**
 * hns-remove-endpoints (hns.endpoint.stale): remove exactly the listed endpoints, by ID, in one
 * step. Never by name pattern, and never a remote endpoint, a host endpoint (*_ep) or kube-proxy's
 * source VIP (the same guard as the rule, checked again on the node). HNS keeps no copy of a
 * removed endpoint, so the repair cannot be undone; the preview says so and lists each endpoint.
 */
import type { HnsEndpoint } from '../../../shared/model/hns';
import type { PowerShellStep } from '../../../shared/model/repair';
import { GUID } from '../../host/windows/repair-step-input';
import { isProtected } from '../../rules/windows/endpoint-stale';
import type { PlanBuilder } from './types';
import { refuse } from './refusal';
import { requireHns, requireLiveWindows } from './windows-node';

export const IRREVERSIBLE_NOTE =
  'This repair cannot be undone: HNS keeps no copy of a removed endpoint. A pod that still needed one gets a new endpoint when the kubelet recreates its sandbox.';

function describeEndpoint(e: HnsEndpoint): string {
  const containers =
    e.sharedContainers.length === 0 ? 'no container' : `${e.sharedContainers.length} container(s)`;
  return `Removes endpoint ${e.id} "${e.name}": ${e.ip ?? 'no IP'} on ${e.networkName ?? e.networkId ?? 'an unknown network'}, state ${e.state ?? 'unknown'}, ${e.namespaceId ? `namespace ${e.namespaceId}` : 'no namespace'}, ${containers}`;
}

export const buildHnsRemoveEndpoints: PlanBuilder<'hns-remove-endpoints'> = async (s, r, host) => {
  requireLiveWindows(s, host);
  const hns = requireHns(s);
  const ids = r.offer.params.ids;
  if (ids.length === 0) refuse('no endpoints are listed');
  const byId = new Map(hns.endpoints.map((e) => [e.id.toLowerCase(), e]));
  const seen = new Set<string>();
  const listed: HnsEndpoint[] = [];
  for (const id of ids) {
    if (!GUID.test(id)) refuse(`"${id}" is not an endpoint ID; endpoints are removed by ID only`);
    if (seen.has(id.toLowerCase())) continue;
    seen.add(id.toLowerCase());
    const e = byId.get(id.toLowerCase());
    if (!e) refuse(`endpoint ${id} does not exist any more; scan again`);
    if (isProtected(e))
      refuse(
        `endpoint ${id} ("${e.name}") is a remote, host (*_ep) or source-VIP endpoint; the doctor never removes those`,
      );
    listed.push(e);
  }
  const step: PowerShellStep = {
    kind: 'powershell',
    cmdlet: 'Remove-HnsEndpoint',
    params: { Id: listed.map((e) => e.id) },
    needsElevation: true,
    description: `Remove-HnsEndpoint, by ID, ${listed.length} endpoint(s): ${listed.map((e) => e.id).join(', ')}`,
  };
  return {
    risk: 'medium',
    steps: [step],
    podImpact:
      'None of these endpoints is attached to a running pod; their IP addresses go back to the pool. Running pods are not touched.',
    notes: [...listed.map(describeEndpoint), IRREVERSIBLE_NOTE],
  };
};
