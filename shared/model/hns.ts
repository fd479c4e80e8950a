/**
 * HNS objects normalised across the three PowerShell/HNS surfaces (v1 HNS.psm1, v2
 * HostNetworkingService, hnsdiag JSON) — docs/knowledge/windows-hns.md#the-real-samples–3. Only the fields the rules and the
 * Inventory need; `raw` keeps the original for evidence.
 */
export interface HnsSubnet {
  prefix: string;
  gateway?: string;
}

export interface HnsNetwork {
  id: string;
  name: string;
  /** Normalised type: NAT, ICS, L2Bridge, L2Tunnel, Overlay, Transparent, Private, Internal… */
  type: string;
  subnets: HnsSubnet[];
  state?: string;
}

export interface HnsEndpoint {
  id: string;
  name: string;
  networkId?: string;
  networkName?: string;
  ip?: string;
  mac?: string;
  /** Normalised: Attached, AttachedSharing, Created, Detached, Degraded, Destroyed, Uninitialized… */
  state?: string;
  isRemote: boolean;
  namespaceId?: string;
  sharedContainers: string[];
}

export interface HnsNamespace {
  id: string;
  endpoints: string[];
}

export interface HnsPolicyList {
  id: string;
  endpoints: string[];
  policyTypes: string[];
}

export interface HnsModel {
  source: string;
  networks: HnsNetwork[];
  endpoints: HnsEndpoint[];
  namespaces: HnsNamespace[];
  policyLists: HnsPolicyList[];
}
