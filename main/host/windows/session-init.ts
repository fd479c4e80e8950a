/**
 * What a freshly spawned shell runs once, before any caller's script:
 * - UTF-8 output without a BOM: Windows PowerShell writes in the OEM code page otherwise and
 *   garbles localised HNS names (docs/knowledge/windows-hns.md#getting-json-out-reliably, docs/knowledge/windows-node.md#node-powershell). A shell without a console cannot set it,
 *   which is harmless because the collection script escapes non-ASCII anyway.
 * - No progress records: they slow cmdlets down and are of no use to a pipe.
 * - Modules only from folders that need Administrator to write, and PowerShell 7's folder only in
 *   PowerShell 7. The doctor's shell may run
 *   elevated; module auto-loading must not pick up a module an unprivileged user placed in
 *   Documents\WindowsPowerShell\Modules (first on the default PSModulePath).
 * - Finally the shell's process ID, which the session needs to kill the whole process tree on
 *   Windows when a call overruns its deadline.
 *
 * The stand-in shell used by the tests (testing/fake-pwsh.mjs) recognises these exact lines.
 */
export const SESSION_INIT_SCRIPT = [
  'try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }',
  "$global:ProgressPreference = 'SilentlyContinue'",
  // PowerShell 7's own module folder only in PowerShell 7: Windows PowerShell 5.1 could otherwise
  // auto-load a 7-only module from it (PowerShell-Docs about_PSModulePath).
  '$env:PSModulePath = @(@("$PSHOME\\Modules") + @(if ($PSVersionTable.PSEdition -eq \'Core\') { "$env:ProgramFiles\\PowerShell\\Modules" }) + @("$env:ProgramFiles\\WindowsPowerShell\\Modules", "$env:SystemRoot\\System32\\WindowsPowerShell\\v1.0\\Modules")) -join \';\'',
  '$PID',
].join('\n');

/** The PID the init script printed last, if it printed one. */
export function pidFromInitOutput(stdout: string): number | undefined {
  const lines = stdout.trim().split(/\r?\n/);
  const last = lines[lines.length - 1]?.trim() ?? '';
  return /^\d+$/.test(last) ? Number(last) : undefined;
}
