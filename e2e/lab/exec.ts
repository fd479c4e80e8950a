// Runs a host command for the lab and returns its outcome instead of throwing, so teardown can
// keep going after one failure and report everything at the end.
import { execFile } from 'node:child_process';

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export function run(cmd: string, args: string[], timeoutMs = 30_000): Promise<ExecResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const ms = performance.now() - started;
        if (!err) return resolve({ code: 0, stdout, stderr, ms });
        const code = typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr: stderr || err.message, ms });
      },
    );
  });
}

/** Like run(), but throws with the command's stderr when it fails. */
export async function mustRun(
  cmd: string,
  args: string[],
  timeoutMs?: number,
): Promise<ExecResult> {
  const r = await run(cmd, args, timeoutMs);
  if (r.code !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
