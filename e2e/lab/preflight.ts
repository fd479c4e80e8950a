// What the real-containerd lab needs on the machine. Missing pieces fail the suite with the one
// command that installs them; the lab never silently skips (a skipped lab proves nothing).
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';

export const DEFAULT_CNI_BIN_DIR = '/usr/lib/cni'; // where Debian's containernetworking-plugins installs
export const INSTALL_COMMAND =
  'apt-get update && apt-get install -y containerd runc containernetworking-plugins gcc libc6-dev iproute2';

const TOOLS: Record<string, string> = {
  containerd: 'containerd',
  runc: 'runc',
  ctr: 'containerd',
  gcc: 'gcc',
  ip: 'iproute2',
  umount: 'mount',
};
const CNI_PLUGINS = ['bridge', 'host-local', 'loopback'];

export interface PreflightResult {
  ok: boolean;
  problems: string[];
  installCommand: string;
}

export function preflight(binDir = DEFAULT_CNI_BIN_DIR): PreflightResult {
  const problems: string[] = [];
  if (process.platform !== 'linux')
    problems.push(`the lab runs on Linux only (this is ${process.platform})`);
  if (process.getuid?.() !== 0)
    problems.push('the lab must run as root (it starts containerd, creates netns and bridges)');
  for (const [tool, pkg] of Object.entries(TOOLS)) {
    if (!onPath(tool)) problems.push(`\`${tool}\` not found on PATH (package ${pkg})`);
  }
  if (onPath('gcc') && !hasStaticLibc())
    problems.push('static libc (libc.a) missing: gcc -static needs package libc6-dev');
  for (const plugin of CNI_PLUGINS) {
    if (!isExecutable(join(binDir, plugin)))
      problems.push(
        `CNI plugin ${join(binDir, plugin)} missing (package containernetworking-plugins)`,
      );
  }
  return { ok: problems.length === 0, problems, installCommand: INSTALL_COMMAND };
}

/** Throws a readable error naming every missing piece and the install command. */
export function assertPreflight(binDir?: string): void {
  const r = preflight(binDir);
  if (r.ok) return;
  throw new Error(
    `cni-doctor lab preflight failed:\n  - ${r.problems.join('\n  - ')}\nInstall with:\n  ${r.installCommand}`,
  );
}

function onPath(tool: string): boolean {
  const dirs = (process.env.PATH ?? '')
    .split(delimiter)
    .concat(['/usr/sbin', '/sbin', '/usr/bin', '/bin']);
  return dirs.some((d) => d !== '' && isExecutable(join(d, tool)));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hasStaticLibc(): boolean {
  // gcc prints the bare name back when it cannot find the file.
  const r = spawnSync('gcc', ['-print-file-name=libc.a'], { encoding: 'utf8' });
  const path = r.stdout.trim();
  return path.startsWith('/') && existsSync(path);
}
