/**
 * From a target to a host the engine scans, and back to words for the report: every report names
 * its target and its transport (shared/target.ts TargetInfo).
 */
import { formatTarget, type RemoteTarget, type Target, type TargetInfo } from '../../shared/target';
import type { Host } from '../host/host';
import type { ScanOptions, ScanResult } from '../engine/scan';
import { RemoteLinuxHost } from './remote-host';
import type { Transport } from './transport';
import type { NodeDeadlines } from './node-deadlines';
import type { VersionCache } from './version-cache';
import { ContainerTransport } from './transports/container';
import { KubectlTransport, type KubectlOptions } from './transports/kubectl';
import { SshTransport, type SshOptions } from './transports/ssh';
import type { ScriptRunner } from '../host/windows/powershell-session';
import type { RemotingOptions } from './windows/powershell-remoting';

export interface TargetOptions {
  ssh?: SshOptions;
  kubectl?: KubectlOptions;
  /** winrm: / pssession: targets (Windows nodes through PowerShell remoting). */
  remoting?: RemotingOptions;
  criDeadlineMs?: number;
  /** How long a node may take per answer and in all (node-deadlines.ts). */
  deadlines?: Partial<NodeDeadlines>;
  /** The node's binaries' (plugins', kubelet's) `--version` answers from earlier scans (version-cache.ts); none: all asked. */
  versionCache?: VersionCache;
}

export function openTransport(t: RemoteTarget, o: TargetOptions = {}): Transport {
  switch (t.kind) {
    case 'container':
      return new ContainerTransport(t);
    case 'ssh':
      return new SshTransport(t, o.ssh);
    case 'kubectl':
      return new KubectlTransport(t, o.kubectl);
  }
}

export interface OpenedTarget {
  host: Host;
  /**
   * Why the conversation with the node ended early (it hung, or sent more than it was asked
   * for): what was read after it is not a diagnosis, so commands fail with this error.
   */
  failure(): Error | undefined;
  /** What the report says about where its facts came from (cri filled in after a scan). */
  info(): TargetInfo;
  close(): Promise<void>;
}

export async function openTarget(t: Target, o: TargetOptions = {}): Promise<OpenedTarget> {
  const target = formatTarget(t);
  switch (t.kind) {
    case 'local':
    case 'bundle':
    case 'root': {
      const { openHost } = await import('../engine/open-host');
      const host = await openHost({
        ...(t.kind === 'bundle' && { bundle: t.path }),
        ...(t.kind === 'root' && { root: t.dir }),
        ...(o.criDeadlineMs !== undefined && { criDeadlineMs: o.criDeadlineMs }),
      });
      const transport =
        t.kind === 'local' ? 'this machine' : t.kind === 'bundle' ? 'recorded bundle' : 'node disk';
      return {
        host,
        info: () => ({ target, transport }),
        failure: () => undefined,
        close: async () => undefined,
      };
    }
    case 'winrm':
    case 'pssession': {
      // Windows modules load only for Windows targets: a Linux node's agent starts sooner.
      const { PowerShellRemotingRunner } = await import('./windows/powershell-remoting');
      const runner = new PowerShellRemotingRunner(
        {
          kind: t.kind,
          host: t.host,
          ...(t.user !== undefined && { user: t.user }),
          ...(t.port !== undefined && { port: t.port }),
        },
        {
          ...o.remoting,
          // --node-timeout / --node-session-timeout hold for Windows remoting too.
          ...(o.deadlines !== undefined && { deadlines: o.deadlines }),
        },
      );
      // No local shell can open this kind of session here (winrm from Linux/macOS, pssession
      // without pwsh): say why before anything starts.
      if (runner.refusal !== undefined)
        throw new (await import('../engine/open-host')).UsageError(runner.refusal);
      return windowsTarget(target, runner, o);
    }
    default: {
      // kubectl:NODE on a Windows node: a HostProcess pod running the same collect.ps1.
      if (t.kind === 'kubectl') {
        const { HostProcessRunner, kubectlNodeOs } = await import('./windows/hostprocess');
        if ((await kubectlNodeOs(t, o.kubectl?.client)) === 'windows')
          return windowsTarget(
            target,
            new HostProcessRunner(t, {
              ...(o.kubectl?.namespace !== undefined && { namespace: o.kubectl.namespace }),
              ...(o.kubectl?.client !== undefined && { client: o.kubectl.client }),
              ...(o.kubectl?.onPodSpec !== undefined && { onPodSpec: o.kubectl.onPodSpec }),
            }),
            o,
          );
      }
      if (process.platform === 'win32' && t.kind !== 'kubectl')
        throw new (await import('../engine/open-host')).UsageError(
          'remote Linux targets are reached from Linux or macOS in this build',
        );
      const transport = openTransport(t, o);
      // What must exist before any program runs (the kubectl debug pod) exists before the host
      // is handed out: collect reads through the host without connect(), and an exec into a pod
      // not yet created fails "pods … not found" (seen on the lab cluster).
      try {
        await transport.prepare();
      } catch (e) {
        await transport.dispose();
        throw e;
      }
      const host = new RemoteLinuxHost(transport, {
        ...(o.criDeadlineMs !== undefined && { criDeadlineMs: o.criDeadlineMs }),
        ...(o.deadlines !== undefined && { deadlines: o.deadlines }),
        ...(o.versionCache !== undefined && { versionCache: o.versionCache }),
      });
      return {
        host,
        info: () => ({
          target,
          transport: transport.name,
          ...(host.criRoute !== undefined && { cri: host.criRoute }),
          roundTrips: host.roundTrips,
        }),
        failure: () => host.sessionFailure,
        close: async () => {
          try {
            await host.close();
          } finally {
            await transport.dispose();
          }
        },
      };
    }
  }
}

/**
 * A Windows node whose PowerShell runs somewhere else (remoting, a HostProcess pod): the live
 * WindowsHost over that runner. CRI is not reached from here: the node's named pipes are local to
 * it, so CRI facts come back unknown with the reason.
 */
async function windowsTarget(
  target: string,
  runner: ScriptRunner & { transportName: string; dispose(): Promise<void> },
  o: TargetOptions,
): Promise<OpenedTarget> {
  const { WindowsHost } = await import('../host/windows/windows-host');
  const cri = "not asked: the runtime's named pipe is local to the Windows node";
  const host = new WindowsHost(runner, {
    ...(o.criDeadlineMs !== undefined && { criDeadlineMs: o.criDeadlineMs }),
    probeCri: async (endpoint) => ({ endpoint, api: null, error: { code: 14, message: cri } }),
  });
  return {
    host,
    info: () => ({ target, transport: runner.transportName, cri, roundTrips: host.roundTrips }),
    failure: () => undefined,
    close: () => runner.dispose(),
  };
}

/** One scan of a target; the report names the target and transport; remote resources released. */
export async function scanTarget(
  t: Target,
  o: TargetOptions = {},
  scan: ScanOptions = {},
): Promise<ScanResult & { target: TargetInfo }> {
  const opened = await openTarget(t, o);
  try {
    // The node's program starts first; the engine (rules, gRPC) loads while it answers.
    const remote = opened.host instanceof RemoteLinuxHost ? opened.host : undefined;
    const connecting = remote?.connect();
    connecting?.catch(() => undefined);
    await remote?.started();
    const [{ scanHost }, { warmCriDefinitions }] = await Promise.all([
      import('../engine/scan'),
      import('../cri/client'),
    ]);
    // …and the gRPC definitions compile now, not between the collection and the CRI calls.
    if (connecting) warmCriDefinitions();
    await connecting;
    const r = await scanHost(opened.host, scan);
    const failed = opened.failure();
    if (failed) throw failed;
    const info = opened.info();
    r.report.target = info;
    return { ...r, target: info };
  } finally {
    await opened.close();
  }
}
