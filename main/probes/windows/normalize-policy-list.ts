/**
 * One HNS policy list (kube-proxy load balancer) into HnsPolicyList. v1: `References`
 * ("/endpoints/<guid>"), `Policies[{Type:"ELB", VIPs, SourceVIP, …}]`, `HostComputeNetwork`,
 * `IsApplied`, `State`. v2 (HostComputeLoadBalancer, which hns.v2.psm1's Get-HnsPolicyList
 * returns): `HostComputeEndpoints`, `FrontendVIPs`, `SourceVIP`, `PortMappings` (KB windows §1.1,
 * §1.5).
 */
import type { HnsPolicy, HnsPolicyList } from './hns-model';
import { asList, bool, guid, guidList, isObj, num, str, type Obj } from './hns-fields';
import { policiesOf, policyTypes } from './hns-policies';

export function normalizePolicyList(o: Obj, id: string, keepRaw: boolean): HnsPolicyList {
  const isV2 = o.References === undefined && (o.HostComputeEndpoints !== undefined || o.PortMappings !== undefined);
  const policies = isV2 ? portMappings(o.PortMappings) : policiesOf(o.Policies);
  const vips: string[] = [];
  let sourceVip = str(o.SourceVIP);
  if (isV2) {
    for (const v of asList(o.FrontendVIPs)) pushStr(vips, v);
  } else {
    for (const p of policies) {
      for (const v of asList(p.settings.VIPs)) pushStr(vips, v);
      sourceVip ??= str(p.settings.SourceVIP);
    }
  }
  const pl: HnsPolicyList = {
    id,
    endpoints: isV2 ? guidList(o.HostComputeEndpoints) : referencedEndpoints(o.References),
    policyTypes: isV2 ? ['LoadBalancer'] : policyTypes(policies),
    schema: isV2 ? 'v2' : 'v1',
    policies,
    vips,
  };
  const network = guid(o.HostComputeNetwork);
  if (network !== undefined) pl.networkId = network;
  if (sourceVip !== undefined) pl.sourceVip = sourceVip;
  const applied = bool(o.IsApplied);
  if (applied !== undefined) pl.isApplied = applied;
  const stateCode = num(o.State);
  if (stateCode !== undefined) pl.stateCode = stateCode;
  if (keepRaw) pl.raw = o;
  return pl;
}

/** "/endpoints/<guid>" → guid. Other reference kinds are not endpoints and are skipped. */
function referencedEndpoints(v: unknown): string[] {
  const out: string[] = [];
  for (const r of asList(v)) {
    if (typeof r !== 'string') continue;
    const slash = r.lastIndexOf('/');
    if (slash >= 0 && !/\/endpoints\//i.test(r)) continue;
    const g = guid(r.slice(slash + 1));
    if (g !== undefined) out.push(g);
  }
  return out;
}

function portMappings(v: unknown): HnsPolicy[] {
  const out: HnsPolicy[] = [];
  for (const pm of asList(v)) if (isObj(pm)) out.push({ type: 'PortMapping', settings: pm });
  return out;
}

function pushStr(out: string[], v: unknown): void {
  const s = str(v);
  if (s !== undefined && s !== 'System.Object[]') out.push(s);
}
