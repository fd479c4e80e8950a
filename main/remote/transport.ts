/**
 * A transport runs one program on a node and streams its stdin/stdout/stderr — everything the
 * remote host, the CRI relay and remote repairs need ("run this program on the node"). A program
 * is an argument vector: no transport ever builds a local shell command line, and the target's
 * fields travel as separate arguments after the tool's own options.
 *
 * Implementations: container exec (docker, podman, nerdctl), ssh, a kubectl debug pod; the
 * Windows work plugs WinRM / PowerShell sessions in behind the same interface.
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Target } from '../../shared/target';
import { tiedToUs, wrapClient } from './client-process';

export { CLIENT_TEARDOWN_MS, endProgram, tiedToUs } from './client-process';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Settles when the local end (exec client, ssh, kubectl) has exited. */
  readonly exit: Promise<ProcessExit>;
  kill(): void;
  /**
   * Stops waiting for the local end: its exit no longer keeps this process alive. For a client
   * whose work on the node is known to be over (the agent said goodbye) but whose own teardown
   * (`podman exec` takes ~100 ms) need not delay the answer.
   */
  detach?(): void;
}

export interface Transport {
  readonly target: Target;
  /** Words for reports: `podman exec`, `ssh`, `kubectl debug pod`. */
  readonly name: string;
  /**
   * The client removes what it made on the node only when it is let exit by itself: `podman exec`
   * deletes its exec session after the program ends, and a killed client leaves the session in
   * the container's state for good. Every later `podman exec` into that container then takes
   * longer (measured here: 128 ms on a fresh node container, 310 ms after 400 sessions left by
   * killed clients — two per scan before this was kept). When set, a program that has ended is
   * waited for (endProgram), never killed or left to be killed with this process.
   */
  readonly clientCleansUp?: boolean;
  /** Anything that must exist before the first program runs (the debug pod); idempotent. */
  prepare(): Promise<void>;
  /** Starts `argv` on the node, with the node's root as `/`. */
  spawn(argv: readonly string[]): NodeProcess;
  /** Removes what prepare() made (the debug pod); safe to call twice, and after a failure. */
  dispose(): Promise<void>;
  /**
   * A plain sentence for a client that failed before the node ran anything (its stderr), when the
   * transport knows what that stderr means (a container that does not exist); else undefined and
   * the caller shows the stderr itself.
   */
  explainFailure?(stderr: string): string | undefined;
}

/** Runs a local client program (docker, ssh, kubectl) as a NodeProcess; never through a shell. */
export function spawnClient(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): NodeProcess {
  const [cmd, argv] = tiedToUs(command, args);
  const child = spawn(cmd, argv, {
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    ...(env !== undefined && { env }),
  });
  return wrapClient(child, command);
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

/** Runs argv on the node to completion, with stdin given, output bounded, and a deadline. */
export async function runOnNode(
  t: Transport,
  argv: readonly string[],
  opts: { stdin?: Buffer | string; deadlineMs: number; maxOutputBytes?: number },
): Promise<RunResult> {
  await t.prepare();
  const p = t.spawn(argv);
  const max = opts.maxOutputBytes ?? 64 * 1024 * 1024;
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = '';
  let timedOut = false;
  p.stdout.on('data', (b: Buffer) => {
    if (outBytes < max) out.push(b);
    outBytes += b.length;
  });
  p.stderr.on('data', (b: Buffer) => {
    if (err.length < 64 * 1024) err += b.toString('utf8');
  });
  const timer = setTimeout(() => {
    timedOut = true;
    p.kill();
  }, opts.deadlineMs);
  p.stdin.end(opts.stdin ?? '');
  const exit = await p.exit;
  clearTimeout(timer);
  return {
    ...exit,
    stdout: Buffer.concat(out).subarray(0, max),
    stderr: err,
    timedOut,
  };
}
