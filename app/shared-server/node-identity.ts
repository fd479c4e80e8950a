/**
 * Whether this machine looks like a Kubernetes node at all, so the node picker offers it first
 * and a laptop is never diagnosed unasked.
 */
import type { Host } from '../../main/host/host';

/**
 * Files only a node has: the kubelet's configuration. A CNI conf dir alone is not enough: podman
 * writes `87-podman-bridge.conflist` into /etc/cni/net.d on any desktop Linux.
 */
const NODE_MARKERS: Record<'linux' | 'windows', readonly string[]> = {
  linux: [
    '/var/lib/kubelet/config.yaml',
    '/etc/kubernetes/kubelet.conf',
    '/var/lib/kubelet/kubeadm-flags.env',
  ],
  windows: ['C:\\var\\lib\\kubelet\\config.yaml', 'C:\\k\\kubelet.exe'],
};

/** Why this machine looks like a node (the first marker found), or undefined. Never throws. */
export async function looksLikeNode(openLive: () => Promise<Host>): Promise<string | undefined> {
  try {
    const host = await openLive();
    for (const p of NODE_MARKERS[host.os]) {
      const st = await host.stat(p);
      if (st.ok && st.type === 'file') return `${p} exists`;
    }
  } catch {
    // A machine we cannot even look at is not offered as a node; the picker still lists it.
  }
  return undefined;
}
