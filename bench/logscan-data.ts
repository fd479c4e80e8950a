// Synthetic node logs for the log-scan benchmark: journald-style kubelet (klog) and containerd
// (logrus) lines with varying timestamps, pods and ids, and a small share of real error lines
// taken from the signature catalog's real examples.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { LogSignature } from '../main/logs/types';

export interface SyntheticLog {
  bytes: number;
  lines: number;
  /** Lines built from a signature example (each matches at least one pattern). */
  errorLines: number;
}

/** Deterministic PRNG so every run scans the same file. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const PODS = [
  'coredns-5d78c9869d-7xk2p',
  'web-7d9f8b6c5-xyz12',
  'kube-proxy-q8w4n',
  'calico-node-8d7sj',
  'metrics-server-6d94bc8694-l2v9m',
  'nginx-ingress-controller-5f7b8',
];
const NAMESPACES = ['kube-system', 'default', 'ingress-nginx', 'monitoring'];
const GO_FILES = [
  'kubelet.go:2345',
  'prober.go:107',
  'reconciler_common.go:258',
  'pod_workers.go:1301',
  'kuberuntime_manager.go:1054',
  'status_manager.go:877',
];

export function writeSyntheticLog(
  file: string,
  targetBytes: number,
  signatures: readonly LogSignature[],
  errorRate = 0.001,
): SyntheticLog {
  const rand = prng(20241202);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const hex = (n: number) => {
    let s = '';
    while (s.length < n)
      s += Math.floor(rand() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, n);
  };
  const examples = signatures.map((s) => s.example).filter((e): e is string => e !== undefined);
  let seconds = 0;
  const stamp = () => {
    seconds += rand() < 0.3 ? 1 : 0;
    const h = String(9 + (Math.floor(seconds / 3600) % 15)).padStart(2, '0');
    const m = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
    const s = String(seconds % 60).padStart(2, '0');
    return { clock: `${h}:${m}:${s}`, micros: String(Math.floor(rand() * 1e6)).padStart(6, '0') };
  };
  const kubelet = (level: string, body: string) => {
    const t = stamp();
    return `Dec 02 ${t.clock} node-1 kubelet[1234]: ${level}1202 ${t.clock}.${t.micros}    1234 ${pick(GO_FILES)}] ${body}`;
  };
  const containerd = (level: string, body: string) => {
    const t = stamp();
    return `Dec 02 ${t.clock} node-1 containerd[812]: time="2024-12-02T${t.clock}.${t.micros}123Z" level=${level} msg="${body}"`;
  };
  const benign: (() => string)[] = [
    () =>
      kubelet(
        'I',
        `"SyncLoop (PLEG): event for pod" pod="${pick(NAMESPACES)}/${pick(PODS)}" event={"ID":"${hex(8)}-${hex(4)}-${hex(4)}","Type":"ContainerStarted","Data":"${hex(64)}"}`,
      ),
    () =>
      kubelet(
        'I',
        `"operationExecutor.VerifyControllerAttachedVolume started for volume \\"kube-api-access-${hex(5)}\\"" pod="${pick(NAMESPACES)}/${pick(PODS)}"`,
      ),
    () =>
      kubelet(
        'I',
        `"Probe failed" probeType="Readiness" pod="${pick(NAMESPACES)}/${pick(PODS)}" podUID=${hex(8)} containerName="app" probeResult=failure output="HTTP probe failed with statuscode: 503"`,
      ),
    () =>
      kubelet(
        'E',
        `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"app\\" with CrashLoopBackOff: \\"back-off 5m0s restarting failed container=app pod=${pick(PODS)}\\"" pod="${pick(NAMESPACES)}/${pick(PODS)}"`,
      ),
    () => kubelet('I', `"RemoveContainer" containerID="${hex(64)}"`),
    () => containerd('info', `StartContainer for \\"${hex(64)}\\" returns successfully`),
    () =>
      containerd(
        'info',
        `RunPodSandbox for &PodSandboxMetadata{Name:${pick(PODS)},Uid:${hex(8)},Namespace:${pick(NAMESPACES)},Attempt:0,} returns sandbox id \\"${hex(64)}\\"`,
      ),
    () =>
      containerd(
        'info',
        `ImageCreate event name:\\"registry.k8s.io/pause:3.10\\" labels:{key:\\"io.cri-containerd.image\\" value:\\"managed\\"}`,
      ),
    () => containerd('info', `shim disconnected" id=${hex(64)} namespace=k8s.io`),
    () => containerd('info', `TearDown network for sandbox \\"${hex(64)}\\" successfully`),
  ];

  const fd = openSync(file, 'w');
  const batch: string[] = [];
  let batchBytes = 0;
  let bytes = 0;
  let lines = 0;
  let errorLines = 0;
  try {
    while (bytes < targetBytes) {
      let line: string;
      if (examples.length > 0 && rand() < errorRate) {
        line = containerd('error', pick(examples).replace(/"/g, '\\"'));
        errorLines++;
      } else {
        line = pick(benign)();
      }
      line += '\n';
      const n = Buffer.byteLength(line);
      batch.push(line);
      batchBytes += n;
      bytes += n;
      lines++;
      if (batchBytes >= 4 << 20) {
        writeSync(fd, batch.join(''));
        batch.length = 0;
        batchBytes = 0;
      }
    }
    if (batch.length > 0) writeSync(fd, batch.join(''));
  } finally {
    closeSync(fd);
  }
  return { bytes, lines, errorLines };
}
