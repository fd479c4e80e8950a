/**
 * `npm run bench`: every benchmark, each against its baseline measured in the same run.
 * Figures only — nothing here is asserted (tests never assert wall-clock times).
 */
import { runScanBench } from './scan.bench';
import { runLogScanBench } from './logscan.bench';
import { runHnsBench } from './hns-rules.bench';

const only = process.argv.slice(2);
const want = (name: string): boolean => only.length === 0 || only.includes(name);

if (want('process')) {
  try {
    const { runProcessBench, formatFigure } = await import('./process.bench');
    for (const f of await runProcessBench()) console.log(`process  ${formatFigure(f)}`);
  } catch (e) {
    console.log(`process  skipped: ${(e as Error).message.split('\n')[0]}`);
  }
}
if (want('scan')) {
  const r = await runScanBench();
  console.log(
    `scan     ${r.cniFiles} CNI files + ${r.logMegabytes} MB logs: scan ${r.scanMs.toFixed(0)} ms vs read-the-bytes floor ${r.floorMs.toFixed(0)} ms → ${r.ratio.toFixed(2)}× (target ≤ 3×)`,
  );
}
if (want('logscan')) {
  const r = await runLogScanBench();
  const grep = r.grep
    ? `grep -E -f ${r.grep.bestMs.toFixed(0)} ms (${r.grep.mbPerSec.toFixed(0)} MB/s)`
    : 'grep not installed';
  const verdict = r.ratio === undefined ? '' : `: ${r.ratio >= r.target ? 'met' : 'NOT met'}`;
  console.log(
    `logscan  ${(r.bytes / 1048576).toFixed(0)} MiB, ${r.patterns} signatures: scanner ${r.scanner.bestMs.toFixed(0)} ms (${r.scanner.mbPerSec.toFixed(0)} MB/s) vs ${grep} → ${r.ratio?.toFixed(2) ?? '?'}× grep's throughput (target ≥ ${r.target}×${verdict}), same matches: ${r.sameMatchCount ?? '?'}`,
  );
}
if (want('hns')) {
  const r = await runHnsBench();
  console.log(
    `hns      ${r.endpoints} endpoints + ${r.policyLists} policy lists: rules ${r.rulesMs.toFixed(1)} ms (target < 200 ms); bundle → snapshot ${r.snapshotMs.toFixed(0)} ms vs JSON.parse ${r.jsonParseMs.toFixed(0)} ms`,
  );
}
if (want('pwsh')) {
  try {
    const { runPwshCollectBench, formatPwshFigure } = await import('./powershell-collect.bench');
    const r = await runPwshCollectBench();
    console.log(
      `pwsh     collect.ps1 in PowerShell 7, ${r.endpoints} HNS endpoints + ${r.policyLists} policy lists (${r.hnsMiB.toFixed(1)} MiB of HNS JSON, mock cmdlets' cost excluded):`,
    );
    for (const f of r.figures) console.log(`pwsh       ${formatPwshFigure(f)}`);
  } catch (e) {
    console.log(`pwsh     skipped: ${(e as Error).message.split('\n')[0]}`);
  }
}
if (want('remote')) {
  try {
    const { runRemoteBench } = await import('./remote-scan.bench');
    const r = await runRemoteBench();
    console.log(
      `remote   podman node container, ${r.files} files (${(r.bytes / 1024).toFixed(0)} KiB), medians of ${r.runs} runs: scan --target ${r.scanMs.toFixed(0)} ms (${r.scanRange.map((x) => x.toFixed(0)).join('–')}; ${r.roundTrips} collection round trip, ${r.exchanges} batches on it, ${r.criConnections} CRI relay) vs podman exec cat of the same files ${r.floorMs.toFixed(0)} ms (${r.floorRange.map((x) => x.toFixed(0)).join('–')}) → ${r.ratio.toFixed(2)}× (target ≤ 2×: ${r.ratio <= 2 ? 'met' : 'NOT met'}; of the scan, starting Node and the CLI alone ${r.startMs.toFixed(0)} ms; one round trip: ${r.roundTrips === 1 ? 'met' : 'NOT met'}); in an already-running process (desktop, serve) ${r.inProcessMs.toFixed(0)} ms → ${(r.inProcessMs / r.floorMs).toFixed(2)}×`,
    );
    console.log(
      `remote   the same loop, no plugin version remembered (CNI_DOCTOR_VERSION_CACHE=off: a node's first scan, or one whose plugins changed): scan --target ${r.coldVersions.scanMs.toFixed(0)} ms → ${r.coldVersions.ratio.toFixed(2)}×`,
    );
    if (r.bareCa)
      console.log(
        `remote   the same loop, NODE_EXTRA_CA_CERTS unset (Node parses that file at every start; podman does not): scan --target ${r.bareCa.scanMs.toFixed(0)} ms → ${r.bareCa.ratio.toFixed(2)}×`,
      );
    console.log(
      `remote   after the last byte written, until the process exited (podman's teardown of its exec session, ~20 or ~70 ms here): scan ${r.afterOutput.scanMs.toFixed(0)} ms, podman exec cat ${r.afterOutput.floorMs.toFixed(0)} ms`,
    );
    console.log(
      `remote   exec sessions the scans left in the node container: ${r.sessionsLeft} (a killed podman exec client leaves its session, and every later exec into the container is slower)`,
    );
    if (r.before)
      console.log(
        `remote   the same loop, REMOTE_BENCH_BEFORE_CLI's build: scan --target ${r.before.scanMs.toFixed(0)} ms → ${r.before.ratio.toFixed(2)}×`,
      );
  } catch (e) {
    console.log(`remote   skipped: ${(e as Error).message.split('\n')[0]}`);
  }
}
if (want('ui')) {
  try {
    const { runUiBench } = await import('./ui-first-finding.bench');
    const r = await runUiBench();
    console.log(
      `ui       ${r.endpoints} HNS endpoints: first finding shown ${r.firstFindingMs.median.toFixed(0)} ms median (target < 1500 ms), cold ${r.coldFirstFindingMs.toFixed(0)} ms; server scan ${r.serverScanMs.toFixed(0)} ms`,
    );
    const inv = r.inventoryHnsInPageMs.median;
    const big = r.largestResponse;
    const biggest = Math.max(big.bytes, big.decodedBytes);
    console.log(
      `ui       Inventory click → HNS rows ${inv} ms median in the page vs ${r.inventoryFloorInPageMs.median} ms for the same clicks on a 1-endpoint node (target ≤ 300 ms: ${inv <= 300 ? 'met' : 'NOT met'}; wall-clock as Playwright sees it ${r.inventoryHnsMs.median} ms vs ${r.inventoryFloorMs.median} ms); largest response ${(biggest / 1048576).toFixed(2)} MiB ${big.url} (${(big.bytes / 1048576).toFixed(2)} MiB on the wire; target ≤ 2 MB: ${biggest <= 2e6 ? 'met' : 'NOT met'})`,
    );
    const api = r.largestApiResponse;
    console.log(
      `ui       largest API response ${api.url}: ${(api.decodedBytes / 1024).toFixed(1)} KiB decoded, ${(api.bytes / 1024).toFixed(1)} KiB on the wire`,
    );
  } catch (e) {
    console.log(`ui       skipped: ${(e as Error).message.split('\n')[0]}`);
  }
}
