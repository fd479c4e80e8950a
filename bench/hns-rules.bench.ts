/**
 * Windows at scale: a bundle with 5,000 HNS endpoints and 20,000 policy lists. Reports the time
 * to load the bundle into a Snapshot (JSON parse + normalisation) and the time the rules take
 * over it (target: rules under 200 ms). Baseline in the same run: JSON.parse of the manifest.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../main/host/bundle-host';
import { collectSnapshot } from '../main/probes/snapshot';
import { evaluate } from '../main/engine/evaluate';
import { makeWindowsBundle } from './windows-node';

export interface HnsBenchResult {
  endpoints: number;
  policyLists: number;
  manifestMiB: number;
  jsonParseMs: number;
  snapshotMs: number;
  rulesMs: number;
  findings: string[];
}

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

export async function runHnsBench(
  opts: { endpoints?: number; policyLists?: number; runs?: number } = {},
): Promise<HnsBenchResult> {
  const endpoints = opts.endpoints ?? 5000;
  const policyLists = opts.policyLists ?? 20000;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cnd-hns-bench-'));
  try {
    await makeWindowsBundle(dir, { endpoints, policyLists });
    const text = await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8');
    let jsonParseMs = Infinity;
    let snapshotMs = Infinity;
    let rulesMs = Infinity;
    let findings: string[] = [];
    for (let i = 0; i < (opts.runs ?? 5); i++) {
      let t = process.hrtime.bigint();
      JSON.parse(text);
      jsonParseMs = Math.min(jsonParseMs, ms(t));
      t = process.hrtime.bigint();
      const snap = await collectSnapshot(await BundleHost.open(dir));
      snapshotMs = Math.min(snapshotMs, ms(t));
      t = process.hrtime.bigint();
      const ev = evaluate(snap);
      rulesMs = Math.min(rulesMs, ms(t));
      findings = ev.report.findings.map((f) => f.id);
    }
    return {
      endpoints,
      policyLists,
      manifestMiB: text.length / 1048576,
      jsonParseMs,
      snapshotMs,
      rulesMs,
      findings,
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runHnsBench();
  console.log(
    `HNS at scale: ${r.endpoints} endpoints, ${r.policyLists} policy lists (manifest ${r.manifestMiB.toFixed(1)} MiB)`,
  );
  console.log(
    `  JSON.parse baseline ${r.jsonParseMs.toFixed(0)} ms | bundle → snapshot ${r.snapshotMs.toFixed(0)} ms | rules ${r.rulesMs.toFixed(1)} ms (target < 200 ms)`,
  );
  console.log(`  findings: ${r.findings.join(', ') || 'none'}`);
}
