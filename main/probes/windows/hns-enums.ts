/**
 * HNS enums that arrive as numbers (Windows PowerShell 5.1 has no -EnumsAsStrings, and HNS itself
 * stores them numerically) or as strings in varying case. docs/knowledge/windows-hns.md#getting-json-out-reliably–1.5.
 */
import type { HnsEndpointState } from './hns-model';

/** Endpoint State, v1 numbering [hcsshim internal/hns/hnsendpoint.go, docs/knowledge/windows-hns.md#field-names]. */
const ENDPOINT_STATES: readonly HnsEndpointState[] = [
  'Uninitialized',
  'Created',
  'Attached',
  'AttachedSharing',
  'Detached',
  'Degraded',
  'Destroyed',
];

const ENDPOINT_STATE_BY_LOWER = new Map(ENDPOINT_STATES.map((s) => [s.toLowerCase(), s]));

/**
 * `state` is a canonical name when the value is a known code or name; an unknown string is kept
 * as given (a newer HNS may add names), an unknown number gives only `stateCode`.
 */
export function endpointState(v: unknown): { state?: string; stateCode?: number } {
  if (typeof v === 'number' && Number.isInteger(v)) {
    const name = ENDPOINT_STATES[v];
    return name === undefined ? { stateCode: v } : { state: name, stateCode: v };
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^\d+$/.test(t)) return endpointState(Number(t));
    if (t === '') return {};
    const name = ENDPOINT_STATE_BY_LOWER.get(t.toLowerCase());
    return name === undefined
      ? { state: t }
      : { state: name, stateCode: ENDPOINT_STATES.indexOf(name) };
  }
  return {};
}

/** Network types HNS knows (hns.psm1 ValidateSet plus v2's Infiniband, docs/knowledge/windows-hns.md#creating-and-removing-networks). */
const NETWORK_TYPES = [
  'NAT',
  'ICS',
  'Internal',
  'Transparent',
  'Overlay',
  'L2Bridge',
  'L2Tunnel',
  'Layered',
  'Private',
  'Infiniband',
];
const NETWORK_TYPE_BY_LOWER = new Map(NETWORK_TYPES.map((t) => [t.toLowerCase(), t]));

/**
 * Canonical spelling of a network type. HNS returns "nat", "l2bridge", "Overlay"… (docs/knowledge/windows-hns.md#field-names: compare
 * case-insensitively). An unknown string is kept; a number (no source documents a numeric network
 * type) becomes `Unknown(<n>)` rather than a guess; nothing at all is `Unknown`.
 */
export function networkType(v: unknown): string {
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return 'Unknown';
    return NETWORK_TYPE_BY_LOWER.get(t.toLowerCase()) ?? t;
  }
  if (typeof v === 'number') return `Unknown(${v})`;
  return 'Unknown';
}

/** Network Flags bit: EnableNonPersistent [hcsshim hcn/hcnnetwork.go, docs/knowledge/windows-hns.md#field-names]. */
export const NETWORK_FLAG_NON_PERSISTENT = 8;
/** v2 endpoint Flags bit: RemoteEndpoint [hcsshim hcn/hcnendpoint.go, docs/knowledge/windows-hns.md#field-names]. */
export const ENDPOINT_FLAG_REMOTE = 1;
