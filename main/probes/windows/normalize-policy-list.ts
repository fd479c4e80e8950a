/**
 * One HNS policy list (kube-proxy load balancer) into HnsPolicyList. v1: `References`
 * ("/endpoints/<guid>"), `Policies[{Type:"ELB", VIPs, SourceVIP, …}]`, `HostComputeNetwork`,
 * `IsApplied`, `State`. v2 (HostComputeLoadBalancer, which hns.v2.psm1's Get-HnsPolicyList
 * returns): `HostComputeEndpoints`, `FrontendVIPs`, `SourceVIP`, `PortMappings` (docs/knowledge/windows-hns.md#three-powershell-surfaces,
 * docs/knowledge/windows-hns.md#field-names).
 */
import type { HnsPolicy, HnsPolicyList } from './hns-model';
import { asList, bool, fit, isObj, num, sized, str, type Obj } from './hns-fields';
import { NormalizeContext } from './normalize-context';
import { policiesOf, policyTypes } from './hns-policies';

export function normalizePolicyList(o: Obj, id: string, ctx: NormalizeContext): HnsPolicyList {
  const isV2 =
    o.References === undefined &&
    (o.HostComputeEndpoints !== undefined || o.PortMappings !== undefined);
  const policies = isV2 ? portMappings(o.PortMappings) : policiesOf(o.Policies);
  let vips = NormalizeContext.empty();
  let sourceVip = str(o.SourceVIP);
  if (isV2) {
    vips = collectVips(o.FrontendVIPs, vips);
  } else {
    for (const p of policies) {
      vips = collectVips(p.settings.VIPs, vips);
      sourceVip ??= str(p.settings.SourceVIP);
    }
  }
  // One literal with every field (absent ones undefined): one allocation and one object shape
  // for all 20,000, where adding fields one by one would grow each object twice.
  return {
    id,
    endpoints: endpointIds(isV2 ? o.HostComputeEndpoints : o.References, ctx),
    policyTypes: isV2 ? NormalizeContext.typeList('LoadBalancer') : policyTypesOf(policies),
    schema: isV2 ? 'v2' : 'v1',
    networkId: ctx.sharedId(o.HostComputeNetwork),
    policies,
    vips,
    sourceVip,
    isApplied: bool(o.IsApplied),
    stateCode: num(o.State),
    raw: ctx.keepRaw ? o : undefined,
  };
}

/** Distinct policy types; the usual single-type case is a shared list. */
function policyTypesOf(policies: readonly HnsPolicy[]): string[] {
  if (policies.length === 0) return NormalizeContext.empty();
  if (policies.length === 1) return NormalizeContext.typeList(policies[0]?.type ?? 'Unknown');
  return policyTypes(policies);
}

/** v1 "/endpoints/<guid>" references or v2 bare IDs → endpoint IDs. Other reference kinds are skipped. */
function endpointIds(v: unknown, ctx: NormalizeContext): string[] {
  const list = asList(v);
  if (list.length === 0) return NormalizeContext.empty();
  const out = sized<string>(list.length);
  let k = 0;
  for (let i = 0; i < list.length; i++) {
    const r = list[i];
    const id =
      typeof r === 'string'
        ? ctx.endpointRef(r)
        : isObj(r)
          ? ctx.sharedId(r.ID ?? r.Id)
          : undefined;
    if (id !== undefined) out[k++] = id;
  }
  return fit(out, k);
}

function portMappings(v: unknown): HnsPolicy[] {
  const list = asList(v);
  const out = sized<HnsPolicy>(list.length);
  let k = 0;
  for (const pm of list) if (isObj(pm)) out[k++] = { type: 'PortMapping', settings: pm };
  return fit(out, k);
}

/** Adds VIPs to `into`, allocating only when there is one to add, and only the room needed. */
function collectVips(v: unknown, into: string[]): string[] {
  const list = asList(v);
  if (list.length === 0) return into;
  const fresh = into === NormalizeContext.empty();
  const out = fresh ? sized<string>(list.length) : into;
  let k = fresh ? 0 : out.length;
  for (let i = 0; i < list.length; i++) {
    const s = str(list[i]);
    if (s === undefined || s === 'System.Object[]') continue; // a list display, not an address
    out[k++] = s;
  }
  if (fresh && k === 0) return into;
  return fit(out, k);
}
