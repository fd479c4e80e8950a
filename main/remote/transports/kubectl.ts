/**
 * Any node through the API server: a short-lived debug pod on that node with the host's root at
 * /host, host PID and network namespaces, privileged (what `kubectl debug node/N
 * --profile=sysadmin` makes), in a namespace the user chooses (Pod Security "restricted" and
 * "baseline" namespaces reject it: pick one labelled pod-security.kubernetes.io/enforce=privileged).
 * Programs run as `kubectl exec -i POD -- chroot /host ARGV…`, so they see the node's own tools.
 *
 * The pod is deleted by dispose() — callers run it in `finally`, so a failed scan deletes it too —
 * and carries activeDeadlineSeconds, so even a doctor killed with SIGKILL leaves a pod that the
 * kubelet stops on its own.
 *
 * NOT VERIFIED AGAINST A CLUSTER: no API server exists where this was built. The pod spec and
 * every kubectl command line are unit-tested (kubectl.test.ts); the behaviour of a real cluster is not.
 */
import { randomBytes } from 'node:crypto';
import type { Target } from '../../../shared/target';
import { runLocal } from '../local-run';
import { spawnClient, type NodeProcess, type Transport } from '../transport';

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
}

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
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: Record<string, unknown>;
}

export function debugPodSpec(t: KubectlTarget, name: string, o: KubectlOptions = {}): DebugPodSpec {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      labels: {
        'app.kubernetes.io/name': 'cni-doctor',
        'app.kubernetes.io/component': 'node-debug',
      },
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
      ...argv,
    ],
    delete: [...base, 'delete', 'pod', name, '--ignore-not-found', '--wait=false'],
  };
}

export class KubectlTransport implements Transport {
  readonly name = 'kubectl debug pod';
  readonly podName: string;
  private created: Promise<void> | undefined;
  private disposed = false;

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
      const c = await runLocal(this.client, cmds.create, 60_000, spec);
      if (c.code !== 0)
        throw new Error(`kubectl could not create the debug pod: ${c.stderr.trim().slice(0, 400)}`);
      const w = await runLocal(this.client, cmds.wait, 150_000);
      if (w.code !== 0)
        throw new Error(
          `the debug pod ${this.podName} did not become ready: ${w.stderr.trim().slice(0, 400)}`,
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

  async localRoot(): Promise<{ ok: false; reason: string }> {
    return {
      ok: false,
      reason:
        "the node's file system is not visible from this machine (repairs run their file operations on the node through kubectl exec)",
    };
  }

  async dispose(): Promise<void> {
    if (this.created === undefined || this.disposed) return;
    this.disposed = true;
    await runLocal(
      this.client,
      kubectlCommands(this.target, this.podName, this.opts).delete,
      60_000,
    );
  }
}
