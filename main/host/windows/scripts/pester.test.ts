/**
 * Runs every Pester test under main/host/windows (*.Tests.ps1) in the real PowerShell 7 and fails
 * on any Pester failure. Every script the product ships (scripts/*.ps1) must have its own
 * <name>.Tests.ps1 that ran and passed tests.
 *
 * As root, pwsh runs without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH (setpriv), so a file with mode
 * 000 is really "access denied" to the collection script, as it is to an unprivileged user.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pesterModulePath, psQuote, pwshPath, REPO_ROOT, SCRIPTS_DIR } from '../testing/pwsh';

interface PesterSummary {
  passed: number;
  failed: number;
  skipped: number;
  notRun: number;
  failedBlocks: number;
  failedContainers: number;
  containers: { path: string; result: string; passed: number }[];
  failures: string[];
}

function runPester(dir: string): Promise<PesterSummary> {
  const script = [
    "$ErrorActionPreference = 'Stop'",
    `Import-Module ${psQuote(pesterModulePath())}`,
    '$c = New-PesterConfiguration',
    `$c.Run.Path = @(${psQuote(dir)})`,
    '$c.Run.PassThru = $true',
    "$c.Output.Verbosity = 'None'",
    '$r = Invoke-Pester -Configuration $c',
    '$failures = @($r.Failed | ForEach-Object { $_.ExpandedPath + ": " + (($_.ErrorRecord | ForEach-Object { $_.ToString() }) -join "; ") })',
    '$failures += @($r.FailedBlocks | ForEach-Object { "block " + $_.Path -join "." + ": " + (($_.ErrorRecord | ForEach-Object { $_.ToString() }) -join "; ") })',
    '$failures += @($r.FailedContainers | ForEach-Object { "container " + $_.Item + ": " + (($_.ErrorRecord | ForEach-Object { $_.ToString() }) -join "; ") })',
    '$containers = @($r.Containers | ForEach-Object { [ordered]@{ path = [string]$_.Item; result = [string]$_.Result; passed = $_.PassedCount } })',
    '$summary = [ordered]@{ passed = $r.PassedCount; failed = $r.FailedCount; skipped = $r.SkippedCount; notRun = $r.NotRunCount; failedBlocks = $r.FailedBlocksCount; failedContainers = $r.FailedContainersCount; containers = $containers; failures = $failures }',
    "[Console]::Out.WriteLine('PESTER-SUMMARY ' + (ConvertTo-Json -InputObject $summary -Depth 5 -Compress))",
  ].join('\n');
  const pwsh = pwshPath();
  const args = ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', script];
  const dropDac = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');
  const [file, argv] = dropDac
    ? [
        '/usr/bin/setpriv',
        ['--bounding-set', '-dac_override,-dac_read_search', '--', pwsh, ...args],
      ]
    : [pwsh, args];
  return new Promise((resolve, reject) => {
    execFile(
      file,
      argv,
      // A ceiling for a hung pwsh, not a speed bound: the run takes ~45 s under CI's two CPU
      // hogs, and took over 240 s at load average 60 on the shared 2-core machine.
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 540_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith('PESTER-SUMMARY '));
        if (!line) {
          reject(new Error(`Pester did not report (${String(error)}):\n${stdout}\n${stderr}`));
          return;
        }
        resolve(JSON.parse(line.slice('PESTER-SUMMARY '.length)) as PesterSummary);
      },
    );
  });
}

describe('Pester, in the real PowerShell 7', () => {
  it('every Pester test under main/host/windows passes, and every shipped script has its own', async () => {
    const r = await runPester(join(REPO_ROOT, 'main', 'host', 'windows'));
    expect(r.failures, r.failures.join('\n')).toEqual([]);
    expect([r.failed, r.failedBlocks, r.failedContainers, r.notRun]).toEqual([0, 0, 0, 0]);
    const shipped = readdirSync(SCRIPTS_DIR).filter(
      (f) => /\.ps1$/i.test(f) && !/\.Tests\.ps1$/i.test(f),
    );
    expect(shipped.length).toBeGreaterThanOrEqual(2);
    for (const script of shipped) {
      const tests = script.replace(/\.ps1$/i, '.Tests.ps1');
      const container = r.containers.find((c) => c.path.endsWith(`/${tests}`));
      expect(container, `${script} has no ${tests} that ran`).toBeDefined();
      expect(container?.result).toBe('Passed');
      expect(container?.passed ?? 0, `${tests} passed no test`).toBeGreaterThan(0);
    }
    console.log(
      `Pester: ${r.passed} passed (${r.containers.map((c) => `${c.path.slice(REPO_ROOT.length)}: ${c.passed}`).join(', ')})`,
    );
  }, 600_000);
});
