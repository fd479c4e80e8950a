/**
 * A Linux node over ssh, with the user's own ssh: their ~/.ssh/config (or --ssh-config), agent,
 * keys and known_hosts. BatchMode=yes: ssh never prompts — an unknown host key or a key that needs
 * a passphrase fails with ssh's own message instead of a prompt of ours.
 *
 * ssh joins the remote command's words with spaces and hands them to the login shell, so the
 * program's argument vector is quoted here word by word (POSIX single quotes); the target's user,
 * host and port are separate ssh arguments, the host after `--`.
 *
 * One connection for all of a target's program runs: prepare() starts an OpenSSH master
 * (`-M -N -f`) with its control socket in a private folder of ours, and every run goes through
 * it. A repair makes dozens of runs (each file operation is one), and a TCP and key exchange
 * apiece made an ssh repair take tens of seconds. When the master cannot start, each run
 * connects by itself as before and reports ssh's own error. The master leaves at dispose()
 * (`-O exit`), or by itself a minute after its last run if this process dies first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Target } from '../../../shared/target';
import { spawnClient, tiedToUs, type NodeProcess, type Transport } from '../transport';

export type SshTarget = Extract<Target, { kind: 'ssh' }>;

export interface SshOptions {
  /** `-F FILE` instead of ~/.ssh/config. */
  configFile?: string;
  /** The ssh client (default `ssh` from PATH). */
  client?: string;
  connectTimeoutSec?: number;
  /** Share one connection between runs (default true); false: one connection per run. */
  shareConnection?: boolean;
}

/** One word for a POSIX shell: single-quoted, embedded quotes as '\''. */
export function shQuote(word: string): string {
  if (word.includes('\0')) throw new Error('a NUL byte cannot be passed to a remote program');
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** ssh's options and destination for a target; the remote command comes after. */
export function sshBaseArgs(t: SshTarget, o: SshOptions = {}, controlPath?: string): string[] {
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
  // Ours, not the user's config's: the socket of the master prepare() started (or none).
  args.push('-o', `ControlPath=${controlPath ?? 'none'}`, '-o', 'ControlMaster=no');
  if (t.port !== undefined) args.push('-p', String(t.port));
  if (t.user !== undefined) args.push('-l', t.user);
  args.push('--', t.host);
  return args;
}

export function sshArgs(
  t: SshTarget,
  argv: readonly string[],
  o: SshOptions = {},
  controlPath?: string,
): string[] {
  return [...sshBaseArgs(t, o, controlPath), argv.map(shQuote).join(' ')];
}

/** sshBaseArgs in two: the options, and `--` with the destination (the last two words). */
function splitAtDestination(args: string[]): { options: string[]; destination: string[] } {
  return { options: args.slice(0, -2), destination: args.slice(-2) };
}

/** Runs the ssh client with no stdio of ours (a backgrounded master must not hold our pipes). */
function runQuiet(client: string, args: readonly string[], deadlineMs: number): Promise<number> {
  return new Promise((resolve) => {
    const [cmd, argv] = tiedToUs(client, args);
    const child = spawn(cmd, argv, { stdio: 'ignore', shell: false });
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.once('error', () => resolve(127));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 255);
    });
  });
}

/**
 * Ends the master when this process dies without dispose() (killed, crashed). ControlPersist does
 * not: a master whose session is held open by a hung node program never counts as idle (a
 * killed scan's master was still there after 109 s; red-team H4). The watchdog is a local `sh`,
 * in its own session so a Ctrl+C to the command's process group leaves it to do its job, that
 * waits for the end of a pipe only we hold (closed by the kernel when we die), then runs
 * `ssh … -O exit` and removes the control folder. Its script is fixed text; the ssh arguments
 * and the folder reach it as separate arguments, never as shell text.
 */
const WATCHDOG_SH = 'cat >/dev/null; dir=$1; shift; "$@"; rm -rf -- "$dir"';

function startWatchdog(client: string, exitArgs: string[], dir: string): ChildProcess | undefined {
  try {
    const child = spawn(
      '/bin/sh',
      ['-c', WATCHDOG_SH, 'cni-doctor-ssh-watchdog', dir, client, ...exitArgs],
      {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
        shell: false,
      },
    );
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    // It must never keep this process alive by itself.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return child;
  } catch {
    return undefined;
  }
}

/** The watchdog and its `cat` (its process group): dispose() does its work itself. */
function stopWatchdog(w: ChildProcess | undefined): void {
  if (w?.pid === undefined) return;
  try {
    process.kill(-w.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  w.stdin?.destroy();
}

export class SshTransport implements Transport {
  readonly name = 'ssh';
  private master: Promise<string | undefined> | undefined;
  private watchdog: ChildProcess | undefined;
  private controlDir: string | undefined;
  private controlPath: string | undefined;
  /** After dispose(), runs connect by themselves: no master is started that nothing would end. */
  private disposed = false;

  constructor(
    readonly target: SshTarget,
    private readonly opts: SshOptions = {},
  ) {}

  private get client(): string {
    return this.opts.client ?? 'ssh';
  }

  async prepare(): Promise<void> {
    if (this.opts.shareConnection === false || this.disposed) return;
    this.master ??= this.startMaster();
    this.controlPath = await this.master;
  }

  private async startMaster(): Promise<string | undefined> {
    // mkdtemp makes the folder 0700: no other user can reach the socket inside.
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-ssh-'));
    this.controlDir = dir;
    const control = path.join(dir, 'master');
    // The control options come first (ssh keeps the first value it is given for an option);
    // -M turns the ControlMaster=no they carry into a master, and -f backgrounds it once the
    // user's key has been accepted.
    const { options, destination } = splitAtDestination(
      sshBaseArgs(this.target, this.opts, control),
    );
    // The watchdog first: a command killed while the master starts leaves no folder either.
    this.watchdog = startWatchdog(this.client, [...options, '-O', 'exit', ...destination], dir);
    const code = await runQuiet(
      this.client,
      [...options, '-M', '-N', '-f', '-o', 'ControlPersist=60', ...destination],
      ((this.opts.connectTimeoutSec ?? 15) + 5) * 1000,
    );
    return code === 0 && existsSync(control) ? control : undefined;
  }

  spawn(argv: readonly string[]): NodeProcess {
    return spawnClient(this.client, sshArgs(this.target, argv, this.opts, this.controlPath));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    // A master still starting is waited for, so that it is ended too.
    const control = await this.master?.catch(() => undefined);
    // Ended here, in order: the watchdog is for when this process dies before it gets here.
    stopWatchdog(this.watchdog);
    this.watchdog = undefined;
    this.controlPath = undefined;
    this.master = undefined;
    if (control !== undefined) {
      const base = sshBaseArgs(this.target, this.opts, control);
      const dest = base.slice(base.indexOf('--'));
      await runQuiet(
        this.client,
        [...base.slice(0, base.indexOf('--')), '-O', 'exit', ...dest],
        5000,
      );
    }
    if (this.controlDir !== undefined) {
      await fsp.rm(this.controlDir, { recursive: true, force: true }).catch(() => undefined);
      this.controlDir = undefined;
    }
  }
}
