/** One CRI endpoint as probed over gRPC: the bundle's `cri` entry (bundle-format.md). */
export interface CriCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}

export interface CriSandbox {
  id: string;
  name: string;
  namespace: string;
  state: string;
  createdAt?: string;
}

export interface CriEntry {
  endpoint: string;
  api: 'runtime.v1' | 'runtime.v1alpha2' | null;
  version?: {
    version: string;
    runtimeName: string;
    runtimeVersion: string;
    runtimeApiVersion: string;
  };
  status?: { conditions: CriCondition[]; info: Record<string, string> };
  sandboxes?: CriSandbox[];
  /**
   * containerd's own Version service (containerd.services.version.v1) on the same socket: the
   * running daemon's version, CRI plugin disabled or not. Absent when the socket does not serve
   * it (CRI-O, cri-dockerd) or it was not asked (only a remote scan asks it).
   */
  containerdVersion?: { version: string; revision: string };
  error: null | { code: number; message: string };
}
