/** Component versions: recorded ones (bundles) plus `--version` of the binaries the node runs. */
import type { Fact } from '../../shared/model/fact';
import type { ProcessFact } from '../../shared/model/snapshot';
import type { Host } from '../host/host';

export const SERVICE_NAMES = {
  linux: [
    'containerd',
    'crio',
    'kubelet',
    'docker',
    'cri-docker',
    'k3s',
    'k3s-agent',
    'rke2-server',
    'rke2-agent',
  ],
  windows: [
    'containerd',
    'kubelet',
    'kube-proxy',
    'antrea-agent',
    'ovs-vswitchd',
    'ovsdb-server',
    'flanneld',
    'CalicoNode',
    'CalicoFelix',
    'docker',
  ],
} as const;

const COMPONENTS: Record<string, string> = {
  kubelet: 'kubelet',
  containerd: 'containerd',
  crio: 'crio',
  k3s: 'k3s',
  rke2: 'rke2',
};

export async function probeVersions(
  host: Host,
  processes: Fact<ProcessFact[]>,
): Promise<Record<string, string>> {
  const binaries: { component: string; path: string }[] = [];
  if (processes.known) {
    for (const p of processes.value) {
      const component = COMPONENTS[p.name.replace(/\.exe$/i, '')];
      const exe = p.args[0];
      if (component && exe?.startsWith('/') && !binaries.some((b) => b.component === component))
        binaries.push({ component, path: exe });
    }
  }
  return host.versions({ binaries });
}
