/**
 * A Linux node over ssh, with the user's own ssh: their ~/.ssh/config (or --ssh-config), agent,
 * keys and known_hosts. BatchMode=yes: ssh never prompts — an unknown host key or a key that needs
 * a passphrase fails with ssh's own message instead of a prompt of ours.
 *
 * ssh joins the remote command's words with spaces and hands them to the login shell, so the
 * program's argument vector is quoted here word by word (POSIX single quotes); the target's user,
 * host and port are separate ssh arguments, the host after `--`.
 */
import type { Target } from '../../../shared/target';
import { spawnClient, type NodeProcess, type Transport } from '../transport';

export type SshTarget = Extract<Target, { kind: 'ssh' }>;

export interface SshOptions {
  /** `-F FILE` instead of ~/.ssh/config. */
  configFile?: string;
  /** The ssh client (default `ssh` from PATH). */
  client?: string;
  connectTimeoutSec?: number;
}

/** One word for a POSIX shell: single-quoted, embedded quotes as '\''. */
export function shQuote(word: string): string {
  if (word.includes('\0')) throw new Error('a NUL byte cannot be passed to a remote program');
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** ssh's options and destination for a target; the remote command comes after. */
export function sshBaseArgs(t: SshTarget, o: SshOptions = {}): string[] {
  const args = [
    '-T',
    '-o',
    'BatchMode=yes',
    '-o',
    `ConnectTimeout=${o.connectTimeoutSec ?? 15}`,
    '-o',
    'ServerAliveInterval=15',
  ];
  if (o.configFile !== undefined) args.push('-F', o.configFile);
  if (t.port !== undefined) args.push('-p', String(t.port));
  if (t.user !== undefined) args.push('-l', t.user);
  args.push('--', t.host);
  return args;
}

export function sshArgs(t: SshTarget, argv: readonly string[], o: SshOptions = {}): string[] {
  return [...sshBaseArgs(t, o), argv.map(shQuote).join(' ')];
}

export class SshTransport implements Transport {
  readonly name = 'ssh';

  constructor(
    readonly target: SshTarget,
    private readonly opts: SshOptions = {},
  ) {}

  async prepare(): Promise<void> {}

  spawn(argv: readonly string[]): NodeProcess {
    return spawnClient(this.opts.client ?? 'ssh', sshArgs(this.target, argv, this.opts));
  }

  async localRoot(): Promise<{ ok: false; reason: string }> {
    return {
      ok: false,
      reason:
        "the node's file system is not visible from this machine (repairs run their file operations on the node through ssh)",
    };
  }

  async dispose(): Promise<void> {}
}
