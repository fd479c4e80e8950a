/**
 * `--target` on scan, collect, fix, undo and history: which node (shared/target.ts), plus the few
 * transport settings a target may need. Parsed and validated here; a bad target is a usage error.
 */
import { visibleLines } from './visible';
import { parseTarget, type Target } from '../../shared/target';
import type { TargetOptions } from '../../main/remote/open-target';
import { ArgError, type FlagValues, type Flags } from './command';
import { NODE_DEADLINES, type NodeDeadlines } from '../../main/remote/node-deadlines';
import { askPassword } from './ask-password';
import { cliVersionCache } from './version-cache';

export const TARGET_FLAGS = {
  target: {
    type: 'string',
    value: 'TARGET',
    help: 'the node: local, bundle:PATH, root:DIR, container:ENGINE/NAME (docker|podman|nerdctl), ssh:[USER@]HOST[:PORT], kubectl:[CONTEXT/]NODE (Windows nodes: a HostProcess pod), winrm:[USER@]HOST[:PORT] or pssession:[USER@]HOST[:PORT] (Windows nodes through PowerShell remoting)',
  },
  'ssh-config': {
    type: 'string',
    value: 'FILE',
    help: 'ssh client configuration for ssh: targets (default: your ~/.ssh/config)',
  },
  'kube-namespace': {
    type: 'string',
    value: 'NS',
    help: 'namespace of the kubectl debug pod (default "default"; needs Pod Security "privileged")',
  },
  'kube-image': {
    type: 'string',
    value: 'IMAGE',
    help: 'image of the kubectl debug pod (needs chroot and sleep; default busybox:1.36)',
  },
  'node-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: `how long a remote node may take to answer one question before the command fails (default ${NODE_DEADLINES.answerMs / 1000})`,
  },
  'node-session-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: `how long a remote node may keep one command waiting in all (default ${NODE_DEADLINES.sessionMs / 1000})`,
  },
} as const satisfies Flags;

export type TargetFlagValues = FlagValues<typeof TARGET_FLAGS> & {
  readonly root?: string;
  readonly bundle?: string;
};

/** The target the flags name (undefined: none given), refusing contradictions. */
export function targetOf(flags: TargetFlagValues): Target | undefined {
  if (flags.target === undefined) return undefined;
  if (flags.root !== undefined || flags.bundle !== undefined)
    throw new ArgError('use --target or --root/--bundle, not both');
  const r = parseTarget(flags.target);
  if (!r.ok) throw new ArgError(`--target: ${r.error}`);
  return r.target;
}

/** A number of seconds a flag gives: positive, at most a day. */
function secondsMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0) || n > 86_400)
    throw new ArgError(`--${name} needs a number of seconds (0 < s ≤ 86400)`);
  return Math.round(n * 1000);
}

/** --node-timeout and --node-session-timeout, checked. */
export function nodeDeadlines(
  flags: Pick<TargetFlagValues, 'node-timeout' | 'node-session-timeout'>,
): Partial<NodeDeadlines> {
  const answerMs = secondsMs('node-timeout', flags['node-timeout']);
  const sessionMs = secondsMs('node-session-timeout', flags['node-session-timeout']);
  return {
    ...(answerMs !== undefined && { answerMs }),
    ...(sessionMs !== undefined && { sessionMs }),
  };
}

export function targetOptions(
  flags: Omit<TargetFlagValues, 'target'>,
  io: { err(line: string): void },
  criDeadlineMs?: number,
): TargetOptions {
  return {
    deadlines: nodeDeadlines(flags),
    ...(flags['ssh-config'] !== undefined && { ssh: { configFile: flags['ssh-config'] } }),
    kubectl: {
      ...(flags['kube-namespace'] !== undefined && { namespace: flags['kube-namespace'] }),
      ...(flags['kube-image'] !== undefined && { image: flags['kube-image'] }),
      // The pod spec is shown before the pod is created (stderr: stdout stays the report).
      onPodSpec: (spec) => io.err(`cni-doctor: creating this debug pod:\n${visibleLines(spec)}`),
    },
    ...(criDeadlineMs !== undefined && { criDeadlineMs }),
    // winrm:USER@HOST: USER's password, asked on the terminal without echo when the session opens.
    remoting: { password: (prompt) => askPassword(`cni-doctor: ${prompt}`) },
  };
}

/**
 * A scan's (scan, explain, compare): the `--version` answers of a node's plugins and kubelet are remembered between scans of a node.
 * Not collect's, fix's or undo's: a bundle records what the node said that day, and a repair's
 * verification asks afresh.
 */
export function scanTargetOptions(
  flags: Omit<TargetFlagValues, 'target'>,
  io: { err(line: string): void },
  criDeadlineMs?: number,
): TargetOptions {
  const versionCache = cliVersionCache();
  return { ...targetOptions(flags, io, criDeadlineMs), ...(versionCache && { versionCache }) };
}
