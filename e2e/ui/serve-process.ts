/**
 * `node bin/cni-doctor.mjs serve --port 0 ARGS…` as a child process: the URL it prints (with its
 * token) and a stop function. The global setup starts one for every spec; a spec that needs the
 * door started another way (no node given, `--target`) starts its own.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startServe(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['bin/cni-doctor.mjs', 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`still waiting, after 60 s, for serve to print its URL: ${stderr}`)),
      60_000,
    );
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)$/m.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
