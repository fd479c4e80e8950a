/**
 * Full scan of a synthetic node (500 CNI files, 200 MB of logs) against the floor: the time to
 * merely read the same bytes. Both run in this process, alternating, best of N.
 * Target: scan ≤ 3× the floor.
 */
import { promises as fsp, createReadStream } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LinuxHost } from '../main/host/linux-host';
import { scanHost } from '../main/engine/scan';
import { makeSyntheticNode } from './synthetic-node';

async function readAll(files: string[]): Promise<number> {
  let n = 0;
  for (const f of files) {
    for await (const c of createReadStream(f, {
      highWaterMark: 1024 * 1024,
    }) as AsyncIterable<Buffer>)
      n += c.length;
  }
  return n;
}

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

export interface ScanBenchResult {
  cniFiles: number;
  logMegabytes: number;
  bytes: number;
  floorMs: number;
  scanMs: number;
  ratio: number;
  findings: number;
  logMatches: number;
}

export async function runScanBench(
  opts: { cniFiles?: number; logMegabytes?: number; runs?: number } = {},
): Promise<ScanBenchResult> {
  const cniFiles = opts.cniFiles ?? 500;
  const logMegabytes = opts.logMegabytes ?? 200;
  const runs = opts.runs ?? 3;
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-bench-'));
  try {
    const node = await makeSyntheticNode(root, { cniFiles, logMegabytes });
    let floorMs = Infinity;
    let scanMs = Infinity;
    let findings = 0;
    let logMatches = 0;
    for (let i = 0; i < runs; i++) {
      const f = await time(() => readAll(node.files));
      floorMs = Math.min(floorMs, f.ms);
      const s = await time(() => scanHost(new LinuxHost({ root }), { skipCri: true }));
      scanMs = Math.min(scanMs, s.ms);
      findings = s.value.report.findings.length;
      logMatches = s.value.snapshot.logs.matches.length;
    }
    return {
      cniFiles,
      logMegabytes,
      bytes: node.bytes,
      floorMs,
      scanMs,
      ratio: scanMs / floorMs,
      findings,
      logMatches,
    };
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runScanBench();
  console.log(
    `full scan: ${r.cniFiles} CNI files + ${r.logMegabytes} MB logs (${(r.bytes / 1048576).toFixed(0)} MiB)`,
  );
  console.log(
    `  read floor ${r.floorMs.toFixed(0)} ms | scan ${r.scanMs.toFixed(0)} ms | ratio ${r.ratio.toFixed(2)}× (target ≤ 3×) | ${r.findings} findings, ${r.logMatches} log matches kept`,
  );
}
