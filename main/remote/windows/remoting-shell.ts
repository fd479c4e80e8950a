/**
 * Which local PowerShell can open a remote session of each kind, on the workstation cni-doctor runs
 * on, or exactly why none can (review of Windows remoting, docs/knowledge/windows-remoting.md):
 *
 * - pssession: (PowerShell over SSH) needs PowerShell 7: `New-PSSession -HostName/-UserName/
 *   -KeyFilePath/-Options` is the SSH parameter set added in PowerShell 6 (PowerShell-Docs
 *   reference/7.6 New-PSSession). Windows PowerShell 5.1 has none of them, so powershell.exe is
 *   never used for it; pwsh is looked for where its installers put it.
 * - winrm: needs a WSMan client, which only Windows has: "WSMan remoting isn't supported on
 *   non-Windows platforms" (PowerShell-Docs WSMan-Remoting-in-PowerShell.md). On Windows it is
 *   System32's powershell.exe (5.1, the one every Windows has).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { pwshWindowsPath, windowsPowerShellPath } from '../../host/system-executables';
import type { RemotingKind } from './powershell-remoting';

type Env = Readonly<Record<string, string | undefined>>;

export interface ShellLookup {
  platform: NodeJS.Platform;
  env: Env;
  home: string;
  exists: (p: string) => boolean;
}

export type ShellChoice = { ok: true; executable: string } | { ok: false; reason: string };

export const INSTALL_PWSH =
  "install PowerShell 7: `winget install --id Microsoft.PowerShell` on Windows, `brew install powershell` on macOS, Microsoft's packages on Linux (https://learn.microsoft.com/powershell/scripting/install/installing-powershell)";

function defaultLookup(): ShellLookup {
  return { platform: process.platform, env: process.env, home: homedir(), exists: existsSync };
}

/** Where PowerShell 7's installers put pwsh on Linux and macOS, then the PATH. */
export function unixPwshCandidates(env: Env, home: string): string[] {
  const fixed = [
    '/usr/bin/pwsh',
    '/usr/local/bin/pwsh',
    '/opt/microsoft/powershell/7/pwsh',
    '/snap/bin/pwsh',
    '/opt/homebrew/bin/pwsh',
    '/usr/local/microsoft/powershell/7/pwsh',
    path.posix.join(home, '.dotnet', 'tools', 'pwsh'),
  ];
  const onPath = (env.PATH ?? '')
    .split(':')
    .filter((d) => d.startsWith('/'))
    .map((d) => path.posix.join(d, 'pwsh'));
  return [...fixed, ...onPath];
}

function isWindowsPowerShell(executable: string): boolean {
  const base = path.win32.basename(path.posix.basename(executable)).toLowerCase();
  return base === 'powershell.exe' || base === 'powershell';
}

/**
 * The local shell for a remoting target. `explicit` is a shell the caller chose (tests, a flag);
 * it is still refused where it cannot work (powershell.exe for pssession).
 */
export function remotingShell(
  kind: RemotingKind,
  explicit?: string,
  look: ShellLookup = defaultLookup(),
): ShellChoice {
  if (kind === 'winrm') {
    if (look.platform !== 'win32')
      return {
        ok: false,
        reason:
          'winrm: targets work only from a Windows workstation: PowerShell on Linux and macOS has no working WSMan client ("WSMan remoting isn\'t supported on non-Windows platforms", Microsoft). Use pssession:[USER@]HOST[:PORT] instead (PowerShell over SSH: the node needs OpenSSH Server with pwsh as its powershell subsystem), or kubectl:NODE',
      };
    return { ok: true, executable: explicit ?? windowsPowerShellPath(look.env) };
  }
  if (explicit !== undefined) {
    if (isWindowsPowerShell(explicit))
      return {
        ok: false,
        reason: `pssession: targets need PowerShell 7 (pwsh), not Windows PowerShell 5.1 (${explicit}): its New-PSSession has no -HostName (SSH) parameter set; ${INSTALL_PWSH}`,
      };
    return { ok: true, executable: explicit };
  }
  const candidates =
    look.platform === 'win32'
      ? [pwshWindowsPath(look.env)]
      : unixPwshCandidates(look.env, look.home);
  const found = candidates.find((p) => look.exists(p));
  if (found !== undefined) return { ok: true, executable: found };
  return {
    ok: false,
    reason: `pssession: targets need PowerShell 7 (pwsh) on this machine, and none was found (looked in ${candidates.slice(0, look.platform === 'win32' ? 1 : 7).join(', ')}${look.platform === 'win32' ? '' : ' and the PATH'}); Windows PowerShell 5.1 cannot open SSH sessions. ${INSTALL_PWSH}`,
  };
}
