/**
 * The runtime's CRI answers as the node's own `crictl` (or `k3s crictl`) gives them — the route
 * for nodes without socat to relay the socket through. crictl prints the same messages our gRPC
 * client decodes: `version` as "Key:  value" lines (every crictl version), `info -o json` as the
 * verbose Status (`status` = RuntimeStatus, every other key one of the runtime's info values, its
 * JSON text re-indented by crictl), `pods -o json` as ListPodSandboxResponse in protobuf JSON.
 * They become the same CriEntry a gRPC probe makes; crictl's output is node data, so anything
 * malformed is an error entry, never a guess.
 */
import type { CriEntry } from '../../shared/model/cri';
import { decodeSandboxList, decodeStatus } from '../cri/decode';
import { blockOf, type AgentAnswer } from './agent-protocol';

/** gRPC status names as crictl prints them ("rpc error: code = Unimplemented desc = …"). */
const GRPC_CODES: Record<string, number> = {
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
};

function failure(endpoint: string, text: string, exit: number | undefined): CriEntry {
  const named = /code = ([A-Za-z]+)/.exec(text)?.[1];
  const code = named !== undefined ? (GRPC_CODES[named] ?? 2) : exit === 124 ? 4 : 14;
  const message = text.trim().split('\n').slice(-3).join(' ').slice(0, 500);
  return {
    endpoint,
    api: null,
    error: { code, message: message || `crictl exited ${exit ?? '?'}` },
  };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `crictl version`: "Version:  0.1.0\nRuntimeName:  containerd\n…". */
function parseVersion(text: string): NonNullable<CriEntry['version']> | undefined {
  const field = (k: string): string | undefined =>
    new RegExp(`^${k}:\\s*(\\S.*?)\\s*$`, 'm').exec(text)?.[1];
  const runtimeApiVersion = field('RuntimeApiVersion');
  if (runtimeApiVersion === undefined) return undefined;
  return {
    version: field('Version') ?? '',
    runtimeName: field('RuntimeName') ?? '',
    runtimeVersion: field('RuntimeVersion') ?? '',
    runtimeApiVersion,
  };
}

/** The agent's `crictl` answer for one endpoint → the CriEntry a gRPC probe would have made. */
export function crictlEntry(endpoint: string, a: AgentAnswer): CriEntry {
  const [vExit, iExit, pExit] = a.values;
  const [vOut, iOut, pOut] = a.chunks.map((_, i) => (blockOf(a, i) as Buffer).toString('utf8'));
  if (vExit !== 0 || vOut === undefined) return failure(endpoint, vOut ?? '', vExit);
  const version = parseVersion(vOut);
  if (!version) return failure(endpoint, 'crictl version gave no RuntimeApiVersion', vExit);
  const api =
    version.runtimeApiVersion === 'v1alpha2'
      ? 'runtime.v1alpha2'
      : version.runtimeApiVersion === 'v1'
        ? 'runtime.v1'
        : null;
  const entry: CriEntry = { endpoint, api, version, error: null };
  // Like the gRPC probe: what was answered is kept, the first failing call is the error.
  const failed = (text: string, exit: number | undefined): CriEntry => ({
    ...entry,
    error: failure(endpoint, text, exit).error,
  });
  if (iExit !== 0 || iOut === undefined) return failed(iOut ?? '', iExit);
  const info = parseJson(iOut);
  if (!info) return failed('crictl info did not print JSON', 2);
  // Every key but `status` is one of the runtime's verbose info values, as JSON text.
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(info)) if (k !== 'status') values[k] = JSON.stringify(v);
  entry.status = { ...decodeStatus({ status: info.status }), info: values };
  if (pExit !== 0 || pOut === undefined) return failed(pOut ?? '', pExit);
  const pods = parseJson(pOut);
  if (!pods) return failed('crictl pods did not print JSON', 2);
  entry.sandboxes = decodeSandboxList(pods);
  return entry;
}
