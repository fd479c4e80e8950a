// Shapes of what the CRI client returns. `CriEntry` is exactly one element of the bundle
// manifest's `cri` list (docs/bundle-format.md), so a live probe and a recorded bundle
// feed the rules the same data.

import type { CriCondition, CriEntry, CriSandbox } from '../../shared/model/cri';

// The entry shape is owned by shared/model (the renderer reads it too); these names are views of it
// so the client cannot drift from the contract.
export type { CriCondition, CriEntry, CriSandbox };

export type CriApi = NonNullable<CriEntry['api']>;
export type CriVersion = NonNullable<CriEntry['version']>;
/** Verbose Status. In `info`, containerd's `config`/`cniconfig`/`golang` values are JSON text and
 * `lastCNILoadStatus*` values are plain text ("OK" or the go-cni error). */
export type CriStatus = NonNullable<CriEntry['status']>;
/**
 * A failed call. `code` is the gRPC status code: 4 DEADLINE_EXCEEDED (nothing answered in time),
 * 12 UNIMPLEMENTED (CRI service not served), 14 UNAVAILABLE (no socket / nobody listening /
 * named pipe on a non-Windows host), 3 INVALID_ARGUMENT (the endpoint string itself is unusable).
 * `message` is the status detail without the "14 UNAVAILABLE: " prefix.
 * The client fills `CriSandbox.createdAt` as ISO-8601 UTC from CRI's nanoseconds ("" for 0).
 */
export type CriError = NonNullable<CriEntry['error']>;

export interface CriPodSandboxStatus extends CriSandbox {
  /** Primary pod IP from PodSandboxStatus.network.ip; "" when the runtime has none. */
  ip: string;
  additionalIps: string[];
}

/** The part of CRI PodSandboxConfig the lab sets (camelCase, as proto/load.ts encodes it). */
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
