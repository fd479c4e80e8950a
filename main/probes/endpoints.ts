/**
 * CRI endpoints on the node: the well-known sockets (docs/knowledge/kubelet-and-cri.md#kubeadm-and-several-cri-sockets, kubeadm's list), the
 * runtimes' configured addresses, the kubelet's and crictl's endpoints, Windows pipes.
 */
import type { Fact } from '../../shared/model/fact';
import type {
  ContainerdFacts,
  CrictlFacts,
  CrioFacts,
  EndpointFact,
  KubeletFacts,
} from '../../shared/model/snapshot';
import type { ProbeContext } from './context';
import { endpointKey, endpointToPath, normalizeEndpoint } from '../conventions/endpoint';

export const WELL_KNOWN_LINUX_ENDPOINTS: { endpoint: string; runtime: EndpointFact['runtime'] }[] =
  [
    { endpoint: 'unix:///run/containerd/containerd.sock', runtime: 'containerd' },
    { endpoint: 'unix:///var/run/crio/crio.sock', runtime: 'crio' },
    { endpoint: 'unix:///var/run/cri-dockerd.sock', runtime: 'cri-dockerd' },
    { endpoint: 'unix:///var/run/dockershim.sock', runtime: 'dockershim' },
    { endpoint: 'unix:///run/k3s/containerd/containerd.sock', runtime: 'k3s' },
  ];

export const WELL_KNOWN_WINDOWS_ENDPOINTS: {
  endpoint: string;
  runtime: EndpointFact['runtime'];
}[] = [
  { endpoint: 'npipe:////./pipe/containerd-containerd', runtime: 'containerd' },
  { endpoint: 'npipe:////./pipe/cri-dockerd', runtime: 'cri-dockerd' },
  { endpoint: 'npipe:////./pipe/dockershim', runtime: 'dockershim' },
];

function guessRuntime(endpoint: string): EndpointFact['runtime'] {
  const p = endpoint.toLowerCase();
  if (p.includes('k3s')) return 'k3s';
  if (p.includes('containerd')) return 'containerd';
  if (p.includes('crio')) return 'crio';
  if (p.includes('cri-dockerd')) return 'cri-dockerd';
  if (p.includes('dockershim')) return 'dockershim';
  return 'unknown';
}

export async function probeEndpoints(
  ctx: ProbeContext,
  inputs: {
    containerd: Fact<ContainerdFacts | null>;
    crio: Fact<CrioFacts | null>;
    kubelet: Fact<KubeletFacts | null>;
    crictl: Fact<CrictlFacts | null>;
    pipes: Fact<string[]> | undefined;
  },
): Promise<EndpointFact[]> {
  const wanted = new Map<string, { endpoint: string; runtime: EndpointFact['runtime'] }>();
  const add = (endpoint: string, runtime?: EndpointFact['runtime']): void => {
    const n = normalizeEndpoint(endpoint);
    const key = endpointKey(n);
    if (!wanted.has(key)) wanted.set(key, { endpoint: n, runtime: runtime ?? guessRuntime(n) });
  };
  for (const w of ctx.os === 'windows' ? WELL_KNOWN_WINDOWS_ENDPOINTS : WELL_KNOWN_LINUX_ENDPOINTS)
    add(w.endpoint, w.runtime);
  if (inputs.containerd.known && inputs.containerd.value) {
    add(
      inputs.containerd.value.address.value,
      inputs.containerd.value.flavor === 'containerd'
        ? 'containerd'
        : inputs.containerd.value.flavor,
    );
  }
  if (inputs.crio.known && inputs.crio.value) add(inputs.crio.value.address.value, 'crio');
  if (inputs.kubelet.known && inputs.kubelet.value?.endpoint)
    add(inputs.kubelet.value.endpoint.value);
  if (inputs.crictl.known && inputs.crictl.value?.runtimeEndpoint)
    add(inputs.crictl.value.runtimeEndpoint.value);

  const out: EndpointFact[] = [];
  for (const { endpoint, runtime } of wanted.values()) {
    const { kind, path } = endpointToPath(endpoint);
    if (kind === 'npipe') {
      // Pipes are listed, never opened: opening one consumes a server instance (docs/knowledge/windows-node.md#node-powershell).
      const pipes = inputs.pipes;
      const state: EndpointFact['state'] =
        !pipes || !pipes.known
          ? 'unknown'
          : pipes.value.some((p) => p.toLowerCase() === path.toLowerCase())
            ? 'present'
            : 'missing';
      out.push({ endpoint, runtime, state });
      continue;
    }
    if (kind !== 'unix') {
      out.push({ endpoint, runtime, state: 'unknown' });
      continue;
    }
    const st = await ctx.stat(path);
    const state: EndpointFact['state'] = st.ok
      ? st.type === 'socket'
        ? 'present'
        : 'not-a-socket'
      : st.error === 'ENOENT'
        ? 'missing'
        : 'unknown';
    out.push({ endpoint, runtime, state });
  }
  return out;
}
