/**
 * Where the tests and the benchmark find PowerShell 7 and Pester (scripts/setup-powershell.sh
 * installs both: pwsh as a .NET global tool in ~/.dotnet/tools, Pester restored from NuGet into
 * node_modules/.cache/pester). CNI_DOCTOR_PWSH names another pwsh.
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const MOCK_NODE_DIR = join(REPO_ROOT, 'main', 'host', 'windows', 'testing', 'mock-node');
export const SCRIPTS_DIR = join(REPO_ROOT, 'main', 'host', 'windows', 'scripts');

const SETUP_HINT =
  'run scripts/setup-powershell.sh (installs PowerShell 7.6 and Pester from NuGet)';

export function pwshPath(): string {
  const candidates = [
    process.env.CNI_DOCTOR_PWSH,
    join(homedir(), '.dotnet', 'tools', 'pwsh'),
    join(process.env.DOTNET_CLI_HOME ?? homedir(), '.dotnet', 'tools', 'pwsh'),
  ];
  for (const c of candidates) if (c && existsSync(c)) return c;
  throw new Error(`PowerShell 7 (pwsh) not found in ~/.dotnet/tools: ${SETUP_HINT}`);
}

/** Pester.psd1 of the restored package (the newest version there). */
export function pesterModulePath(): string {
  const base = join(REPO_ROOT, 'node_modules', '.cache', 'pester', 'pester');
  const versions = existsSync(base) ? readdirSync(base).sort() : [];
  const newest = versions[versions.length - 1];
  const psd1 = newest && join(base, newest, 'tools', 'Pester.psd1');
  if (!psd1 || !existsSync(psd1)) throw new Error(`Pester not found: ${SETUP_HINT}`);
  return psd1;
}

/** A PowerShell single-quoted literal (for paths the tests put into pwsh command lines). */
export function psQuote(s: string): string {
  return `'${s.replace(/['\u2018\u2019\u201a\u201b]/g, '$&$&')}'`;
}
