/**
 * The live Windows path at scale: the node of hns-rules.bench.ts (5,000 HNS endpoints, 20,000
 * policy lists) answered through WindowsHost, i.e. collect.ps1's one JSON document (here printed
 * by the fake node) → parse → in-memory bundle → probes → rules. Reports how many PowerShell
 * round trips the scan made (must be 1: every HNS list comes whole in the first call, never one
 * object at a time) and the time from the shell's answer to the report.
 *   node --import tsx bench/windows-host.bench.ts
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { evaluate } from '../main/engine/evaluate';
import { collectSnapshot } from '../main/probes/snapshot';
import {
  FakeWindowsNode,
  type FakeHns,
  type FakeNodeSpec,
} from '../main/host/windows/testing/fake-node';
import { WindowsHost } from '../main/host/windows/windows-host';
import { makeWindowsBundle } from './windows-node';

export interface WindowsHostBenchResult {
  endpoints: number;
  policyLists: number;
  collectionMiB: number;
  roundTrips: number;
  scanMs: number;
  rulesMs: number;
  findings: string[];
}

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

interface ScaleManifest {
  hns: FakeHns;
  pipes: string[];
  services: { name: string; state: string }[];
  processes: { name: string; pid: number; args: string[] }[];
  versions: Record<string, string>;
  paths: Record<string, { entries?: string[] }>;
}

async function scaleNode(opts: { endpoints: number; policyLists: number }): Promise<FakeNodeSpec> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cnd-winhost-bench-'));
  try {
    await makeWindowsBundle(dir, opts);
    const m = JSON.parse(
      await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8'),
    ) as ScaleManifest;
    const read = (rel: string): Promise<string> =>
      fsp.readFile(path.join(dir, 'files', ...rel.split('/')), 'utf8');
    return {
      hostname: 'win-node-scale',
      pipes: m.pipes,
      hns: m.hns,
      services: m.services.map((s) => ({
        name: s.name,
        state: s.state === 'running' ? 'Running' : 'Stopped',
      })),
      processes: m.processes.map((p) => ({
        name: p.name,
        pid: p.pid,
        commandLine: p.args.map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' '),
      })),
      versions: Object.fromEntries(
        Object.entries(m.versions).map(([k, v]) => [k, `${k} v${v.replace(/^v/, '')}`]),
      ),
      files: {
        'C:\\Program Files\\containerd\\config.toml': await read(
          'C/Program Files/containerd/config.toml',
        ),
        'C:\\etc\\cni\\net.d\\10-antrea.conflist': await read('C/etc/cni/net.d/10-antrea.conflist'),
      },
      dirs: { 'C:\\opt\\cni\\bin': m.paths['C:\\opt\\cni\\bin']?.entries ?? [] },
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

export async function runWindowsHostBench(
  opts: { endpoints?: number; policyLists?: number; runs?: number } = {},
): Promise<WindowsHostBenchResult> {
  const endpoints = opts.endpoints ?? 5000;
  const policyLists = opts.policyLists ?? 20000;
  const spec = await scaleNode({ endpoints, policyLists });
  let scanMs = Infinity;
  let rulesMs = Infinity;
  let collectionMiB = 0;
  let roundTrips = 0;
  let findings: string[] = [];
  for (let i = 0; i < (opts.runs ?? 5); i++) {
    // The fake node prints the collection document; time only what the doctor does with it.
    const node = new FakeWindowsNode(spec);
    const printed = new Map<string, string>();
    let calls = 0;
    const runner = {
      run: async (script: string, o: { deadlineMs: number; stderr?: 'fail' | 'allow' }) => {
        calls++;
        const cached = printed.get(script);
        if (cached !== undefined) return { ok: true as const, stdout: cached };
        const r = await node.run(script, o);
        if (r.ok) printed.set(script, r.stdout);
        return r;
      },
    };
    // Warm the printed document so the timing below excludes the fake node's own JSON.stringify.
    await new WindowsHost(runner).hns();
    calls = 0;
    // CRI is gRPC to the pipe, not PowerShell; here the runtime simply answers.
    const host = new WindowsHost(runner, {
      probeCri: async (endpoint) => ({ endpoint, api: 'runtime.v1', error: null }),
    });
    let t = process.hrtime.bigint();
    const snap = await collectSnapshot(host);
    scanMs = Math.min(scanMs, ms(t));
    t = process.hrtime.bigint();
    const ev = evaluate(snap);
    rulesMs = Math.min(rulesMs, ms(t));
    findings = ev.report.findings.map((f) => f.id);
    roundTrips = calls;
    collectionMiB = [...printed.values()].reduce((n, s) => n + s.length, 0) / 1048576;
  }
  return { endpoints, policyLists, collectionMiB, roundTrips, scanMs, rulesMs, findings };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runWindowsHostBench();
  console.log(
    `Live Windows path at scale: ${r.endpoints} endpoints, ${r.policyLists} policy lists (collection document ${r.collectionMiB.toFixed(1)} MiB)`,
  );
  console.log(
    `  PowerShell round trips per scan: ${r.roundTrips} | shell answer → snapshot ${r.scanMs.toFixed(0)} ms | rules ${r.rulesMs.toFixed(1)} ms`,
  );
  console.log(`  findings: ${r.findings.join(', ') || 'none'}`);
}
