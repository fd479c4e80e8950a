import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('./testing/hold-debug-pod.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cnd-kubectl-signal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in kubectl that logs each verb (the word after --namespace NS). */
function fakeKubectl(log: string): string {
  const fake = join(dir, `kubectl-${Math.random().toString(16).slice(2)}`);
  writeFileSync(
    fake,
    `#!/bin/sh\necho "$3" >> ${log}\n[ "$3" = create ] && { cat >/dev/null; echo pod/x; }\nexit 0\n`,
  );
  chmodSync(fake, 0o755);
  return fake;
}

async function interrupted(signal: 'SIGINT' | 'SIGTERM') {
  const log = join(dir, `${signal}.log`);
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, fakeKubectl(log)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Waits for "ready" (the pod is created and Ready), then interrupts.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.once('exit', () => reject(new Error('the holder exited before it was ready')));
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill(signal);
  const code = await exited;
  return { code, verbs: readFileSync(log, 'utf8').trim().split('\n') };
}

describe('a debug pod is deleted when the doctor is interrupted', () => {
  it('SIGTERM: deletes the pod, then exits 143', async () => {
    const r = await interrupted('SIGTERM');
    expect(r.verbs).toEqual(['create', 'wait', 'delete']);
    expect(r.code).toBe(143);
  }, 60_000);

  it('SIGINT (Ctrl+C): deletes the pod, then exits 130', async () => {
    const r = await interrupted('SIGINT');
    expect(r.verbs).toEqual(['create', 'wait', 'delete']);
    expect(r.code).toBe(130);
  }, 60_000);
});
