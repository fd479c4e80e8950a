/** A compact picture of the node for the Overview screen and the text report header. */
export interface NodeSummary {
  os: 'linux' | 'windows';
  hostname?: string;
  osVersion?: string;
  /** The runtime the kubelet uses (or every one found), e.g. "containerd 1.7.20". */
  runtimes: {
    name: string;
    version?: string;
    endpoint?: string;
    configPath?: string;
    /**
     * Which release's CNI loader the model applied to this runtime's conf dir, and whether its
     * version was known or assumed (docs/knowledge/cni-loading.md#loader-profiles).
     */
    cniLoader?: { profile: string; loader: string; assumed: boolean; note: string };
  }[];
  kubelet?: { version?: string; endpoint?: string; cgroupDriver?: string };
  /** The CNI config the kubelet's runtime loads, if any. */
  cniInUse?: {
    runtime: string;
    confDir: string;
    file?: string;
    network?: string;
    plugins: string[];
  };
  criConditions?: {
    endpoint: string;
    runtimeReady?: boolean;
    networkReady?: boolean;
    message?: string;
  }[];
  counts: { error: number; warning: number; info: number };
  /** The finding most likely to explain a stuck sandbox. */
  topFindingId?: string;
}
