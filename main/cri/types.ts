// Shapes of what the CRI client returns. `CriEntry` is exactly one element of the bundle
// manifest's `cri` list (shared/spec/bundle-format.md), so a live probe and a recorded bundle
// feed the rules the same data.

export type CriApi = 'runtime.v1' | 'runtime.v1alpha2';

export interface CriVersion {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface CriCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}

export interface CriStatus {
  conditions: CriCondition[];
  /** Verbose info map as sent: containerd's `config`/`cniconfig`/`golang` values are JSON text,
   * `lastCNILoadStatus*` values are plain text ("OK" or the go-cni error). */
  info: Record<string, string>;
}

export interface CriSandbox {
  id: string;
  name: string;
  namespace: string;
  /** `SANDBOX_READY` | `SANDBOX_NOTREADY` (or the raw enum number of a newer runtime). */
  state: string;
  /** ISO-8601 UTC time from the CRI nanosecond timestamp; "" when the runtime sent 0. */
  createdAt: string;
}

/**
 * A failed call. `code` is the gRPC status code: 4 DEADLINE_EXCEEDED (nothing answered in time),
 * 12 UNIMPLEMENTED (CRI service not served), 14 UNAVAILABLE (no socket / nobody listening /
 * named pipe on a non-Windows host), 3 INVALID_ARGUMENT (the endpoint string itself is unusable).
 * `message` is the status detail without the "14 UNAVAILABLE: " prefix.
 */
export interface CriError {
  code: number;
  message: string;
}

export interface CriEntry {
  endpoint: string;
  api: CriApi | null;
  version?: CriVersion;
  status?: CriStatus;
  sandboxes?: CriSandbox[];
  error: CriError | null;
}

export interface CriPodSandboxStatus extends CriSandbox {
  /** Primary pod IP from PodSandboxStatus.network.ip; "" when the runtime has none. */
  ip: string;
  additionalIps: string[];
}

/** The part of CRI PodSandboxConfig the lab sets (camelCase, as @grpc/proto-loader expects). */
export interface PodSandboxConfig {
  metadata: { name: string; uid: string; namespace: string; attempt?: number };
  hostname?: string;
  logDirectory?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  linux?: {
    cgroupParent?: string;
    securityContext?: {
      namespaceOptions?: { network?: NamespaceMode; pid?: NamespaceMode; ipc?: NamespaceMode };
      privileged?: boolean;
    };
    sysctls?: Record<string, string>;
  };
}

export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';
