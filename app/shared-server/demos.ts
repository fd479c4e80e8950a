/**
 * The built-in demo bundles (assets/demo/<id>/): recorded nodes anyone can open without a cluster.
 * Ids map to folder names through this table only; a demo id is never joined to a path unchecked.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { DemoInfo } from '../../shared/api';

export const DEMOS: readonly DemoInfo[] = [
  {
    id: 'windows-antrea-containerd',
    title: 'Windows node: Antrea v0.12 on containerd',
    description:
      'Kubernetes v1.19.1 moved from Docker to containerd. Antrea v0.12 cannot handle containerd\'s network namespaces: the logs show "unexpected netNS" from before a NAT config was added. That 0-containerd-nat.json now sorts before 10-antrea.conflist, so containerd wires new pods to NAT instead of Antrea.',
    os: 'windows',
  },
  {
    id: 'minikube-conflict',
    title: 'minikube: four CNI configs, the wrong one wins',
    description:
      'containerd, CRI-O and podman each left a default config in /etc/cni/net.d. 10-containerd-net.conflist sorts before 10-kindnet.conflist, so pods get 10.88.0.0/16 addresses from a local bridge instead of kindnet.',
    os: 'linux',
  },
  {
    id: 'healthy-node',
    title: 'A healthy node (Calico on containerd)',
    description:
      'What a node with nothing wrong looks like: one CNI config, containerd ready, the kubelet pointed at the right socket.',
    os: 'linux',
  },
];

/** The folder of a demo, or undefined when the id is unknown or its folder is missing. */
export function demoPath(demosDir: string | undefined, demoId: string): string | undefined {
  if (!demosDir || !DEMOS.some((d) => d.id === demoId)) return undefined;
  const p = path.join(demosDir, demoId);
  return existsSync(path.join(p, 'manifest.json')) ? p : undefined;
}

/** First candidate folder that holds at least one demo bundle. */
export function findDemosDir(candidates: readonly string[]): string | undefined {
  return candidates.find((dir) =>
    DEMOS.some((d) => existsSync(path.join(dir, d.id, 'manifest.json'))),
  );
}
