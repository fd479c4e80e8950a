/**
 * A node container scanned from outside (issue 12): the whole `cni-doctor scan --target
 * container:podman/NODE` process beside the floor of reaching the same node at all — one
 * `podman exec NODE cat` of exactly the files that scan read — in the same run, on the lab's
 * kind-like podman node (needs root and Debian's podman, like the lab). Medians of interleaved
 * runs; the scan's own count of program runs on the node (round trips) is reported with it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RecordingHost } from '../main/host/recording-host';
import { collectSnapshot } from '../main/probes/snapshot';
import { RemoteLinuxHost } from '../main/remote/remote-host';
import { ContainerTransport } from '../main/remote/transports/container';
import type { Report } from '../shared/model/report';
import { startNodeContainer } from '../e2e/lab/node-container';
import { SCENARIOS } from '../e2e/lab/node-scenarios';

const CLI = fileURLToPath(new URL('../bin/cni-doctor.cjs', import.meta.url));

export interface RemoteBenchResult {
  files: number;
  bytes: number;
  scanMs: number;
  /** Fastest and slowest of the runs, beside the medians: this machine's noise, in the same run. */
  scanRange: [number, number];
  floorRange: [number, number];
  runs: number;
  /** The same scan inside an already-started process (what the desktop app and serve pay). */
  inProcessMs: number;
  floorMs: number;
  /** `cni-doctor --version`: starting Node and the CLI at all, part of every scan process. */
  startMs: number;
  ratio: number;
  /**
   * The same scan with NODE_EXTRA_CA_CERTS unset, when it is set: Node then reads and parses that
   * file at every start (~40 ms here for the system's whole CA bundle), which the floor — podman,
   * not Node — never pays.
   */
  bareCa?: { scanMs: number; ratio: number };
  /**
   * The same scan with no plugin version remembered (CNI_DOCTOR_VERSION_CACHE=off): a node's
   * first scan, or one whose plugins changed since. The other runs remember them from the first.
   */
  coldVersions: { scanMs: number; ratio: number };
  /** Exec sessions the scans left in the node container (podman keeps a killed client's). */
  sessionsLeft: number;
  /** REMOTE_BENCH_BEFORE_CLI (an older build's bin/cni-doctor.mjs), timed in the same loop. */
  before?: { scanMs: number; ratio: number };
  roundTrips: number;
  exchanges: number;
  criConnections: number;
  /**
   * From the last byte a process wrote to its exit, medians: for both it is mostly podman's own
   * teardown of the exec session (the scan writes its report, then waits for its client to exit
   * by itself). That teardown is bimodal here (~20 or ~70 ms, a race inside podman for the
   * container's lock), so it is shown beside the ratio it moves.
   */
  afterOutput: { scanMs: number; floorMs: number };
}

function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ ms: number; out: string; code: number | null; afterOutputMs: number }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'], env });
    let out = '';
    let lastData = t;
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      lastData = performance.now();
    });
    p.on('close', (code) => {
      const end = performance.now();
      resolve({ ms: end - t, out, code, afterOutputMs: end - lastData });
    });
  });
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const range = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

/** REMOTE_BENCH_RUNS overrides; the machine's noise needs at least 7 for a median to mean much. */
const RUNS = Number(process.env.REMOTE_BENCH_RUNS) > 0 ? Number(process.env.REMOTE_BENCH_RUNS) : 7;

export async function runRemoteBench(runs = RUNS): Promise<RemoteBenchResult> {
  const s = SCENARIOS.shadowing;
  const node = await startNodeContainer({
    name: 'bench',
    configToml: s.configToml,
    confFiles: s.confFiles,
  });
  const sessions = async (): Promise<number> =>
    Number((await timed('podman', ['inspect', node.name, '--format', '{{len .ExecIDs}}'])).out);
  try {
    const sessionsBefore = await sessions();
    // Which files a scan of this node reads: record one (in process), then time whole processes.
    const host = new RemoteLinuxHost(
      new ContainerTransport({ kind: 'container', engine: 'podman', name: node.name }),
    );
    const rec = new RecordingHost(host, { redact: false, collectorVersion: 'bench' });
    await collectSnapshot(rec);
    const exchanges = host.exchanges;
    const criConnections = host.criConnections;
    await host.close();
    const { files } = rec.result();
    const paths = files.map((f) => f.path).filter((p) => p.startsWith('/'));
    const bytes = files.reduce((n, f) => n + f.data.length, 0);
    const { scanTarget } = await import('../main/remote/open-target');
    const inProcess: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await scanTarget({ kind: 'container', engine: 'podman', name: node.name });
      inProcess.push(performance.now() - t);
    }
    const scanMs: number[] = [];
    const floorMs: number[] = [];
    const scanAfter: number[] = [];
    const floorAfter: number[] = [];
    const startMs: number[] = [];
    const beforeCli = process.env.REMOTE_BENCH_BEFORE_CLI;
    const beforeMs: number[] = [];
    let roundTrips = 0;
    const bareEnv = { ...process.env };
    delete bareEnv.NODE_EXTRA_CA_CERTS;
    const bareMs: number[] = [];
    const coldEnv = { ...process.env, CNI_DOCTOR_VERSION_CACHE: 'off' };
    const coldMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (beforeCli) {
        const old = await timed(process.execPath, [
          beforeCli,
          'scan',
          '--json',
          '--fail-on',
          'never',
          '--target',
          node.target,
        ]);
        if (old.code === 0) beforeMs.push(old.ms);
      }
      startMs.push((await timed(process.execPath, [CLI, '--version'])).ms);
      const floor = await timed('podman', ['exec', node.name, 'cat', ...paths]);
      floorMs.push(floor.ms);
      floorAfter.push(floor.afterOutputMs);
      const scan = await timed(process.execPath, [
        CLI,
        'scan',
        '--json',
        '--fail-on',
        'never',
        '--target',
        node.target,
      ]);
      if (scan.code !== 0) throw new Error('scan --target failed');
      roundTrips = (JSON.parse(scan.out) as Report).target?.roundTrips ?? NaN;
      scanMs.push(scan.ms);
      scanAfter.push(scan.afterOutputMs);
      const args = [CLI, 'scan', '--json', '--fail-on', 'never', '--target', node.target];
      if (process.env.NODE_EXTRA_CA_CERTS)
        bareMs.push((await timed(process.execPath, args, bareEnv)).ms);
      coldMs.push((await timed(process.execPath, args, coldEnv)).ms);
    }
    // Every client has had time to clean up (an in-process scan returns before its client does).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const sessionsLeft = (await sessions()) - sessionsBefore;
    const scan = median(scanMs);
    const floor = median(floorMs);
    return {
      files: paths.length,
      bytes,
      scanMs: scan,
      scanRange: range(scanMs),
      floorRange: range(floorMs),
      runs,
      inProcessMs: median(inProcess),
      floorMs: floor,
      startMs: median(startMs),
      ...(beforeMs.length > 0 && {
        before: { scanMs: median(beforeMs), ratio: median(beforeMs) / floor },
      }),
      ratio: scan / floor,
      ...(bareMs.length > 0 && {
        bareCa: { scanMs: median(bareMs), ratio: median(bareMs) / floor },
      }),
      coldVersions: { scanMs: median(coldMs), ratio: median(coldMs) / floor },
      sessionsLeft,
      afterOutput: { scanMs: median(scanAfter), floorMs: median(floorAfter) },
      roundTrips,
      exchanges,
      criConnections,
    };
  } finally {
    await node.stop();
  }
}
