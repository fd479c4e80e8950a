/**
 * One HNS network, v1 or v2, into HnsNetwork. v1: `Subnets[].AddressPrefix/GatewayAddress`,
 * `ManagementIP`, `NetworkAdapterName`; v2: `Ipams[].Subnets[].IpAddressPrefix` with the gateway
 * as the default route's NextHop (docs/knowledge/windows-hns.md#field-names).
 */
import type { HnsExtension, HnsNetwork, HnsSubnet } from './hns-model';
import { asList, bool, guid, isObj, num, str, type Obj } from './hns-fields';
import type { NormalizeContext } from './normalize-context';
import { networkType, NETWORK_FLAG_NON_PERSISTENT } from './hns-enums';
import { policiesOf } from './hns-policies';

export function normalizeNetwork(o: Obj, id: string, ctx: NormalizeContext): HnsNetwork {
  const isV2 = o.Ipams !== undefined && o.Subnets === undefined;
  const flags = num(o.Flags);
  const stateCode = num(o.State);
  return {
    id,
    name: str(o.Name) ?? '',
    type: networkType(o.Type),
    subnets: isV2 ? v2Subnets(o.Ipams) : v1Subnets(o.Subnets),
    // No source names the numeric network states; only a state HNS spells out is a name.
    state: stateCode === undefined ? str(o.State) : undefined,
    schema: isV2 ? 'v2' : 'v1',
    stateCode,
    flags,
    nonPersistent: flags !== undefined && (flags & NETWORK_FLAG_NON_PERSISTENT) !== 0,
    managementIp: str(o.ManagementIP) ?? str(o.ManagementIp),
    adapterName: str(o.NetworkAdapterName) ?? str(o.NetAdapterName),
    natName: str(o.NatName),
    extensions: extensionsOf(o.Extensions),
    policies: policiesOf(o.Policies),
    raw: ctx.keepRaw ? o : undefined,
  };
}

function v1Subnets(v: unknown): HnsSubnet[] {
  const out: HnsSubnet[] = [];
  for (const s of asList(v)) {
    if (!isObj(s)) continue;
    const prefix = str(s.AddressPrefix) ?? str(s.IpAddressPrefix);
    if (prefix === undefined) continue;
    const gateway = str(s.GatewayAddress);
    out.push(gateway === undefined ? { prefix } : { prefix, gateway });
  }
  return out;
}

function v2Subnets(ipams: unknown): HnsSubnet[] {
  const out: HnsSubnet[] = [];
  for (const ipam of asList(ipams)) {
    if (!isObj(ipam)) continue;
    for (const s of asList(ipam.Subnets)) {
      if (!isObj(s)) continue;
      const prefix = str(s.IpAddressPrefix) ?? str(s.AddressPrefix);
      if (prefix === undefined) continue;
      const gateway = defaultGateway(s.Routes);
      out.push(gateway === undefined ? { prefix } : { prefix, gateway });
    }
  }
  return out;
}

/** The default route's next hop; else the first route's (hns.v2.psm1 writes one 0.0.0.0/0 route). */
export function defaultGateway(routes: unknown): string | undefined {
  let first: string | undefined;
  for (const r of asList(routes)) {
    if (!isObj(r)) continue;
    const hop = str(r.NextHop);
    if (hop === undefined) continue;
    const dest = str(r.DestinationPrefix);
    if (dest === '0.0.0.0/0' || dest === '::/0') return hop;
    first ??= hop;
  }
  return first;
}

function extensionsOf(v: unknown): HnsExtension[] {
  const out: HnsExtension[] = [];
  for (const e of asList(v)) {
    if (!isObj(e)) continue;
    out.push({
      id: guid(e.Id ?? e.ID) ?? '',
      name: str(e.Name) ?? '',
      enabled: bool(e.IsEnabled) === true,
    });
  }
  return out;
}
