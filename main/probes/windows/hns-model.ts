/**
 * The one HNS model the Windows rules read, whichever surface produced the objects: the built-in
 * HostNetworkingService module (v1 schema), hnsdiag `-d` JSON (v1), or the PSGallery HNS module /
 * hns.v2.psm1 (v2 schema). docs/knowledge/windows-hns.md#three-powershell-surfaces, docs/knowledge/windows-hns.md#field-names.
 *
 * Each type extends the shared contract (shared/model/hns.ts) so a NormalizedHns can be handed to
 * anything that expects an HnsModel; the extra fields are what the Windows rules need beyond it.
 *
 * Conventions:
 * - IDs are lower-case GUIDs without braces. HNS mixes cases (network IDs upper, endpoint IDs lower,
 *   namespace ResourceList IDs upper), and the rules join across objects.
 * - `state` is a readable name only where the knowledge pages give the enum (endpoints: docs/knowledge/windows-hns.md#field-names). Elsewhere only
 *   `stateCode` is set, because a guessed name would mislead.
 * - Read-only for consumers: optional fields are present with the value `undefined` when unknown
 *   (one object shape for all 25,000 objects of a big node), and small lists such as
 *   `policyTypes` or an empty `vips` may be shared, frozen arrays (normalize-context.ts).
 */
import type * as Shared from '../../../shared/model/hns';

export type HnsSchema = 'v1' | 'v2';

export type HnsSubnet = Shared.HnsSubnet;

export interface HnsPolicy {
  /** The type as HNS spells it: OutBoundNAT, ROUTE, SDNROUTE, PA, ACL, ELB, VSID, RemoteSubnetRoute… */
  type: string;
  /** v1: the flat policy object itself (its `Type` included); v2: its `Settings` object. */
  settings: Readonly<Record<string, unknown>>;
}

export interface HnsExtension {
  id: string;
  name: string;
  enabled: boolean;
}

export interface HnsNetwork extends Shared.HnsNetwork {
  schema: HnsSchema;
  stateCode?: number;
  flags?: number;
  /** Flags bit 8 (EnableNonPersistent): HNS drops the network on restart or reboot (docs/knowledge/windows-hns.md#field-names, docs/knowledge/windows-node.md#services-restart-order-and-logs). */
  nonPersistent: boolean;
  managementIp?: string;
  adapterName?: string;
  natName?: string;
  extensions: HnsExtension[];
  policies: HnsPolicy[];
  raw?: unknown;
}

export type HnsEndpointState =
  | 'Uninitialized'
  | 'Created'
  | 'Attached'
  | 'AttachedSharing'
  | 'Detached'
  | 'Degraded'
  | 'Destroyed';

export interface HnsEndpoint extends Shared.HnsEndpoint {
  schema: HnsSchema;
  /** A known HnsEndpointState, or the string HNS gave when it is not one of them. */
  state?: string;
  stateCode?: number;
  prefixLength?: number;
  gateway?: string;
  policies: HnsPolicy[];
  raw?: unknown;
}

export interface HnsNamespace extends Shared.HnsNamespace {
  schema: HnsSchema;
  containers: string[];
  compartmentId?: number;
  isDefault?: boolean;
  /** v2 only: Host, HostDefault, Guest, GuestDefault. */
  type?: string;
  stateCode?: number;
  raw?: unknown;
}

export interface HnsPolicyList extends Shared.HnsPolicyList {
  schema: HnsSchema;
  /** Network the load balancer belongs to (`HostComputeNetwork`), when given. */
  networkId?: string;
  policies: HnsPolicy[];
  /** Front-end VIPs of every policy (v1 `VIPs`, v2 `FrontendVIPs`). */
  vips: string[];
  sourceVip?: string;
  isApplied?: boolean;
  /** Microsoft's health script treats anything but 2 as an invalid load balancer (docs/knowledge/windows-hns.md#stale-and-leaked-objects). */
  stateCode?: number;
  raw?: unknown;
}

export interface NormalizedHns extends Shared.HnsModel {
  networks: HnsNetwork[];
  endpoints: HnsEndpoint[];
  namespaces: HnsNamespace[];
  policyLists: HnsPolicyList[];
  /** Objects that could not be used (not an object, or no ID), with the reason; capped. */
  dropped: { kind: HnsKind; reason: string }[];
}

export type HnsKind = 'network' | 'endpoint' | 'namespace' | 'policyList';

/** What normalizeHns accepts: each list as parsed JSON, untrusted. */
export interface RawHnsInput {
  networks?: unknown;
  endpoints?: unknown;
  namespaces?: unknown;
  policyLists?: unknown;
  source?: unknown;
}
