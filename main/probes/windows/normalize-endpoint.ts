/**
 * One HNS endpoint, v1 or v2, into HnsEndpoint. v1: `VirtualNetwork`/`VirtualNetworkName`,
 * `IPAddress`, `Namespace.ID`, `IsRemoteEndpoint` (omitted when false), `SharedContainers`, numeric
 * `State`. v2: `HostComputeNetwork`, `HostComputeNamespace`, `IpConfigurations[]`, `Flags` bit 1 =
 * remote (docs/knowledge/windows-hns.md#field-names).
 */
import type { HnsEndpoint } from './hns-model';
import { asList, bool, isObj, mac, num, str, strList, type Obj } from './hns-fields';
import { endpointState, ENDPOINT_FLAG_REMOTE } from './hns-enums';
import { policiesOf } from './hns-policies';
import { defaultGateway } from './normalize-network';
import type { NormalizeContext } from './normalize-context';

export function normalizeEndpoint(o: Obj, id: string, ctx: NormalizeContext): HnsEndpoint {
  // v1 objects name their network `VirtualNetwork`; only v2 uses HostComputeNetwork for endpoints.
  const isV2 =
    o.VirtualNetwork === undefined &&
    (o.HostComputeNetwork !== undefined || o.IpConfigurations !== undefined);
  const { state, stateCode } = endpointState(o.State);
  let networkId: string | undefined;
  let namespaceId: string | undefined;
  let isRemote: boolean;
  let ip: string | undefined;
  let prefixLength: number | undefined;
  let gateway: string | undefined;
  if (isV2) {
    networkId = ctx.sharedId(o.HostComputeNetwork);
    namespaceId = ctx.sharedId(o.HostComputeNamespace);
    const flags = num(o.Flags);
    isRemote =
      bool(o.IsRemoteEndpoint) === true ||
      (flags !== undefined && (flags & ENDPOINT_FLAG_REMOTE) !== 0);
    const ipc = asList(o.IpConfigurations)[0];
    if (isObj(ipc)) {
      ip = str(ipc.IpAddress);
      prefixLength = num(ipc.PrefixLength);
    }
    gateway = defaultGateway(o.Routes);
  } else {
    networkId = ctx.sharedId(o.VirtualNetwork);
    const ns = o.Namespace;
    namespaceId = isObj(ns) ? ctx.sharedId(ns.ID ?? ns.Id) : ctx.sharedId(ns);
    isRemote = bool(o.IsRemoteEndpoint) === true;
    ip = str(o.IPAddress);
    prefixLength = num(o.PrefixLength);
    gateway = str(o.GatewayAddress);
  }
  // Every field in one literal (absent ones undefined): one allocation, one shape for all.
  return {
    id,
    name: str(o.Name) ?? '',
    schema: isV2 ? 'v2' : 'v1',
    networkId,
    networkName: str(o.VirtualNetworkName),
    ip,
    prefixLength,
    gateway,
    mac: mac(o.MacAddress),
    state,
    stateCode,
    isRemote,
    namespaceId,
    sharedContainers: strList(o.SharedContainers),
    policies: policiesOf(o.Policies),
    raw: ctx.keepRaw ? o : undefined,
  };
}
