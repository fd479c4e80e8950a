/**
 * The report's pictures (issue 22 point 5): each runtime's CNI conf dir as a lane of files in the
 * runtime's real load order, and on a Windows node the chain a pod's network goes through, each
 * link judged from the scan's facts and checks. The engine computes them (main/engine/pictures/);
 * the UI and the HTML report only draw them. Browser-safe: types only.
 */
import type { LoadOrderSide } from './compare';

/** One runtime's conf dir, left to right in the order the runtime reads it. */
export interface LoadOrderLane {
  /** `containerd`, `crio`. */
  runtime: string;
  /** "containerd", "k3s's containerd", "CRI-O". */
  label: string;
  /** The kubelet dials this runtime (or no kubelet endpoint is known). */
  usedByKubelet: boolean;
  side: LoadOrderSide;
  /** Files left out of `side.entries` to keep the report small (a conf dir of thousands). */
  omitted?: number;
}

/** ok: this hop works; warning: it works, with a finding; broken: pods fail here; unknown: could not look. */
export type ChainLinkState = 'ok' | 'warning' | 'broken' | 'unknown';

export type ChainLinkId =
  | 'kubelet'
  | 'runtime'
  | 'cni-config'
  | 'cni-plugin'
  | 'cnisock'
  | 'agent'
  | 'hns-network'
  | 'endpoints';

export interface ChainLink {
  id: ChainLinkId;
  /** What the hop is, in words: "kubelet", "containerd (pipe)", "CNI plugin". */
  label: string;
  /** Which one on this node: "v1.19.1", "\\.\pipe\containerd-containerd", "antrea.exe". */
  name?: string;
  state: ChainLinkState;
  /** Why, in one sentence. */
  detail: string;
  /** The finding that says more, when one does. */
  findingId?: string;
}

/** kubelet → containerd → CNI config → plugin → cnisock → agent → HNS network → endpoints. */
export interface WindowsChain {
  /** The CNI config the chain follows from the config link on (the cluster's, when a default shadows it). */
  follows?: string;
  links: ChainLink[];
  /** The first link that is broken: where a pod's sandbox fails. */
  brokenAt?: ChainLinkId;
}
