/**
 * The session wrapper against the REAL PowerShell 7 (node-powershell + pwsh 7.6), not the stand-in
 * shell: deadline and respawn, the stderr policy, CRLF framing, a 50 MB HNS-sized answer, calls
 * made concurrently, a shell that exits mid-call.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PowerShellSession } from './powershell-session';
import { pwshPath } from './testing/pwsh';

// Ceilings, not measures: a start and a call take a second or two alone; a respawn and its call
// ran past 60 s in an `npm test` at load 45 (the other lanes beside it).
const session = new PowerShellSession({ executable: pwshPath(), startDeadlineMs: 240_000 });
afterAll(() => session.dispose());
const CALL = { deadlineMs: 240_000 };

describe('PowerShellSession with the real pwsh', () => {
  it('runs a script in a long-lived shell; scripts do not leak variables into the next call', async () => {
    const a = await session.run('$x = 41; [Console]::Out.Write($x + 1)', CALL);
    expect(a).toEqual({ ok: true, stdout: '42' });
    const pid = session.pid;
    expect(pid).toBeGreaterThan(0);
    const b = await session.run('[Console]::Out.Write([string]($null -eq $x))', CALL);
    expect(b).toEqual({ ok: true, stdout: 'True' });
    expect(session.pid).toBe(pid);
  }, 600_000);

  it('stderr: fails the call by default, is returned beside stdout with allow; the shell lives on', async () => {
    const pid = session.pid;
    const script = "Write-Error 'HNS said no'; [Console]::Out.Write('partial')";
    const failed = await session.run(script, CALL);
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.kind).toBe('stderr');
    expect(!failed.ok && failed.message).toContain('HNS said no');
    // NO_COLOR and TERM=dumb: the message is plain text.
    expect(!failed.ok && failed.message.includes(String.fromCharCode(27))).toBe(false);
    const allowed = await session.run(script, { ...CALL, stderr: 'allow' });
    expect(allowed.ok && allowed.stdout).toBe('partial');
    expect(allowed.ok && allowed.stderr).toContain('HNS said no');
    expect(session.pid).toBe(pid);
  }, 600_000);

  it('CRLF line endings (as on Windows): calls with and without output still complete', async () => {
    await session.run('[Console]::Out.NewLine = "`r`n"; [Console]::Error.NewLine = "`r`n"', CALL);
    const empty = await session.run('$null = 1', { deadlineMs: 20_000 });
    expect(empty).toEqual({ ok: true, stdout: '' });
    const line = await session.run(
      "[Console]::Out.WriteLine('a'); [Console]::Out.WriteLine('b')",
      CALL,
    );
    // node-powershell trims the last line break; the CRLF inside is kept as written.
    expect(line).toEqual({ ok: true, stdout: 'a\r\nb' });
    const err = await session.run("[Console]::Error.WriteLine('warn')", {
      deadlineMs: 20_000,
      stderr: 'allow',
    });
    expect(err.ok && err.stderr).toBe('warn');
  }, 600_000);

  it('a 50 MB HNS answer arrives whole and parses', async () => {
    const n = 600_000; // ~50 MB of endpoint objects
    const script = [
      '$one = \'{"ID":"6f3ee8f0-5fb4-4bd3-9d9c-3e43fa1f0e9c","Name":"ep","IPAddress":"10.244.1.7","State":3},\'',
      `[Console]::Out.Write('{"Success":true,"Output":[' + ($one * ${n}) + '{}]}')`,
    ].join('\n');
    // About 15 s on this machine with a load of 25; CI under a load of 50 ran past 240 s.
    const r = await session.run(script, { deadlineMs: 600_000 });
    expect(r.ok, r.ok ? '' : `${r.kind}: ${r.message.slice(0, 300)}`).toBe(true);
    if (!r.ok) return;
    expect(r.stdout.length).toBeGreaterThan(50_000_000);
    const doc = JSON.parse(r.stdout) as { Output: unknown[] };
    expect(doc.Output.length).toBe(n + 1);
  }, 660_000);

  it('concurrent calls run one after another, each with its own output and its own deadline', async () => {
    const slow = session.run("Start-Sleep -Seconds 6; [Console]::Out.Write('slow')", CALL);
    // Each waits behind the slow call longer than its own deadline: the deadline starts when it
    // runs. 5 s is still far above what one Write takes, even on a loaded machine (a few ms).
    const quick = Array.from({ length: 5 }, (_, i) =>
      session.run(`[Console]::Out.Write('q${i}')`, { deadlineMs: 5000 }),
    );
    const all = await Promise.all([slow, ...quick]);
    expect(all.map((r) => (r.ok ? r.stdout : r.kind))).toEqual([
      'slow',
      'q0',
      'q1',
      'q2',
      'q3',
      'q4',
    ]);
  }, 600_000);

  it('a call over its deadline kills the shell; the next call gets a fresh one; no late output leaks', async () => {
    const before = session.shellsStarted;
    const pid = session.pid;
    const hung = await session.run("Start-Sleep -Seconds 30; [Console]::Out.Write('late')", {
      deadlineMs: 2000,
    });
    expect(hung.ok).toBe(false);
    expect(!hung.ok && hung.kind).toBe('timeout');
    const next = await session.run("[Console]::Out.Write('fresh')", CALL);
    expect(next).toEqual({ ok: true, stdout: 'fresh' });
    expect(session.shellsStarted).toBe(before + 1);
    expect(session.pid).not.toBe(pid);
  }, 600_000);

  it('a script that exits the shell is kind exit; the next call respawns', async () => {
    const r = await session.run('exit 3', CALL);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.kind).toBe('exit');
    expect(await session.run("[Console]::Out.Write('back')", CALL)).toEqual({
      ok: true,
      stdout: 'back',
    });
  }, 600_000);
});
