/**
 * `--target` on scan, collect, fix, undo and history: which node (shared/target.ts), plus the few
 * transport settings a target may need. Parsed and validated here; a bad target is a usage error.
 */
import { visibleLines } from './visible';
import { parseTarget, type Target } from '../../shared/target';
import type { TargetOptions } from '../../main/remote/open-target';
import { ArgError, type FlagValues, type Flags } from './command';

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

export function targetOptions(
  flags: TargetFlagValues,
  io: { err(line: string): void },
  criDeadlineMs?: number,
): TargetOptions {
  return {
    ...(flags['ssh-config'] !== undefined && { ssh: { configFile: flags['ssh-config'] } }),
    kubectl: {
      ...(flags['kube-namespace'] !== undefined && { namespace: flags['kube-namespace'] }),
      ...(flags['kube-image'] !== undefined && { image: flags['kube-image'] }),
      // The pod spec is shown before the pod is created (stderr: stdout stays the report).
      onPodSpec: (spec) => io.err(`cni-doctor: creating this debug pod:\n${visibleLines(spec)}`),
    },
    ...(criDeadlineMs !== undefined && { criDeadlineMs }),
  };
}
