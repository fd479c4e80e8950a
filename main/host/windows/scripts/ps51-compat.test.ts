/**
 * Windows PowerShell 5.1 compatibility of everything cni-doctor runs in PowerShell, checked from
 * data kept in the repository (fixtures/ps51-compat: Microsoft's 5.1 command tables for Server
 * 2019/2022, the .NET Framework 4.7.2 and 4.8 reference assemblies, System.Management.Automation
 * 5.1): the node scripts and every PowerShell text the TypeScript builds (testing/ps51). Zero
 * findings; the planted cases show the check is not vacuous.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSources } from '../testing/ps51/check';
import { projectSources, PS7_ONLY_MARK, type PsSource } from '../testing/ps51/sources';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const planted = (text: string, target: '5.1' | '7' = '5.1'): PsSource => ({
  label: 'planted',
  text,
  origin: 'ps1',
  target,
});

describe('Windows PowerShell 5.1 compatibility (review point 4)', () => {
  it('every command, parameter, .NET type and member the project uses exists in 5.1: zero findings', async () => {
    const sources = projectSources(ROOT);
    const labels = sources.map((s) => s.label.replace(/:\d+$/, ''));
    // The scripts and the PowerShell the TypeScript builds at runtime.
    for (const f of [
      'main/host/windows/scripts/collect.ps1',
      'main/host/windows/scripts/repair-step.ps1',
      'main/host/windows/shell-command.ts',
      'main/host/windows/session-init.ts',
      'main/host/windows/build-script.ts',
      'main/remote/windows/powershell-remoting.ts',
      'main/repairs/state/windows-acl.ts',
      'main/repairs/services/powershell.ts',
    ])
      expect(labels, f).toContain(f);
    const r = await checkSources(sources);
    expect(r.findings, r.findings.join('\n')).toEqual([]);
    expect(r.sourcesChecked).toBeGreaterThanOrEqual(12);
    expect(r.inventory.commands.size).toBeGreaterThanOrEqual(20);
    expect(r.inventory.types.size).toBeGreaterThanOrEqual(40);
    expect(r.inventory.members.size).toBeGreaterThanOrEqual(80);
    // Both remoting texts were seen, each against its own PowerShell.
    expect(r.inventory.parameters).toContain('New-PSSession -ComputerName');
    expect(r.inventory.parameters).toContain('New-PSSession -Credential');
    expect(r.inventory.parameters).toContain('New-PSSession -HostName');
    expect(sources.some((s) => s.target === '7' && s.text.includes(PS7_ONLY_MARK))).toBe(true);
    expect(r.inventory.types).toContain('CniDoctor.Pipes.Listing');
    expect(r.inventory.members).toContain('System.Text.RegularExpressions.Regex::Replace(3)');
    expect(r.inventory.members).toContain('System.Diagnostics.ProcessStartInfo.UseShellExecute');
    console.log(
      `ps51-compat: ${r.sourcesChecked} sources, ${r.inventory.commands.size} commands, ${r.inventory.parameters.size} parameters, ${r.inventory.types.size} types, ${r.inventory.members.size} members, 0 findings`,
    );
  }, 300_000);

  it('finds each 7-only or missing construct in a planted script (not a vacuous pass)', async () => {
    const cases: Record<string, string> = {
      '&& chain': 'Get-Item x && Get-Item y',
      '?? operator': '$a = $b ?? 3',
      '?. operator': '$a = ${b}?.Name',
      $IsWindows: 'if ($IsWindows) { 1 }',
      '`u{} escape': '$a = "`u{2603}"',
      'ConvertFrom-Json -AsHashtable': '$x | ConvertFrom-Json -AsHashtable',
      'prefix -AsHash': '$x | ConvertFrom-Json -AsHash',
      'Get-Content -AsByteStream': 'Get-Content -Path x -AsByteStream',
      'ForEach-Object -Parallel': '1..3 | ForEach-Object -Parallel { $_ }',
      'Test-Json': 'Test-Json -Json $x',
      'New-PSSession -HostName (review B2)': '$p = @{}; $p.HostName = "h"; New-PSSession @p',
      '.NET Core type': '$d = [System.Text.Json.JsonDocument]::Parse($t)',
      '.NET Core static member': '[IO.Path]::GetRelativePath($a, $b)',
      '.NET Core string overload': "$s.Contains('x', [StringComparison]::Ordinal)",
      'constructor arity': '$e = New-Object System.Text.UTF8Encoding $true, $true, $true',
      'typed instance member': 'function f([string]$s) { $s.ReplaceLineEndings() }',
      'assembly not loaded': '[System.Web.HttpUtility]::UrlEncode($x)',
      'C# 6 for Add-Type':
        'Add-Type -TypeDefinition @\'\nnamespace N { public static class C { public static string F(string s) { return $"{s}"; } } }\n\'@',
      'unknown command': 'Get-Uptime',
    };
    for (const [name, text] of Object.entries(cases)) {
      const r = await checkSources([planted(text)]);
      expect(r.findings.length, `${name}: ${text}`).toBeGreaterThan(0);
    }
    // The same -HostName is fine where only PowerShell 7 runs it.
    const seven = await checkSources([
      planted(
        `${PS7_ONLY_MARK}\n$p = @{}; $p.HostName = 'h'; $p.KeyFilePath = 'k'; New-PSSession @p`,
        '7',
      ),
    ]);
    expect(seven.findings).toEqual([]);
    // And 5.1-clean text gives none.
    const clean = await checkSources([
      planted(
        "$x = '{}' | ConvertFrom-Json; ConvertTo-Json -InputObject $x -Depth 20 -Compress; [IO.File]::Exists('C:\\x')",
      ),
    ]);
    expect(clean.findings).toEqual([]);
  }, 300_000);
});
