import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FAKE = fileURLToPath(new URL('./testing/fake-pwsh.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./testing/session-exit-child.ts', import.meta.url));

describe('an idle PowerShell session', () => {
  it('does not keep the process alive after its last call (the CLI exits when the scan is done)', async () => {
    chmodSync(FAKE, 0o755);
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, FAKE], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      // Far above the normal case (well under a second): only a child that never ends is killed.
      const kill = setTimeout(() => child.kill('SIGKILL'), 50_000);
      child.on('exit', (code) => {
        clearTimeout(kill);
        resolve({ code, out });
      });
    });
    // Killed (code null) means the idle session held the process open for 50 s.
    expect(r).toEqual({ code: 0, out: 'done\n' });
  }, 60_000);
});
