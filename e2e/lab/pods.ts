// The pod sandbox the lab asks containerd for: what kubelet sends for a plain pod, minus
// everything a pause-only sandbox does not need.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  CriCallError,
  type CriClient,
  type CriError,
  type PodSandboxConfig,
} from '../../main/cri/client';
import type { LabPaths } from './paths';

export const LAB_NAMESPACE = 'cni-doctor-lab';

export type RunPodResult =
  | { ok: true; ip: string; sandboxId: string; ms: number }
  | { ok: false; error: CriError; sandboxId?: string; ms: number };

export function podSandboxConfig(p: LabPaths, name: string): PodSandboxConfig {
  return {
    metadata: { name, uid: randomUUID(), namespace: LAB_NAMESPACE, attempt: 0 },
    hostname: name,
    logDirectory: join(p.podLogDir, name),
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': LAB_NAMESPACE },
    linux: {
      // A lab-owned parent makes the sandbox cgroups easy to find and remove at teardown.
      cgroupParent: p.cgroupParent,
      securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
    },
  };
}

export async function runPod(cri: CriClient, p: LabPaths, name: string): Promise<RunPodResult> {
  const started = performance.now();
  try {
    const sandboxId = await cri.runPodSandbox(podSandboxConfig(p, name));
    const status = await cri.podSandboxStatus(sandboxId);
    return { ok: true, ip: status.ip, sandboxId, ms: performance.now() - started };
  } catch (e) {
    if (!(e instanceof CriCallError)) throw e;
    // containerd names the half-made sandbox in the error: 'failed to setup network for sandbox "<id>"'
    const sandboxId = /sandbox "([0-9a-f]{64})"/.exec(e.details)?.[1];
    const error = { code: e.code, message: e.details };
    return sandboxId
      ? { ok: false, error, sandboxId, ms: performance.now() - started }
      : { ok: false, error, ms: performance.now() - started };
  }
}
