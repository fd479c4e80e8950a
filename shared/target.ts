/**
 * Which node a scan, a collection or a repair is about — a *target* — and how its one-line form is
 * parsed. A target string comes from a user, a remembered setting or a browser request, so it is
 * untrusted: it is parsed into typed fields here and never handed to a shell; transports put the
 * fields into argument vectors, after `--` where the tool allows it, and refuse anything that could
 * read as an option (a leading `-`), a control character or an empty name.
 *
 *   local                        this machine
 *   bundle:PATH                  a recorded node bundle (folder or .tar.gz)
 *   root:DIR                     a node disk mounted at DIR
 *   container:ENGINE/NAME        a node container (kind, minikube, k3d, …) of docker|podman|nerdctl
 *   ssh:[USER@]HOST[:PORT]       a Linux node over ssh (the user's ssh config, agent, known_hosts)
 *   kubectl:[CONTEXT/]NODE       a node through a short-lived debug pod (a HostProcess pod on Windows)
 *   winrm:[USER@]HOST[:PORT]     a Windows node through PowerShell remoting over WinRM
 *   pssession:[USER@]HOST[:PORT] a Windows node through PowerShell remoting over SSH
 *
 * Browser-safe (no node: imports): the renderer validates what the user types with the same code.
 */

export const CONTAINER_ENGINES = ['docker', 'podman', 'nerdctl'] as const;
export type ContainerEngine = (typeof CONTAINER_ENGINES)[number];

export type Target =
  | { kind: 'local' }
  | { kind: 'bundle'; path: string }
  | { kind: 'root'; dir: string }
  | { kind: 'container'; engine: ContainerEngine; name: string }
  | { kind: 'ssh'; host: string; user?: string; port?: number }
  | { kind: 'kubectl'; node: string; context?: string }
  | { kind: 'winrm'; host: string; user?: string; port?: number }
  | { kind: 'pssession'; host: string; user?: string; port?: number };

export type TargetKind = Target['kind'];

/** Windows nodes reached through PowerShell remoting (main/remote/windows). */
export type RemotingTarget = Extract<Target, { kind: 'winrm' | 'pssession' }>;

/** Targets reached through a transport (a program run on the node), not read on this machine. */
export type RemoteTarget = Extract<Target, { kind: 'container' | 'ssh' | 'kubectl' }>;

export type TargetParse = { ok: true; target: Target } | { ok: false; error: string };

const MAX_TARGET = 1024;
// C0/C1 controls and DEL: they would rewrite a terminal line or hide part of a name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Container names and IDs as docker/podman accept them. */
const CONTAINER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,253}$/;
/** A user name ssh will pass on (POSIX portable names plus what sssd/AD setups use). */
const SSH_USER = /^[A-Za-z0-9_][A-Za-z0-9_.@\\-]{0,63}$/;
/** A host name, an ssh_config alias or an IPv4 address. */
const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})$/;
/** An IPv6 literal as written between brackets. */
const IPV6 = /^[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9_.-]{1,32})?$/;
/** A Kubernetes node name: an RFC 1123 subdomain. */
const NODE_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;
/** kubeconfig context names are free text in practice (EKS ARNs have ':' and '/'). */
const CONTEXT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:@/+=-]{0,252}$/;

const fail = (error: string): TargetParse => ({ ok: false, error });

/** Quotes untrusted text for an error message: printable, bounded. */
function shown(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}

export function parseTarget(raw: string): TargetParse {
  if (typeof raw !== 'string' || raw.length === 0) return fail('the target is empty');
  if (raw.length > MAX_TARGET) return fail(`the target is longer than ${MAX_TARGET} characters`);
  if (CONTROL.test(raw)) return fail(`the target ${shown(raw)} contains a control character`);
  if (raw === 'local') return { ok: true, target: { kind: 'local' } };
  const colon = raw.indexOf(':');
  if (colon < 0)
    return fail(
      `${shown(raw)} is not a target; use local, bundle:PATH, root:DIR, container:ENGINE/NAME, ssh:[USER@]HOST[:PORT], kubectl:[CONTEXT/]NODE, winrm:[USER@]HOST[:PORT] or pssession:[USER@]HOST[:PORT]`,
    );
  const scheme = raw.slice(0, colon);
  const rest = raw.slice(colon + 1);
  switch (scheme) {
    case 'bundle':
      return rest === ''
        ? fail('bundle: needs a path (bundle:/path/to/node.tar.gz)')
        : { ok: true, target: { kind: 'bundle', path: rest } };
    case 'root':
      return rest === ''
        ? fail('root: needs a directory (root:/mnt/node)')
        : { ok: true, target: { kind: 'root', dir: rest } };
    case 'container':
      return parseContainer(rest);
    case 'ssh':
      return parseSsh(rest);
    case 'kubectl':
      return parseKubectl(rest);
    case 'winrm':
    case 'pssession': {
      // The same [USER@]HOST[:PORT] grammar as ssh:.
      const r = parseSsh(rest);
      if (!r.ok) return fail(r.error.replace(/^ssh:/, `${scheme}:`));
      if (r.target.kind !== 'ssh') return r;
      const { host, user, port } = r.target;
      return {
        ok: true,
        target: {
          kind: scheme === 'winrm' ? 'winrm' : 'pssession',
          host,
          ...(user !== undefined && { user }),
          ...(port !== undefined && { port }),
        },
      };
    }
    default:
      return fail(
        `unknown target kind ${shown(scheme)}; use local, bundle, root, container, ssh, kubectl, winrm or pssession`,
      );
  }
}

function parseContainer(rest: string): TargetParse {
  const slash = rest.indexOf('/');
  if (slash < 0) return fail('container: needs ENGINE/NAME (container:docker/kind-control-plane)');
  const engine = rest.slice(0, slash);
  const name = rest.slice(slash + 1);
  if (!(CONTAINER_ENGINES as readonly string[]).includes(engine))
    return fail(`container engine ${shown(engine)} is not one of ${CONTAINER_ENGINES.join(', ')}`);
  if (!CONTAINER_NAME.test(name)) return fail(`${shown(name)} is not a container name or ID`);
  return { ok: true, target: { kind: 'container', engine: engine as ContainerEngine, name } };
}

function parseSsh(rest: string): TargetParse {
  let s = rest;
  let user: string | undefined;
  const at = s.lastIndexOf('@');
  if (at >= 0) {
    user = s.slice(0, at);
    s = s.slice(at + 1);
    if (!SSH_USER.test(user)) return fail(`${shown(user)} is not a user name ssh accepts`);
  }
  let host: string;
  let portText: string | undefined;
  if (s.startsWith('[')) {
    const close = s.indexOf(']');
    if (close < 0) return fail(`${shown(s)}: an IPv6 address needs its closing ]`);
    host = s.slice(1, close);
    const after = s.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return fail(`${shown(s)}: unexpected text after ]`);
    if (after !== '') portText = after.slice(1);
    if (!IPV6.test(host)) return fail(`${shown(host)} is not an IPv6 address`);
  } else {
    const c = s.lastIndexOf(':');
    host = c >= 0 ? s.slice(0, c) : s;
    if (c >= 0) portText = s.slice(c + 1);
    if (host === '') return fail('ssh: needs a host (ssh:node1, ssh:admin@10.0.0.5:2222)');
    if (!HOST_NAME.test(host)) return fail(`${shown(host)} is not a host name or address`);
  }
  const target: Extract<Target, { kind: 'ssh' }> = { kind: 'ssh', host };
  if (user !== undefined) target.user = user;
  if (portText !== undefined) {
    if (!/^[0-9]{1,5}$/.test(portText)) return fail(`${shown(portText)} is not a port number`);
    const port = Number(portText);
    if (port < 1 || port > 65535) return fail(`port ${port} is outside 1–65535`);
    target.port = port;
  }
  return { ok: true, target };
}

function parseKubectl(rest: string): TargetParse {
  // Context names may contain '/', node names never do: the node is after the last '/'.
  const slash = rest.lastIndexOf('/');
  const node = slash >= 0 ? rest.slice(slash + 1) : rest;
  const context = slash >= 0 ? rest.slice(0, slash) : undefined;
  if (!NODE_NAME.test(node))
    return fail(`${shown(node)} is not a Kubernetes node name (lower-case RFC 1123)`);
  const target: Extract<Target, { kind: 'kubectl' }> = { kind: 'kubectl', node };
  if (context !== undefined) {
    if (!CONTEXT_NAME.test(context)) return fail(`${shown(context)} is not a kubeconfig context`);
    target.context = context;
  }
  return { ok: true, target };
}

/** The one-line form; parseTarget(formatTarget(t)) gives t back. */
export function formatTarget(t: Target): string {
  switch (t.kind) {
    case 'local':
      return 'local';
    case 'bundle':
      return `bundle:${t.path}`;
    case 'root':
      return `root:${t.dir}`;
    case 'container':
      return `container:${t.engine}/${t.name}`;
    case 'ssh':
    case 'winrm':
    case 'pssession': {
      const host = t.host.includes(':') ? `[${t.host}]` : t.host;
      return `${t.kind}:${t.user !== undefined ? `${t.user}@` : ''}${host}${t.port !== undefined ? `:${t.port}` : ''}`;
    }
    case 'kubectl':
      return `kubectl:${t.context !== undefined ? `${t.context}/` : ''}${t.node}`;
  }
}

/**
 * The node's own name where a target names it: a node container's name, a Kubernetes node, an
 * ssh host. What the UI, an exported bundle's file name and the repair journal call the node.
 */
export function nodeNameOf(t: RemoteTarget | RemotingTarget): string {
  return t.kind === 'container' ? t.name : t.kind === 'kubectl' ? t.node : t.host;
}

export function isRemoteTarget(t: Target): t is RemoteTarget {
  return t.kind === 'container' || t.kind === 'ssh' || t.kind === 'kubectl';
}

/** How a report says where its facts came from. */
export interface TargetInfo {
  /** The target in its one-line form. */
  target: string;
  /** How the node was reached: `this machine`, `podman exec`, `ssh`, `kubectl debug pod`, … */
  transport: string;
  /** Where the runtime's CRI answers came from (`grpc`, `grpc over socat`, `crictl`), or why none. */
  cri?: string;
  /** Program runs on the node (remote targets): one per collection round. */
  roundTrips?: number;
}
