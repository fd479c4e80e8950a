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
  error: null | { code: number; message: string };
}
