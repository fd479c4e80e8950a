/**
 * Any node through the API server: a short-lived debug pod on that node with the host's root at
 * /host, host PID and network namespaces, privileged (what `kubectl debug node/N
 * --profile=sysadmin` makes), in a namespace the user chooses (Pod Security "restricted" and
 * "baseline" namespaces reject it: pick one labelled pod-security.kubernetes.io/enforce=privileged).
 * Programs run as `kubectl exec -i POD -- chroot /host /bin/sh -c 'exec "$@"' sh ARGV…`: the
 * node's own shell finds the node's own tools. Not `chroot /host ARGV` — a busybox image's chroot
 * runs its own applet for a bare `sh` (or `cat`, `flock`…) instead of the node's program.
 *
 * The pod is created from this explicit spec (the fields `kubectl debug --profile=sysadmin` sets),
 * not with `kubectl debug`: `--profile=sysadmin` needs kubectl ≥ 1.30 (1.27/1.29 answer "unknown
 * profile"), while create/wait/exec/delete work with any kubectl in use.
 *
 * The pod is deleted by dispose() — callers run it in `finally`, so a failed scan deletes it too;
 * SIGINT/SIGTERM delete it (cleanup-on-signal.ts); it carries activeDeadlineSeconds, so even a
 * doctor killed with SIGKILL leaves a pod that the kubelet stops on its own, and the next run from
 * this machine deletes it (kubectl-sweep.ts: owner annotations).
 *
 * Verified against a real single-node Kubernetes v1.32 (scan, collect, fix, undo, history; the
 * pod deleted after each, and after SIGINT/SIGTERM/SIGKILL): docs/knowledge/cluster.md.
 */
import { randomBytes } from 'node:crypto';
import type { Target } from '../../../shared/target';
import { cleanupOnSignal } from '../cleanup-on-signal';
import { runLocal } from '../local-run';
import { spawnClient, type NodeProcess, type Transport } from '../transport';
import { DEBUG_POD_LABELS, ownerAnnotations, sweepDebugPods } from './kubectl-sweep';

export type KubectlTarget = Extract<Target, { kind: 'kubectl' }>;

export interface KubectlOptions {
  /** Namespace of the debug pod (default `default`). */
  namespace?: string;
  /** Image with a `chroot` and `sleep` (default busybox:1.36). */
  image?: string;
  client?: string;
  /** Shown the pod spec before it is created (the CLI prints it; the UI displays it). */
  onPodSpec?: (specJson: string) => void;
  /** The pod's name suffix (tests); default random. */
  suffix?: string;
  /** The owner annotations (tests); default this machine's hostname and this process's pid. */
  annotations?: Record<string, string>;
  /** Delete this machine's orphaned debug pods before creating one (default true). */
  sweep?: boolean;
}

/** Words placed before the program's argv: the node's own shell, then `exec` of the argv. */
export const NODE_SHELL_PREFIX = ['/bin/sh', '-c', 'exec "$@"', 'sh'] as const;

export const DEFAULT_DEBUG_IMAGE = 'busybox:1.36';
/** The kubelet stops a pod left behind (doctor killed) after this long. */
export const POD_DEADLINE_SECONDS = 1800;

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IMAGE_REF = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/;

export function validateKubectlOptions(o: KubectlOptions): string | undefined {
  if (o.namespace !== undefined && !DNS_LABEL.test(o.namespace))
    return `${JSON.stringify(o.namespace)} is not a namespace name`;
  if (o.image !== undefined && !IMAGE_REF.test(o.image))
    return `${JSON.stringify(o.image)} is not an image reference`;
  return undefined;
}

export function debugPodName(node: string, suffix: string): string {
  // Pod names are DNS subdomains ≤ 253; keep it short and readable in `kubectl get pods`.
  const base = node
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `cni-doctor-${base}-${suffix}`;
}

export interface DebugPodSpec {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: {
    name: string;
    namespace: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  spec: Record<string, unknown>;
}

export function debugPodSpec(t: KubectlTarget, name: string, o: KubectlOptions = {}): DebugPodSpec {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      labels: { ...DEBUG_POD_LABELS },
      annotations: o.annotations ?? ownerAnnotations(),
    },
    spec: {
      nodeName: t.node,
      hostPID: true,
      hostNetwork: true,
      hostIPC: false,
      restartPolicy: 'Never',
      activeDeadlineSeconds: POD_DEADLINE_SECONDS,
      terminationGracePeriodSeconds: 0,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      // A broken node is often tainted (NotReady, network-unavailable): the pod must land anyway.
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: 'doctor',
          image: o.image ?? DEFAULT_DEBUG_IMAGE,
          imagePullPolicy: 'IfNotPresent',
          command: ['sleep', String(POD_DEADLINE_SECONDS)],
          securityContext: { privileged: true },
          volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
        },
      ],
      volumes: [{ name: 'host-root', hostPath: { path: '/', type: 'Directory' } }],
    },
  };
}

function contextArgs(t: KubectlTarget, ns: string): string[] {
  return [...(t.context !== undefined ? ['--context', t.context] : []), '--namespace', ns];
}

/** Every kubectl command line the transport runs, for tests and for the preview. */
export function kubectlCommands(t: KubectlTarget, name: string, o: KubectlOptions = {}) {
  const ns = o.namespace ?? 'default';
  const base = contextArgs(t, ns);
  return {
    create: [...base, 'create', '-f', '-', '-o', 'name'],
    wait: [...base, 'wait', '--for=condition=Ready', `pod/${name}`, '--timeout=120s'],
    exec: (argv: readonly string[]) => [
      ...base,
      'exec',
      '-i',
      name,
      '-c',
      'doctor',
      '--',
      'chroot',
      '/host',
      ...NODE_SHELL_PREFIX,
      ...argv,
    ],
    delete: [...base, 'delete', 'pod', name, '--ignore-not-found', '--wait=false'],
  };
}

/** The client's version (`v1.32.4`), or undefined when it cannot tell (missing, too old). */
export async function kubectlClientVersion(client = 'kubectl'): Promise<string | undefined> {
  const r = await runLocal(client, ['version', '--client', '-o', 'json'], 15_000);
  if (r.code !== 0) return undefined;
  try {
    const v = (JSON.parse(r.stdout) as { clientVersion?: { gitVersion?: unknown } }).clientVersion
      ?.gitVersion;
    return typeof v === 'string' && /^v[0-9][0-9A-Za-z.+-]{0,60}$/.test(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** One clear line for a kubectl that failed: missing, unreachable cluster, or refused. */
export function kubectlFailure(what: string, stderr: string, version: string | undefined): string {
  const err = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
  if (/ENOENT|not found|No such file/.test(err) && version === undefined)
    return `${what}: kubectl is not installed or not on PATH (${err})`;
  const v = version !== undefined ? ` (kubectl ${version})` : '';
  return `${what}${v}: ${err || 'no message'}`;
}

export class KubectlTransport implements Transport {
  readonly name = 'kubectl debug pod';
  readonly podName: string;
  private created: Promise<void> | undefined;
  private disposed = false;
  private unregister: (() => void) | undefined;

  constructor(
    readonly target: KubectlTarget,
    private readonly opts: KubectlOptions = {},
  ) {
    const problem = validateKubectlOptions(opts);
    if (problem) throw new Error(problem);
    this.podName = debugPodName(target.node, opts.suffix ?? randomBytes(3).toString('hex'));
  }

  private get client(): string {
    return this.opts.client ?? 'kubectl';
  }

  prepare(): Promise<void> {
    this.created ??= (async () => {
      const cmds = kubectlCommands(this.target, this.podName, this.opts);
      const spec = JSON.stringify(debugPodSpec(this.target, this.podName, this.opts), null, 2);
      this.opts.onPodSpec?.(spec);
      // Orphans of earlier runs from this machine go while ours is created (no added wait).
      const sweeping =
        this.opts.sweep === false
          ? Promise.resolve()
          : sweepDebugPods({
              client: this.client,
              ...(this.target.context !== undefined && { context: this.target.context }),
            }).then(() => undefined);
      // From here an interrupt must delete the pod, even one whose create is still in flight.
      this.unregister = cleanupOnSignal(() => this.dispose());
      const c = await runLocal(this.client, cmds.create, 60_000, spec);
      if (c.code !== 0) {
        await sweeping;
        throw new Error(
          kubectlFailure(
            'kubectl could not create the debug pod',
            c.stderr,
            await kubectlClientVersion(this.client),
          ),
        );
      }
      const w = await runLocal(this.client, cmds.wait, 150_000);
      await sweeping;
      if (w.code !== 0)
        throw new Error(
          kubectlFailure(`the debug pod ${this.podName} did not become ready`, w.stderr, undefined),
        );
    })();
    return this.created;
  }

  spawn(argv: readonly string[]): NodeProcess {
    return spawnClient(
      this.client,
      kubectlCommands(this.target, this.podName, this.opts).exec(argv),
    );
  }

  async dispose(): Promise<void> {
    if (this.created === undefined || this.disposed) return;
    this.disposed = true;
    this.unregister?.();
    await runLocal(
      this.client,
      kubectlCommands(this.target, this.podName, this.opts).delete,
      60_000,
    );
  }
}
