// Starts and stops one private containerd as a child process. It runs as
// `/usr/bin/containerd --config <lab>/config.toml`, so a scanner finds it in the process table
// the same way it finds a node's containerd.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
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

export async function startContainerd(p: LabPaths, readyTimeoutMs = 15_000): Promise<ContainerdProcess> {
  const logFd = openSync(p.containerdLog, 'a');
  const child = spawn('containerd', ['--config', p.configPath], { stdio: ['ignore', logFd, logFd] });
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
      const timedOut = await Promise.race([exitPromise.then(() => false), sleep(graceMs).then(() => true)]);
      if (timedOut && !exited) {
        child.kill('SIGKILL');
        await exitPromise;
      }
    },
  };

  // Ready = the socket answers `ctr version` (works whether or not the CRI plugin is loaded).
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`containerd exited during start (${exitInfo}); log tail:\n${logTail(p)}`);
    const r = await run('ctr', ['-a', p.socket, 'version'], 2000);
    if (r.code === 0) return handle;
    await sleep(50);
  }
  await handle.stop('SIGKILL');
  throw new Error(`containerd not ready after ${readyTimeoutMs} ms; log tail:\n${logTail(p)}`);
}

export function logTail(p: LabPaths, lines = 30): string {
  try {
    return readFileSync(p.containerdLog, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
