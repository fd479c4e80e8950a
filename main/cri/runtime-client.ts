// createCriClient: a small typed CRI client for the lab and for repairs' verification steps
// (run a throw-away sandbox, read its IP, clean up). Unlike the probe it throws on failure.
import { openCriChannel, type RuntimeMethod } from './channel';
import {
  decodePodSandboxStatus,
  decodeRunPodSandbox,
  decodeSandboxList,
  decodeStatus,
  decodeVersion,
} from './decode';
import type {
  CriApi,
  CriPodSandboxStatus,
  CriSandbox,
  CriStatus,
  CriVersion,
  PodSandboxConfig,
} from './types';

export interface CriClientOptions {
  /** Deadline of each call, in ms. Default 10000: RunPodSandbox creates a container and a netns. */
  deadlineMs?: number;
  /** Default 'runtime.v1'. */
  api?: CriApi;
}

export interface CriClient {
  readonly endpoint: string;
  readonly api: CriApi;
  version(): Promise<CriVersion>;
  status(verbose?: boolean): Promise<CriStatus>;
  listPodSandbox(): Promise<CriSandbox[]>;
  runPodSandbox(config: PodSandboxConfig, runtimeHandler?: string): Promise<string>;
  stopPodSandbox(id: string): Promise<void>;
  removePodSandbox(id: string): Promise<void>;
  /** Includes the sandbox's pod IP (`ip`). */
  podSandboxStatus(id: string): Promise<CriPodSandboxStatus>;
  close(): void;
}

export class CriCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly details: string,
  ) {
    super(`${method}: code ${code}: ${details}`);
    this.name = 'CriCallError';
  }
}

export function createCriClient(endpoint: string, opts: CriClientOptions = {}): CriClient {
  const api = opts.api ?? 'runtime.v1';
  const deadlineMs = opts.deadlineMs ?? 10_000;
  const channel = openCriChannel(endpoint);

  const call = async (method: RuntimeMethod, request: object): Promise<object> => {
    const r = await channel.call(api, method, request, new Date(Date.now() + deadlineMs));
    if (!r.ok) throw new CriCallError(method, r.error.code, r.error.message);
    return r.value;
  };

  return {
    endpoint,
    api,
    version: async () => decodeVersion(await call('Version', { version: '0.1.0' })),
    status: async (verbose = true) => decodeStatus(await call('Status', { verbose })),
    listPodSandbox: async () => decodeSandboxList(await call('ListPodSandbox', {})),
    runPodSandbox: async (config, runtimeHandler = '') =>
      decodeRunPodSandbox(await call('RunPodSandbox', { config, runtimeHandler })),
    stopPodSandbox: async (id) => {
      await call('StopPodSandbox', { podSandboxId: id });
    },
    removePodSandbox: async (id) => {
      await call('RemovePodSandbox', { podSandboxId: id });
    },
    podSandboxStatus: async (id) =>
      decodePodSandboxStatus(await call('PodSandboxStatus', { podSandboxId: id })),
    close: () => channel.close(),
  };
}
