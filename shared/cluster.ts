/**
 * The cluster as the user sees it (`cni-doctor cluster`, the Cluster screen): every node with its
 * Ready condition, runtime and CNI, and the pods stuck in sandbox creation on it, grouped by the
 * log signature their latest `FailedCreatePodSandBox` message matches. Built from the API server's
 * answers (main/cluster/view.ts); a node scan through kubectl adds which finding explains each pod.
 * Browser-safe: types only.
 */
import type { Severity } from './model/finding';

export const CLUSTER_SCHEMA = 'cni-doctor.cluster/v1';

/** The node condition the cni-doctor DaemonSet sets (node-problem-detector style). */
export const CNI_CONDITION_TYPE = 'CNIConfigProblem';

export interface NodeConditionView {
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  /** ISO time of the last transition, as the API server says. */
  since?: string;
}

export interface StuckPodView {
  namespace: string;
  name: string;
  /** The latest FailedCreatePodSandBox message (capped), or none when no event is kept. */
  message?: string;
  /** How many times the event repeated, and when it was last seen. */
  count?: number;
  lastSeen?: string;
  /** The log signature the message matches (main/logs/signatures-*.ts), if any. */
  signature?: { id: string; title: string };
  /** After a node scan: the node finding that explains this pod (see main/cluster/tie.ts). */
  explainedBy?: { findingId: string; rule: string; title: string; severity: Severity; how: string };
}

export interface StuckGroupView {
  /** Signature id, or `unmatched` for messages no signature knows, `no-event` without a message. */
  key: string;
  title: string;
  pods: StuckPodView[];
}

export interface ClusterNodeView {
  name: string;
  ready: NodeConditionView;
  os?: string;
  /** `containerd://1.7.20` as the kubelet reports it. */
  runtime?: string;
  kubelet?: string;
  /** The CNI as seen from the API (its DaemonSet pod on the node) or from a node scan. */
  cni?: { name: string; from: string };
  /** The DaemonSet reporter's condition (CNIConfigProblem), when it runs there. */
  cniCondition?: NodeConditionView;
  stuck: StuckGroupView[];
  stuckCount: number;
  /** Set after `--scan` / the Scan button: the scan's finding counts and top finding. */
  scan?: {
    target: string;
    durationMs?: number;
    counts: { error: number; warning: number; info: number };
    top?: { id: string; rule: string; title: string; severity: Severity };
    error?: string;
  };
}

export interface ClusterView {
  schema: typeof CLUSTER_SCHEMA;
  /** The kubeconfig context asked for (absent: the current one). */
  context?: string;
  fetchedAt: string;
  nodes: ClusterNodeView[];
  /** Stuck pods whose node the API does not name, or a node it does not list. */
  elsewhere: StuckPodView[];
  /** What could not be read (events forbidden, …); the view is partial, never invented. */
  notes: string[];
}
