// probeCriEndpoint: what the doctor records about one CRI endpoint (a bundle `cri` entry).
//
// One overall deadline is shared by every call of a probe, so a dead or hung runtime costs about
// `deadlineMs` in total, not once per call. The channel is always closed before returning.
import { openCriChannel, type CallResult, type CriChannel } from './channel';
import { containerdVersionMethod, type ContainerdVersion } from './containerd-version';
import { decodeSandboxList, decodeStatus, decodeVersion } from './decode';
import { criRuntimeService } from './proto/load';
import type { CriApi, CriEntry, CriError } from './types';

export {
  createCriClient,
  CriCallError,
  type CriClient,
  type CriClientOptions,
} from './runtime-client';
export type * from './types';

export interface ProbeOptions {
  /** Budget for the whole probe of this endpoint, in ms. Default 3000. */
  deadlineMs?: number;
  /** Also call ListPodSandbox. Default false. */
  listSandboxes?: boolean;
  /** Also ask containerd's own Version service (containerd-version.ts). Default false. */
  containerdVersion?: boolean;
}

const UNIMPLEMENTED = 12;
// kubelet sends its CRI API version here; runtimes ignore the value.
const KUBELET_API_VERSION = '0.1.0';

/**
 * Builds the runtime.v1 definitions now (protobufjs's parse and the coders it generates for the
 * three messages a probe exchanges) so that a caller with idle time — a remote scan waiting for
 * the node's first answer — does not pay it later, between the collection and the first CRI call.
 * runtime.v1alpha2 is left for the runtimes that need it.
 */
export function warmCriDefinitions(): void {
  const v1 = criRuntimeService('runtime.v1');
  for (const m of ['Version', 'Status', 'ListPodSandbox'] as const) {
    const def = v1[m];
    if (!def) continue;
    def.requestSerialize({});
    def.responseDeserialize(Buffer.alloc(0));
  }
}

export async function probeCriEndpoint(
  endpoint: string,
  opts: ProbeOptions = {},
): Promise<CriEntry> {
  const deadline = new Date(Date.now() + (opts.deadlineMs ?? 3000));
  const channel = openCriChannel(endpoint);
  try {
    // Beside CRI, not after it: the answer does not depend on CRI's, and comes in the same trip.
    const daemon = opts.containerdVersion
      ? channel.callMethod(containerdVersionMethod(), {}, deadline)
      : undefined;
    const entry = await probe(channel, endpoint, deadline, opts.listSandboxes ?? false);
    const answered = await daemon;
    if (answered?.ok) {
      const v = answered.value as ContainerdVersion;
      if (v.version) entry.containerdVersion = { version: v.version, revision: v.revision };
    }
    return entry;
  } finally {
    channel.close();
  }
}

async function probe(
  channel: CriChannel,
  endpoint: string,
  deadline: Date,
  listSandboxes: boolean,
): Promise<CriEntry> {
  // Status and ListPodSandbox of runtime.v1 go out with its Version, not one round trip after
  // another (through a remote node's relay each costs a few ms). They are read only as the
  // sequence would have: only if Version answered on runtime.v1, and in that order.
  const version = channel.call('runtime.v1', 'Version', { version: KUBELET_API_VERSION }, deadline);
  const v1 = {
    status: channel.call('runtime.v1', 'Status', { verbose: true }, deadline),
    listed: listSandboxes ? channel.call('runtime.v1', 'ListPodSandbox', {}, deadline) : undefined,
  };
  const found = await negotiate(channel, deadline, version);
  if (!found.ok) return { endpoint, api: null, error: found.error };
  const { api } = found;
  const entry: CriEntry = { endpoint, api, version: decodeVersion(found.version), error: null };

  const status = await (api === 'runtime.v1'
    ? v1.status
    : channel.call(api, 'Status', { verbose: true }, deadline));
  if (!status.ok) return { ...entry, error: status.error };
  entry.status = decodeStatus(status.value);

  if (listSandboxes) {
    const listed = await (api === 'runtime.v1' && v1.listed
      ? v1.listed
      : channel.call(api, 'ListPodSandbox', {}, deadline));
    if (!listed.ok) return { ...entry, error: listed.error };
    entry.sandboxes = decodeSandboxList(listed.value);
  }
  return entry;
}

type Negotiated = { ok: true; api: CriApi; version: object } | { ok: false; error: CriError };

/** runtime.v1 first; v1alpha2 only when v1 is not served (containerd 1.5, CRI-O < 1.20 ...). */
async function negotiate(
  channel: CriChannel,
  deadline: Date,
  v1Version: Promise<CallResult>,
): Promise<Negotiated> {
  const v1 = await v1Version;
  if (v1.ok) return { ok: true, api: 'runtime.v1', version: v1.value };
  if (v1.error.code !== UNIMPLEMENTED) return { ok: false, error: v1.error };
  const alpha = await channel.call(
    'runtime.v1alpha2',
    'Version',
    { version: KUBELET_API_VERSION },
    deadline,
  );
  if (alpha.ok) return { ok: true, api: 'runtime.v1alpha2', version: alpha.value };
  // Both unimplemented: report the v1 error, which names the service kubelet >= 1.26 needs.
  return { ok: false, error: alpha.error.code === UNIMPLEMENTED ? v1.error : alpha.error };
}
