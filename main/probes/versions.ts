/** Component versions: recorded ones (bundles) plus `--version` of the binaries the node runs. */
import type { CriEntry } from '../../shared/model/cri';
import type { Fact } from '../../shared/model/fact';
import type { ProcessFact } from '../../shared/model/snapshot';
import type { Host, VersionHints } from '../host/host';

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

/**
 * The runtimes that answer their own version over CRI (Version's runtime_name, lower-cased), by
 * component: where CRI comes last on a host (a remote node), their `--version` is run only when
 * that answer is missing (snapshot.ts).
 */
export const CRI_RUNTIME_NAMES: Readonly<Record<string, string>> = {
  containerd: 'containerd',
  crio: 'cri-o',
};

/** `--version` of the binaries the node runs, for the components `wanted` keeps (default: all). */
export async function probeVersions(
  host: Host,
  processes: Fact<ProcessFact[]>,
  wanted: (component: string) => boolean = () => true,
): Promise<Record<string, string>> {
  // Asked even with no binary: a bundle answers with every version it recorded.
  return host.versions({ binaries: versionBinaries(processes, wanted) });
}

/** The binary of each component the node runs (its first process's absolute argv[0]). */
export function versionBinaries(
  processes: Fact<ProcessFact[]>,
  wanted: (component: string) => boolean = () => true,
): VersionHints['binaries'] {
  const binaries: VersionHints['binaries'] = [];
  if (processes.known) {
    for (const p of processes.value) {
      const component = COMPONENTS[p.name.replace(/\.exe$/i, '')];
      const exe = p.args[0];
      if (
        component &&
        wanted(component) &&
        exe?.startsWith('/') &&
        !binaries.some((b) => b.component === component)
      )
        binaries.push({ component, path: exe });
    }
  }
  return binaries;
}

/**
 * The components whose running daemon gave its version on its socket: CRI Version's runtime_name,
 * or containerd's own Version service (answered with the CRI plugin disabled too).
 */
export function runtimesVersionedByCri(cri: readonly CriEntry[] | undefined): Set<string> {
  const named = new Set<string>();
  for (const e of cri ?? []) {
    if (e.version?.runtimeVersion) named.add(e.version.runtimeName.toLowerCase());
    if (e.containerdVersion?.version) named.add(CRI_RUNTIME_NAMES.containerd as string);
  }
  return new Set(
    Object.entries(CRI_RUNTIME_NAMES)
      .filter(([, name]) => named.has(name))
      .map(([component]) => component),
  );
}
