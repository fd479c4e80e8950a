/**
 * collect.ps1 itself in the real PowerShell 7, on a mocked node with 5,000 HNS endpoints and
 * 20,000 policy lists (bench/windows-node.ts), side by side with `ConvertFrom-Json |
 * ConvertTo-Json` of the same HNS lists' JSON text in the same shell (what turning HNS's JSON
 * into objects and back costs; Windows PowerShell 5.1 is slower still, docs/knowledge/windows-hns.md#getting-json-out-reliably).
 *
 * The HNS cmdlets' own cost is excluded: the mock node parses the lists once at install, before
 * the clock starts; its HNSCall and module cmdlets then hand out what they hold. Each figure is
 * one fresh pwsh process: after setup it collects garbage, resets the peak RSS
 * (/proc/self/clear_refs), runs, and reports wall time, the peak RSS above the start and the bytes
 * the CLR allocated. Three runs:
 *   - collect.ps1 as shipped: HNS read through HNSCall, passed through as text;
 *   - collect.ps1 on a node without HNSCall: the module's objects serialised with ConvertTo-Json
 *     (what the script did before, and still does as a fallback);
 *   - ConvertFrom-Json | ConvertTo-Json of the lists' text.
 *   node --import tsx bench/powershell-collect.bench.ts
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MOCK_NODE_DIR, pwshPath, SCRIPTS_DIR } from '../main/host/windows/testing/pwsh';
import { makeWindowsBundle } from './windows-node';

export interface PwshFigure {
  label: string;
  ms: number;
  peakMiB: number;
  allocatedMiB: number;
  outputMiB: number;
}

export interface PwshCollectBenchResult {
  endpoints: number;
  policyLists: number;
  hnsMiB: number;
  figures: PwshFigure[];
}

const DRIVER = String.raw`
param($Mode, $SpecPath, $HnsPath, $Collect, $MockModule, $NodeScript)
$ErrorActionPreference = 'Stop'
Import-Module $MockModule
. $NodeScript
Install-MockWindowsNode -SpecPath $SpecPath
$text = [IO.File]::ReadAllText($HnsPath)
function Get-Rss([string]$Field) {
    $line = @(Get-Content /proc/self/status | Where-Object { $_ -like ($Field + ':*') })[0]
    return [long]($line -replace '[^0-9]', '') * 1024
}
[GC]::Collect(); [GC]::WaitForPendingFinalizers(); [GC]::Collect()
[IO.File]::WriteAllText('/proc/self/clear_refs', '5')
$rss0 = Get-Rss 'VmRSS'
$alloc0 = [GC]::GetTotalAllocatedBytes($true)
$watch = [Diagnostics.Stopwatch]::StartNew()
if ($Mode -eq 'floor') {
    $out = ConvertTo-Json -InputObject ($text | ConvertFrom-Json) -Depth 20 -Compress
    $outLength = $out.Length
} else {
    $r = Invoke-NodeScript -Path $Collect -Raw -Payload @{ sections = @('hns'); hnsTimeoutMs = 600000 }
    if ($r.Thrown) { throw $r.Thrown }
    if ($r.Stdout -notmatch '"result":"4 of 4 lists read"') { throw ('HNS not read: ' + $r.Stdout.Substring(0, 300)) }
    $outLength = $r.Stdout.Length
}
$ms = $watch.Elapsed.TotalMilliseconds
$alloc = [GC]::GetTotalAllocatedBytes($true) - $alloc0
$peak = (Get-Rss 'VmHWM') - $rss0
[Console]::Out.WriteLine('BENCH ' + (ConvertTo-Json -Compress -InputObject @{ ms = $ms; peak = $peak; allocated = $alloc; output = $outLength }))
`;

function runDriver(driver: string, args: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    execFile(
      pwshPath(),
      ['-NoLogo', '-NoProfile', '-NonInteractive', '-File', driver, ...args],
      { maxBuffer: 16 * 1024 * 1024, timeout: 1_200_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith('BENCH '));
        if (!line) reject(new Error(`pwsh bench failed: ${String(error)}\n${stderr}\n${stdout}`));
        else resolve(JSON.parse(line.slice(6)) as Record<string, number>);
      },
    );
  });
}

const MiB = (n: number | undefined): number => (n ?? 0) / 1048576;

export async function runPwshCollectBench(
  opts = { endpoints: 5000, policyLists: 20000 },
): Promise<PwshCollectBenchResult> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cnd-pwsh-bench-'));
  try {
    await makeWindowsBundle(path.join(dir, 'bundle'), opts);
    const manifest = JSON.parse(
      await fsp.readFile(path.join(dir, 'bundle', 'manifest.json'), 'utf8'),
    ) as { hns: unknown };
    const hnsPath = path.join(dir, 'hns.json');
    const hnsText = JSON.stringify(manifest.hns);
    await fsp.writeFile(hnsPath, hnsText);
    const spec = (hnsCall: boolean): string =>
      JSON.stringify({ hnsModules: ['builtin'], hnsCall, hnsFile: hnsPath });
    await fsp.writeFile(path.join(dir, 'hnscall.json'), spec(true));
    await fsp.writeFile(path.join(dir, 'module.json'), spec(false));
    const driver = path.join(dir, 'driver.ps1');
    await fsp.writeFile(driver, DRIVER);
    const common = [
      hnsPath,
      path.join(SCRIPTS_DIR, 'collect.ps1'),
      path.join(MOCK_NODE_DIR, 'MockWindowsNode.psm1'),
      path.join(MOCK_NODE_DIR, 'NodeScript.ps1'),
    ];
    const runs: [string, string, string][] = [
      ['collect.ps1 (HNSCall text passed through)', 'collect', path.join(dir, 'hnscall.json')],
      ['collect.ps1 (module objects → ConvertTo-Json)', 'collect', path.join(dir, 'module.json')],
      [
        'same data, same shell: ConvertFrom-Json | ConvertTo-Json',
        'floor',
        path.join(dir, 'hnscall.json'),
      ],
    ];
    const figures: PwshFigure[] = [];
    for (const [label, mode, specPath] of runs) {
      const r = await runDriver(driver, [mode, specPath, ...common]);
      figures.push({
        label,
        ms: r.ms ?? 0,
        peakMiB: MiB(r.peak),
        allocatedMiB: MiB(r.allocated),
        outputMiB: MiB(r.output),
      });
    }
    return { ...opts, hnsMiB: MiB(Buffer.byteLength(hnsText)), figures };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

export function formatPwshFigure(f: PwshFigure): string {
  return `${f.label}: ${f.ms.toFixed(0)} ms, peak RSS +${f.peakMiB.toFixed(0)} MiB, allocated ${f.allocatedMiB.toFixed(0)} MiB, output ${f.outputMiB.toFixed(1)} MiB`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const r = await runPwshCollectBench();
  console.log(
    `pwsh     ${r.endpoints} endpoints + ${r.policyLists} policy lists (${r.hnsMiB.toFixed(1)} MiB of HNS JSON):`,
  );
  for (const f of r.figures) console.log(`pwsh       ${formatPwshFigure(f)}`);
}
