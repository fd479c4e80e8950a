/**
 * `kubectl:NODE` on a Windows node: a HostProcess pod (securityContext.windowsOptions.hostProcess,
 * NT AUTHORITY\SYSTEM, hostNetwork — KB remote "Windows HostProcess pods"; containerd 1.6+) on that
 * node, and Windows PowerShell started in it with `kubectl exec -i`; the doctor's PowerShellSession
 * drives that shell exactly as it drives a local one, so the same collect.ps1 and repair-step.ps1
 * run. A HostProcess container sees the host's disks and named pipes by their host paths, so no
 * mapping is needed, and HNS calls work (microsoft/SDN runs its network health checks this way).
 *
 * The pod carries activeDeadlineSeconds (a doctor killed with SIGKILL leaves a pod the kubelet
 * stops) and is deleted by dispose().
 *
 * NOT VERIFIED ON WINDOWS: no Windows node or API server exists where this was built. The pod spec
 * and every kubectl command line are unit-tested (hostprocess.test.ts); a real cluster is not.
 */
import { randomBytes } from 'node:crypto';
import type { Target } from '../../../shared/target';
import {
  PowerShellSession,
  type RunOptions,
  type RunResult,
  type ScriptRunner,
} from '../../host/windows/powershell-session';
import { runLocal } from '../local-run';
import { debugPodName, POD_DEADLINE_SECONDS } from '../transports/kubectl';

export type KubectlTarget = Extract<Target, { kind: 'kubectl' }>;

/** Microsoft's image for HostProcess containers (a few KB; the host's own files are what run). */
export const HOSTPROCESS_IMAGE =
  'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

export interface HostProcessOptions {
  namespace?: string;
  image?: string;
  client?: string;
  suffix?: string;
  onPodSpec?: (specJson: string) => void;
}

export function hostProcessPodSpec(t: KubectlTarget, name: string, o: HostProcessOptions = {}) {
  return {
    apiVersion: 'v1' as const,
    kind: 'Pod' as const,
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
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      // HostProcess pods must use the host network; every container of the pod is HostProcess.
      hostNetwork: true,
      securityContext: {
        windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
      },
      restartPolicy: 'Never',
      activeDeadlineSeconds: POD_DEADLINE_SECONDS,
      terminationGracePeriodSeconds: 0,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: 'doctor',
          image: o.image ?? HOSTPROCESS_IMAGE,
          imagePullPolicy: 'IfNotPresent',
          // The host's Windows PowerShell; the container keeps running until deleted or deadline.
          command: [
            'powershell.exe',
            '-NoLogo',
            '-NoProfile',
            '-NonInteractive',
            '-Command',
            `Start-Sleep -Seconds ${POD_DEADLINE_SECONDS}`,
          ],
        },
      ],
    },
  };
}

export function hostProcessCommands(t: KubectlTarget, name: string, o: HostProcessOptions = {}) {
  const base = [
    ...(t.context !== undefined ? ['--context', t.context] : []),
    '--namespace',
    o.namespace ?? 'default',
  ];
  return {
    /** Which OS the node runs: `windows` chooses this path for kubectl:NODE. */
    nodeOs: [
      ...(t.context !== undefined ? ['--context', t.context] : []),
      'get',
      'node',
      t.node,
      '-o',
      'jsonpath={.status.nodeInfo.operatingSystem}',
    ],
    create: [...base, 'create', '-f', '-', '-o', 'name'],
    wait: [...base, 'wait', '--for=condition=Ready', `pod/${name}`, '--timeout=300s'],
    /** The arguments before node-powershell's own (-NoLogo … -Command -). */
    shell: [...base, 'exec', '-i', name, '-c', 'doctor', '--', 'powershell.exe'],
    delete: [...base, 'delete', 'pod', name, '--ignore-not-found', '--wait=false'],
  };
}

/** The OS kubectl reports for a node (`windows`, `linux`), or undefined when it cannot tell. */
export async function kubectlNodeOs(
  t: KubectlTarget,
  client = 'kubectl',
): Promise<string | undefined> {
  const r = await runLocal(client, hostProcessCommands(t, 'unused').nodeOs, 30_000);
  const os = r.stdout.trim();
  return r.code === 0 && /^[a-z]+$/.test(os) ? os : undefined;
}

export class HostProcessRunner implements ScriptRunner {
  readonly transportName = 'kubectl HostProcess pod';
  readonly podName: string;
  private created: Promise<void> | undefined;
  private readonly session: PowerShellSession;

  constructor(
    readonly target: KubectlTarget,
    private readonly opts: HostProcessOptions = {},
  ) {
    this.podName = debugPodName(target.node, opts.suffix ?? randomBytes(3).toString('hex'));
    this.session = new PowerShellSession({
      executable: this.client,
      leadingArgs: hostProcessCommands(target, this.podName, opts).shell,
      startDeadlineMs: 120_000,
      languageProbe: 'The Windows node',
    });
  }

  private get client(): string {
    return this.opts.client ?? 'kubectl';
  }

  prepare(): Promise<void> {
    this.created ??= (async () => {
      const cmds = hostProcessCommands(this.target, this.podName, this.opts);
      const spec = JSON.stringify(
        hostProcessPodSpec(this.target, this.podName, this.opts),
        null,
        2,
      );
      this.opts.onPodSpec?.(spec);
      const c = await runLocal(this.client, cmds.create, 60_000, spec);
      if (c.code !== 0)
        throw new Error(
          `kubectl could not create the HostProcess pod: ${c.stderr.trim().slice(0, 400)}`,
        );
      const w = await runLocal(this.client, cmds.wait, 320_000);
      if (w.code !== 0)
        throw new Error(
          `the HostProcess pod ${this.podName} did not become ready: ${w.stderr.trim().slice(0, 400)}`,
        );
    })();
    return this.created;
  }

  async run(script: string, opts: RunOptions): Promise<RunResult> {
    try {
      await this.prepare();
    } catch (e) {
      return { ok: false, kind: 'exit', message: (e as Error).message };
    }
    return this.session.run(script, opts);
  }

  async dispose(): Promise<void> {
    await this.session.dispose();
    if (this.created === undefined) return;
    this.created = undefined;
    await runLocal(
      this.client,
      hostProcessCommands(this.target, this.podName, this.opts).delete,
      60_000,
    );
  }
}
