/**
 * Where the system programs cni-doctor starts live, from fixed system locations — never looked up
 * on PATH. An elevation helper found on PATH is whatever the first writable directory on the
 * user's PATH holds: a program planted there would be run instead, and under pkexec or UAC it
 * would run as root or Administrator.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** A Windows folder from the environment only when it is a plain absolute path. */
function windowsDir(value: string | undefined, fallback: string): string {
  return value !== undefined && /^[A-Za-z]:\\[^"<>|*?\r\n]*$/.test(value) ? value : fallback;
}

/** Windows PowerShell 5.1, which every supported Windows has in System32. */
export function windowsPowerShellPath(env: Env = process.env): string {
  const root = windowsDir(env.SystemRoot, 'C:\\Windows');
  return path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

/** PowerShell 7 as its installer places it. */
export function pwshWindowsPath(env: Env = process.env): string {
  const programFiles = windowsDir(env.ProgramFiles, 'C:\\Program Files');
  return path.win32.join(programFiles, 'PowerShell', '7', 'pwsh.exe');
}

/** polkit's pkexec in the locations distributions install it (merged /usr first). */
export const PKEXEC_LOCATIONS = ['/usr/bin/pkexec', '/bin/pkexec'] as const;

export function pkexecPath(exists: (p: string) => boolean = existsSync): string | undefined {
  return PKEXEC_LOCATIONS.find((p) => exists(p));
}
