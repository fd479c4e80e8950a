import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PowerShellSession } from './powershell-session';
import { PowerShell } from 'node-powershell';
import { pinnedShellClass } from './pinned-shell';

const FAKE = fileURLToPath(new URL('./testing/fake-pwsh.mjs', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}

const sessions: PowerShellSession[] = [];
function session(): PowerShellSession {
  const s = new PowerShellSession({ executable: FAKE, startDeadlineMs: 10_000 });
  sessions.push(s);
  return s;
}

beforeAll(() => {
  // git may not keep the executable bit everywhere; the stand-in is spawned directly.
  chmodSync(FAKE, 0o755);
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose()));
});

describe('PowerShellSession against the stand-in shell', () => {
  it('returns stdout of a script and starts the shell with -NoProfile -NonInteractive -Command -', async () => {
    const s = session();
    const r = await s.run(
      "Write-Output 'hello'\nWrite-Output 'wörld ☃'\n[Environment]::GetCommandLineArgs()",
      { deadlineMs: 5000 },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['hello', 'wörld ☃']);
    expect(lines).toContain('-NoProfile');
    expect(lines).toContain('-NonInteractive');
    expect(lines.slice(-2)).toEqual(['-Command', '-']);
    expect(r.stderr).toBeUndefined();
  });

  it('keeps one long-lived shell across calls', async () => {
    const s = session();
    const a = await s.run('$PID', { deadlineMs: 5000 });
    const b = await s.run('$PID', { deadlineMs: 5000 });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.stdout).toBe(b.stdout);
    expect(Number(a.stdout)).toBe(s.pid);
    expect(s.shellsStarted).toBe(1);
  });

  it('kills a hung call at its deadline, then answers the next call from a new shell', async () => {
    const s = session();
    const first = await s.run('$PID', { deadlineMs: 5000 });
    const pid = s.pid;
    expect(first.ok).toBe(true);
    expect(pid).toBeTypeOf('number');
    // A 10-minute sleep: unless the deadline kills it, the test's own timeout (30 s) fails it.
    const hung = await s.run('Start-Sleep -Milliseconds 600000', { deadlineMs: 300 });
    expect(hung).toMatchObject({ ok: false, kind: 'timeout' });
    // Actually killed, not just abandoned (node-powershell's invocationTimeout leaves it running).
    expect(await waitFor(() => !alive(pid ?? 0), 3000)).toBe(true);

    const next = await s.run("Write-Output 'after'", { deadlineMs: 5000 });
    expect(next).toEqual({ ok: true, stdout: 'after' });
    expect(s.shellsStarted).toBe(2);
    expect(s.pid).not.toBe(pid);
  });

  it('does not let a late answer of a killed call leak into the next call', async () => {
    const s = session();
    const hung = await s.run("Start-Sleep -Milliseconds 400\nWrite-Output 'late'", {
      deadlineMs: 100,
    });
    expect(hung).toMatchObject({ ok: false, kind: 'timeout' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await s.run("Write-Output 'fresh'", { deadlineMs: 5000 })).toEqual({
      ok: true,
      stdout: 'fresh',
    });
  });

  it('reports stderr as a failure by default, without crashing or losing the shell', async () => {
    const s = session();
    const r = await s.run("Write-Output 'partial'\nWrite-Error 'Get-HnsNetwork : access denied'", {
      deadlineMs: 5000,
    });
    expect(r).toEqual({ ok: false, kind: 'stderr', message: 'Get-HnsNetwork : access denied' });
    const again = await s.run("Write-Output 'ok'", { deadlineMs: 5000 });
    expect(again).toEqual({ ok: true, stdout: 'ok' });
    expect(s.shellsStarted).toBe(1);
  });

  it('returns stdout and stderr side by side when the call allows stderr', async () => {
    const s = session();
    const r = await s.run("Write-Output '{\"a\":1}'\nWrite-Error 'hnsdiag usage: ...'", {
      deadlineMs: 5000,
      stderr: 'allow',
    });
    expect(r).toEqual({ ok: true, stdout: '{"a":1}', stderr: 'hnsdiag usage: ...' });
  });

  it('reports the shell exiting mid-call (non-zero code) and recovers', async () => {
    const s = session();
    await s.run('$PID', { deadlineMs: 5000 });
    const r = await s.run("Write-Output 'bye'\nexit 3", { deadlineMs: 5000 });
    expect(r).toMatchObject({ ok: false, kind: 'exit' });
    expect(await s.run("Write-Output 'back'", { deadlineMs: 5000 })).toEqual({
      ok: true,
      stdout: 'back',
    });
    expect(s.shellsStarted).toBe(2);
  });

  it('reports the shell exiting mid-call with code 0 (node-powershell would return an empty success)', async () => {
    const s = session();
    const r = await s.run('exit 0', { deadlineMs: 5000 });
    expect(r).toMatchObject({ ok: false, kind: 'exit' });
    expect(await s.run("Write-Output 'back'", { deadlineMs: 5000 })).toEqual({
      ok: true,
      stdout: 'back',
    });
  });

  it('starts a new shell when the old one died between calls', async () => {
    const s = session();
    await s.run('$PID', { deadlineMs: 5000 });
    const pid = s.pid ?? 0;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => s.pid === undefined, 3000);
    expect(await s.run("Write-Output 'new'", { deadlineMs: 5000 })).toEqual({
      ok: true,
      stdout: 'new',
    });
    expect(s.shellsStarted).toBe(2);
  });

  it('runs concurrent calls one after another, each with its own deadline', async () => {
    const s = session();
    const slow = s.run("Start-Sleep -Milliseconds 300\nWrite-Output 'slow'", { deadlineMs: 5000 });
    const quick = s.run("Write-Output 'quick'", { deadlineMs: 200 });
    expect(await slow).toEqual({ ok: true, stdout: 'slow' });
    // Its 200 ms did not run out while it waited behind the slow call.
    expect(await quick).toEqual({ ok: true, stdout: 'quick' });
  });

  it('carries large and non-ASCII output intact', async () => {
    const s = session();
    const r = await s.run("[Console]::Out.Write('é' * 300000)", { deadlineMs: 10_000 });
    expect(r.ok && r.stdout.length).toBe(300000);
    expect(r.ok && r.stdout === 'é'.repeat(300000)).toBe(true);
  });

  it('fails cleanly when the executable does not exist', async () => {
    const s = new PowerShellSession({
      executable: '/nonexistent/pwsh-missing',
      startDeadlineMs: 5000,
    });
    sessions.push(s);
    const r = await s.run("Write-Output 'x'", { deadlineMs: 5000 });
    expect(r).toMatchObject({ ok: false, kind: 'exit' });
    expect(r.ok ? '' : r.message).toMatch(/ENOENT|exited/);
  });
});

describe('output framing with Windows line endings', () => {
  it('completes calls whose delimiter lines arrive coalesced with CRLF', async () => {
    const prev = process.env.FAKE_PWSH_NEWLINE;
    process.env.FAKE_PWSH_NEWLINE = 'crlf';
    try {
      const s = session();
      // No stderr output: both stderr delimiters arrive in one read, the case that hangs stock framing.
      const r = await s.run("Write-Output 'x'", { deadlineMs: 3000 });
      expect(r).toEqual({ ok: true, stdout: 'x' });
    } finally {
      if (prev === undefined) delete process.env.FAKE_PWSH_NEWLINE;
      else process.env.FAKE_PWSH_NEWLINE = prev;
    }
  });

  it('documents why: stock WriteLine framing never completes in that case', async () => {
    const Pinned = pinnedShellClass(FAKE);
    // A subclass that restores node-powershell's stock CRLF-sensitive framing: its writer, and
    // child-shell's reader (pinned-shell.ts replaces it with a linear one, which would find the
    // delimiter anyway).
    class Stock extends Pinned {
      protected override writeToOutput(input: string): string {
        return `[Console]::Out.WriteLine("${input}")`;
      }
      protected override writeToError(input: string): string {
        return `[Console]::Error.WriteLine("${input}")`;
      }
    }
    Object.defineProperty(Stock.prototype, 'readBulkFromOutput', {
      value: (PowerShell.prototype as unknown as { readBulkFromOutput: unknown })
        .readBulkFromOutput,
    });
    const start = (newline: 'lf' | 'crlf'): { settled: () => boolean; done: Promise<void> } => {
      const shell = new Stock({
        throwOnInvocationError: false,
        spawnOptions: { env: { ...process.env, FAKE_PWSH_NEWLINE: newline } },
      });
      let settled = false;
      const done = shell.invoke('$PID').then(
        () => void (settled = true),
        () => void (settled = true),
      );
      shells.push(shell);
      return { settled: () => settled, done };
    };
    const shells: InstanceType<typeof Stock>[] = [];
    try {
      // Both shells start together; the LF one answering is the baseline for how long an
      // answer takes on this machine now. The CRLF one gets that long again and more, and must
      // still be waiting (no fixed deadline, so a loaded machine cannot fail it).
      const started = performance.now();
      const crlf = start('crlf');
      const lf = start('lf');
      await lf.done;
      const answerMs = performance.now() - started;
      await new Promise((r) => setTimeout(r, Math.max(2 * answerMs, 500)));
      expect(lf.settled()).toBe(true);
      expect(crlf.settled()).toBe(false);
    } finally {
      await Promise.all(shells.map((sh) => sh.dispose('SIGKILL').catch(() => undefined)));
    }
  });
});
