/**
 * One HNS endpoint, v1 or v2, into HnsEndpoint. v1: `VirtualNetwork`/`VirtualNetworkName`,
 * `IPAddress`, `Namespace.ID`, `IsRemoteEndpoint` (omitted when false), `SharedContainers`, numeric
 * `State`. v2: `HostComputeNetwork`, `HostComputeNamespace`, `IpConfigurations[]`, `Flags` bit 1 =
 * remote (KB windows §1.5).
 */
import type { HnsEndpoint } from './hns-model';
import { asList, bool, guid, isObj, mac, num, str, strList, type Obj } from './hns-fields';
import { endpointState, ENDPOINT_FLAG_REMOTE } from './hns-enums';
import { policiesOf } from './hns-policies';
import { defaultGateway } from './normalize-network';

export function normalizeEndpoint(o: Obj, id: string, keepRaw: boolean): HnsEndpoint {
  // v1 objects name their network `VirtualNetwork`; only v2 uses HostComputeNetwork for endpoints.
  const isV2 = o.VirtualNetwork === undefined && (o.HostComputeNetwork !== undefined || o.IpConfigurations !== undefined);
  const ep: HnsEndpoint = {
    id,
    name: str(o.Name) ?? '',
    schema: isV2 ? 'v2' : 'v1',
    isRemote: false,
    sharedContainers: strList(o.SharedContainers),
    policies: policiesOf(o.Policies),
  };
  const { state, stateCode } = endpointState(o.State);
  if (state !== undefined) ep.state = state;
  if (stateCode !== undefined) ep.stateCode = stateCode;
  const m = mac(o.MacAddress);
  if (m !== undefined) ep.mac = m;

  if (isV2) {
    const network = guid(o.HostComputeNetwork);
    if (network !== undefined) ep.networkId = network;
    const ns = guid(o.HostComputeNamespace);
    if (ns !== undefined) ep.namespaceId = ns;
    const flags = num(o.Flags);
    ep.isRemote = bool(o.IsRemoteEndpoint) === true || (flags !== undefined && (flags & ENDPOINT_FLAG_REMOTE) !== 0);
    const ipc = asList(o.IpConfigurations)[0];
    if (isObj(ipc)) {
      const ip = str(ipc.IpAddress);
      if (ip !== undefined) ep.ip = ip;
      const len = num(ipc.PrefixLength);
      if (len !== undefined) ep.prefixLength = len;
    }
    const gw = defaultGateway(o.Routes);
    if (gw !== undefined) ep.gateway = gw;
  } else {
    const network = guid(o.VirtualNetwork);
    if (network !== undefined) ep.networkId = network;
    const ns = o.Namespace;
    const nsId = isObj(ns) ? guid(ns.ID ?? ns.Id) : guid(ns);
    if (nsId !== undefined) ep.namespaceId = nsId;
    ep.isRemote = bool(o.IsRemoteEndpoint) === true;
    const ip = str(o.IPAddress);
    if (ip !== undefined) ep.ip = ip;
    const len = num(o.PrefixLength);
    if (len !== undefined) ep.prefixLength = len;
    const gw = str(o.GatewayAddress);
    if (gw !== undefined) ep.gateway = gw;
  }
  const networkName = str(o.VirtualNetworkName);
  if (networkName !== undefined) ep.networkName = networkName;
  if (keepRaw) ep.raw = o;
  return ep;
}
