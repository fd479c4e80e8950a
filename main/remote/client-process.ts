/**
 * How a client program that reaches a node is run: tied to this process's life (setpriv), and
 * wrapped as the NodeProcess every transport hands out. No runtime import of child_process.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { NodeProcess, ProcessExit } from './transport';

/**
 * On Linux, clients run under `setpriv --pdeathsig KILL`: when this process dies (a killed
 * command), the kernel kills its exec clients too, instead of leaving `podman exec`, ssh or
 * kubectl waiting on a hung node for ever (red-team B3).
 */
const SETPRIV = '/usr/bin/setpriv';
let setpriv: boolean | undefined;
export function tiedToUs(command: string, args: readonly string[]): [string, string[]] {
  setpriv ??= process.platform === 'linux' && existsSync(SETPRIV);
  return setpriv
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]]
    : [command, [...args]];
}

/**
 * After the client has exited, how long its output may take to end. A client can hand its pipes
 * to another process that outlives it — ssh's mux client passes them to the master, which holds
 * them for as long as the node's program runs — so exit is not waited on for ever.
 */
const OUTPUT_GRACE_MS = 2000;

/**
 * A started client (docker, ssh, kubectl) as a NodeProcess. Apart from spawnClient so that the
 * launcher can start the node agent's client before the CLI bundle loads (early-agent.ts)
 * without loading child_process for every command.
 */
export function wrapClient(child: ChildProcessWithoutNullStreams, command: string): NodeProcess {
  const exit = new Promise<ProcessExit>((resolve) => {
    child.once('error', (e) => {
      // The client itself is missing or not executable: surface it on stderr like the tool would.
      child.stderr.emit('data', Buffer.from(`${command}: ${e.message}\n`));
      resolve({ code: 127, signal: null });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('exit', (code, signal) => {
      const grace = setTimeout(() => {
        for (const s of [child.stdin, child.stdout, child.stderr]) s.destroy();
        resolve({ code, signal });
      }, OUTPUT_GRACE_MS);
      grace.unref();
    });
  });
  // A node that hangs up early must not crash us with EPIPE on the write side.
  child.stdin.on('error', () => undefined);
  return {
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exit,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    detach: () => {
      child.unref();
      for (const s of [child.stdin, child.stdout, child.stderr])
        (s as unknown as { unref?: () => void }).unref?.();
    },
  };
}

/** How long a client may take to exit after its program's input ended before it is killed. */
export const CLIENT_TEARDOWN_MS = 5000;

/**
 * Ends a program by closing its input (socat and the agent end on EOF), then lets its client exit
 * by itself, cleaning up on the node as it goes; killed only past CLIENT_TEARDOWN_MS. The timer
 * goes with the exit, so a client that is done does not keep this process alive.
 */
export function endProgram(p: NodeProcess, teardownMs = CLIENT_TEARDOWN_MS): void {
  p.stdin.end();
  const timer = setTimeout(() => p.kill(), teardownMs);
  void p.exit.then(() => clearTimeout(timer));
}
