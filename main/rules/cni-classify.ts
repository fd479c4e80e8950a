/**
 * Which CNI configs a runtime or tool installs by itself ("defaults") and which belong to the
 * cluster (rules.md Definitions, docs/knowledge/cni-loading.md#load-order-on-a-real-node, docs/knowledge/windows-containerd.md#which-config-wins).
 */
import type { CniConfFile } from '../../shared/model/snapshot';

const DEFAULT_NAME_PATTERNS: RegExp[] = [
  /^10-containerd-net\.conflist$/, // containerd install-cni / conf_template output
  /^100-crio-bridge\.conf(list)?$/, // distro CRI-O packages
  /^10-crio-bridge\.conf(list)?$/, // CRI-O upstream contrib
  /^11-crio-ipv4-bridge\.conflist$/, // pkgs.k8s.io CRI-O
  /^200-loopback\.conf$/, // CRI-O legacy loopback
  /^99-loopback\.conf(list)?$/, // CRI-O contrib loopback
  /^87-podman.*\.conflist$/, // podman ≤ 3
  /^nerdctl-.*\.conflist$/, // nerdctl
  /^0-containerd-nat\.json$/i, // containerd's Windows setup script (docs/knowledge/windows-containerd.md#which-config-wins)
];

const DEFAULT_NETWORK_NAMES = new Set([
  'containerd-net',
  'crio',
  'podman',
  'cni-loopback',
  'crio-loopback',
  'loopback',
]);

export function isDefaultConfig(f: CniConfFile): boolean {
  if (DEFAULT_NAME_PATTERNS.some((re) => re.test(f.name))) return true;
  const p = f.parse?.known ? f.parse.value : undefined;
  if (p?.ok && p.network && DEFAULT_NETWORK_NAMES.has(p.network)) return true;
  // A loopback-only config does not network pods; no cluster CNI ships one.
  if (p?.ok && p.plugins.length > 0 && p.plugins.every((x) => x.type === 'loopback')) return true;
  return false;
}

/** Well-known cluster CNI plugin types, for naming the cluster CNI in messages. */
const CLUSTER_TYPES: Record<string, string> = {
  calico: 'Calico',
  flannel: 'flannel',
  antrea: 'Antrea',
  'cilium-cni': 'Cilium',
  cilium: 'Cilium',
  'weave-net': 'Weave Net',
  multus: 'Multus',
  'multus-shim': 'Multus',
  sdnbridge: 'sdnbridge',
  sdnoverlay: 'sdnoverlay',
  'azure-vnet': 'Azure CNI',
  'aws-cni': 'AWS VPC CNI',
  'vpc-bridge': 'AWS VPC CNI',
  'kube-ovn': 'Kube-OVN',
  'ovn-k8s-cni-overlay': 'OVN-Kubernetes',
  'win-bridge': 'win-bridge',
  'win-overlay': 'win-overlay',
};

export function clusterCniName(f: CniConfFile): string | undefined {
  const p = f.parse?.known ? f.parse.value : undefined;
  if (!p?.ok) return undefined;
  for (const pl of p.plugins) {
    const n = CLUSTER_TYPES[pl.type];
    if (n) return n;
  }
  if (p.network === 'kindnet' || f.name.includes('kindnet')) return 'kindnet';
  return p.network ?? f.name;
}

export function pluginTypes(f: CniConfFile): string[] {
  const p = f.parse?.known ? f.parse.value : undefined;
  return p?.ok ? p.plugins.map((x) => x.type) : [];
}
