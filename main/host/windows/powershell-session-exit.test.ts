import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FAKE = fileURLToPath(new URL('./testing/fake-pwsh.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./testing/session-exit-child.ts', import.meta.url));

describe('an idle PowerShell session', () => {
  it('does not keep the process alive after its last call (the CLI exits when the scan is done)', async () => {
    chmodSync(FAKE, 0o755);
    const started = Date.now();
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, FAKE], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (code) => {
        clearTimeout(kill);
        resolve({ code, out });
      });
    });
    expect(r).toEqual({ code: 0, out: 'done\n' });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
