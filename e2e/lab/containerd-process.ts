// Starts and stops one private containerd as a child process. It runs as
// `/usr/bin/containerd --config <lab>/config.toml`, so a scanner finds it in the process table
// the same way it finds a node's containerd.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { run, sleep } from './exec';
import type { LabPaths } from './paths';

export interface ContainerdProcess {
  readonly pid: number;
  readonly exited: boolean;
  /** Sends a signal and waits up to `graceMs` for exit, then SIGKILLs. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
// Safety net for a crashed test run: never leave a lab containerd running after the runner exits.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function startContainerd(
  p: LabPaths,
  // Far above the normal case (~0.5 s): on a loaded machine containerd is slow, not broken.
  readyTimeoutMs = 60_000,
): Promise<ContainerdProcess> {
  const logFd = openSync(p.containerdLog, 'a');
  const child = spawn('containerd', ['--config', p.configPath], {
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  live.add(child);
  let exited = false;
  let exitInfo = '';
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      exitInfo = `code ${code ?? '-'} signal ${signal ?? '-'}`;
      live.delete(child);
      resolve();
    }),
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('containerd did not start (spawn failed)');

  const handle: ContainerdProcess = {
    pid,
    get exited() {
      return exited;
    },
    async stop(signal = 'SIGTERM', graceMs = 5000) {
      if (exited) return;
      child.kill(signal);
      const timedOut = await Promise.race([
        exitPromise.then(() => false),
        sleep(graceMs).then(() => true),
      ]);
      if (timedOut && !exited) {
        child.kill('SIGKILL');
        await exitPromise;
      }
    },
  };

  // Ready = the socket accepts connections and answers `ctr version` (which works whether or not
  // the CRI plugin is loaded). Probe with a plain connect first: ctr blocks for 10 s on a missing
  // or refusing socket, which would hide a containerd that exits at once on a bad config.
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exited)
      throw new Error(`containerd exited during start (${exitInfo}); log tail:\n${logTail(p)}`);
    if (await accepts(p.socket)) {
      const r = await run('ctr', ['--connect-timeout', '2s', '-a', p.socket, 'version'], 5000);
      if (r.code === 0) return handle;
    }
    await sleep(25);
  }
  await handle.stop('SIGKILL');
  throw new Error(
    `still waiting, after ${readyTimeoutMs} ms, for containerd to accept connections on ${p.socket} and answer ctr version; log tail:\n${logTail(p)}`,
  );
}

function accepts(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(socket);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export function logTail(p: LabPaths, lines = 30): string {
  try {
    return readFileSync(p.containerdLog, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
