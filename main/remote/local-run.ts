/** Runs a local client program (docker, kubectl, ssh) to completion: argument vector, deadline. */
import { execFile } from 'node:child_process';

export interface LocalRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runLocal(
  cmd: string,
  args: readonly string[],
  timeoutMs: number,
  stdin?: string,
): Promise<LocalRun> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      [...args],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8', killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        if (!err) return resolve({ code: 0, stdout, stderr });
        const code =
          typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 127;
        resolve({ code, stdout, stderr: stderr || err.message });
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin ?? '');
  });
}
