/**
 * How to type this CLI again, for the commands it prints (rerun elevated, apply, undo): the way
 * it was started, not always `npx` (newcomer review, README 9). `npx cni-doctor` when npm started
 * it, `cni-doctor` through the global link, `node <path>/bin/cni-doctor.cjs` otherwise.
 */
import { basename, relative } from 'node:path';
import { shellLine } from '../../shared/shell-quote';

export function selfCommand(
  argv1: string | undefined = process.argv[1],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string[] {
  if (env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx') return ['npx', 'cni-doctor'];
  if (!argv1) return ['cni-doctor'];
  const name = basename(argv1);
  if (name === 'cni-doctor') return ['cni-doctor'];
  if (name === 'cni-doctor.cjs') {
    const rel = relative(cwd, argv1);
    return ['node', rel.startsWith('..') ? argv1 : rel];
  }
  return ['cni-doctor'];
}

/** The command line that reruns `words` as root (POSIX) or says to use an elevated prompt. */
export function elevatedCommand(
  words: readonly string[],
  platform: NodeJS.Platform = process.platform,
  self: readonly string[] = selfCommand(),
): string {
  const line = shellLine([...self, ...words]);
  return platform === 'win32' ? line : `sudo ${line}`;
}
