/**
 * Which CNI a node runs, as far as the API shows it: the CNI's agent is a DaemonSet pod on that
 * node, named after its DaemonSet. The names are the upstream manifests' own (calico-node,
 * cilium, kube-flannel-ds, antrea-agent, kindnet, weave-net, …). A node scan says more (the conf
 * file the runtime loads); this is what the view shows before one.
 */
const AGENTS: readonly [RegExp, string][] = [
  [/^calico-node$/, 'Calico'],
  [/^canal$/, 'Canal'],
  [/^cilium$/, 'Cilium'],
  [/^(kube-)?flannel(-ds)?(-[a-z0-9]+)?$/, 'Flannel'],
  [/^antrea-agent$/, 'Antrea'],
  [/^kindnet$/, 'kindnet'],
  [/^weave-net$/, 'Weave Net'],
  [/^kube-router$/, 'kube-router'],
  [/^aws-node$/, 'Amazon VPC CNI'],
  [/^azure-cns$/, 'Azure CNI'],
  [/^ovnkube-node$/, 'OVN-Kubernetes'],
  [/^kube-multus-ds(-[a-z0-9]+)?$/, 'Multus'],
];

/** The CNI agent's name for a DaemonSet name, if it is one we know. */
export function cniForDaemonSet(daemonSet: string): string | undefined {
  return AGENTS.find(([re]) => re.test(daemonSet))?.[1];
}
