/**
 * A stand-in for the kubelet's process: a shell that sleeps, started with argv[0] `kubelet` and
 * the kubelet's flags, so the doctor finds the runtime endpoint in the process table exactly as
 * on a real node. It never talks to anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface KubeletStandIn {
  pid: number;
  stop(): Promise<void>;
}

export async function startKubeletStandIn(flags: string[]): Promise<KubeletStandIn> {
  const child: ChildProcess = spawn(
    '/bin/sh',
    ['-c', 'trap "exit 0" TERM; while :; do sleep 1; done', ...flags],
    {
      argv0: '/usr/bin/kubelet',
      stdio: 'ignore',
      detached: true,
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  const pid = child.pid as number;
  return {
    pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          resolve();
        }
      }),
  };
}
