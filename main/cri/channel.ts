// One gRPC channel to one CRI endpoint, with unary calls that always carry a deadline and
// resolve (never reject) to either the decoded answer or a CriError.
import {
  Client,
  credentials,
  Metadata,
  type MethodDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { criRuntimeService } from './proto/load';
import { toDialTarget } from './endpoint';
import type { CriApi, CriError } from './types';

export type RuntimeMethod =
  | 'Version'
  | 'Status'
  | 'ListPodSandbox'
  | 'PodSandboxStatus'
  | 'RunPodSandbox'
  | 'StopPodSandbox'
  | 'RemovePodSandbox';

export type CallResult = { ok: true; value: object } | { ok: false; error: CriError };

export interface CriChannel {
  /** `deadline` is absolute, so several calls can share one budget. */
  call(api: CriApi, method: RuntimeMethod, request: object, deadline: Date): Promise<CallResult>;
  /** A call of another service on the same socket (containerd's Version, containerd-version.ts). */
  callMethod(
    def: MethodDefinition<object, object>,
    request: object,
    deadline: Date,
  ): Promise<CallResult>;
  close(): void;
}

const DEADLINE_EXCEEDED = 4;

const CHANNEL_OPTIONS = {
  // containerd's verbose Status carries its whole CRI config and CNI config as JSON; a node with
  // many sandboxes lists many; 4 MiB (the default) is close enough to matter.
  'grpc.max_receive_message_length': 32 * 1024 * 1024,
  // A diagnostic probe must not be retried behind our back: one attempt, one answer.
  'grpc.enable_retries': 0,
};

export function openCriChannel(endpoint: string): CriChannel {
  const dial = toDialTarget(endpoint);
  if (!dial.ok) {
    const error: CriError = { code: dial.code, message: dial.message };
    const failed = (): Promise<CallResult> => Promise.resolve({ ok: false, error });
    return { call: failed, callMethod: failed, close: () => undefined };
  }
  const client = new Client(dial.target, credentials.createInsecure(), CHANNEL_OPTIONS);
  let closed = false;
  const callMethod = (
    def: MethodDefinition<object, object>,
    request: object,
    deadline: Date,
  ): Promise<CallResult> => {
    if (closed)
      return Promise.resolve({ ok: false, error: { code: 1, message: 'CRI channel closed' } });
    if (deadline.getTime() <= Date.now()) {
      const name = def.path.slice(def.path.lastIndexOf('/') + 1);
      return Promise.resolve({
        ok: false,
        error: { code: DEADLINE_EXCEEDED, message: 'no time left for ' + name },
      });
    }
    return new Promise<CallResult>((resolve) => {
      client.makeUnaryRequest(
        def.path,
        def.requestSerialize,
        def.responseDeserialize,
        request,
        new Metadata(),
        { deadline },
        (err: ServiceError | null, value?: object) => {
          if (err) resolve({ ok: false, error: toCriError(err) });
          else resolve({ ok: true, value: value ?? {} });
        },
      );
    });
  };
  return {
    call(api, method, request, deadline) {
      const def = criRuntimeService(api)[method];
      if (!def) throw new Error(`${api}.RuntimeService/${method} is not in the CRI proto`);
      return callMethod(def, request, deadline);
    },
    callMethod,
    close() {
      closed = true;
      client.close();
    },
  };
}

export function toCriError(err: ServiceError): CriError {
  // grpc-js appends an empty "Resolution note:" to connection errors; it only adds noise.
  const details = (err.details ?? '').replace(/\s*Resolution note:\s*$/, '').trim();
  return { code: err.code, message: details || err.message };
}
