import { describe, expect, it } from 'vitest';
import { remotingShell, type ShellLookup } from './remoting-shell';

function look(platform: NodeJS.Platform, present: string[] = []): ShellLookup {
  return {
    platform,
    env: {
      PATH: '/usr/sbin:/usr/bin',
      ProgramFiles: 'C:\\Program Files',
      SystemRoot: 'C:\\Windows',
    },
    home: '/home/u',
    exists: (p) => present.includes(p),
  };
}

describe('the local shell for a remoting target (review B2, B3)', () => {
  it('winrm from Linux or macOS: refused, no WSMan client there, pssession suggested', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const r = remotingShell('winrm', undefined, look(platform, ['/usr/bin/pwsh']));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toMatch(/only from a Windows workstation/);
        expect(r.reason).toMatch(/no working WSMan client/);
        expect(r.reason).toMatch(/pssession:\[USER@\]HOST/);
      }
    }
  });

  it('winrm from Windows: System32 Windows PowerShell', () => {
    expect(remotingShell('winrm', undefined, look('win32'))).toEqual({
      ok: true,
      executable: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    });
  });

  it('pssession from Windows: PowerShell 7 where its installer puts it, never powershell.exe', () => {
    const pwsh = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    expect(remotingShell('pssession', undefined, look('win32', [pwsh]))).toEqual({
      ok: true,
      executable: pwsh,
    });
    const none = remotingShell('pssession', undefined, look('win32'));
    expect(none.ok).toBe(false);
    if (!none.ok) {
      expect(none.reason).toMatch(/need PowerShell 7 \(pwsh\)/);
      expect(none.reason).toMatch(/winget install --id Microsoft\.PowerShell/);
      expect(none.reason).not.toMatch(/powershell\.exe/);
    }
    const forced = remotingShell(
      'pssession',
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      look('win32'),
    );
    expect(forced.ok).toBe(false);
    if (!forced.ok) expect(forced.reason).toMatch(/no -HostName \(SSH\) parameter set/);
  });

  it("pssession from Linux/macOS: pwsh from the installers' places or the PATH; none: how to install", () => {
    expect(remotingShell('pssession', undefined, look('linux', ['/usr/bin/pwsh']))).toEqual({
      ok: true,
      executable: '/usr/bin/pwsh',
    });
    expect(
      remotingShell(
        'pssession',
        undefined,
        look('darwin', ['/usr/local/microsoft/powershell/7/pwsh']),
      ),
    ).toEqual({ ok: true, executable: '/usr/local/microsoft/powershell/7/pwsh' });
    const none = remotingShell('pssession', undefined, look('darwin'));
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.reason).toMatch(/brew install powershell/);
  });
});
