// startLab(): a private, throw-away containerd + runc + CNI node on this machine, for reproducing
// sandbox-creation failures for real. Everything lives under one temp dir; the few host-wide
// things it touches (bridges named cnd<id>*, cgroup parent /cni-doctor-lab-<id>, libcni's result
// cache) are named after the lab and removed by stop(), which then proves nothing is left.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCriClient,
  probeCriEndpoint,
  type CriClient,
  type CriEntry,
  type CriStatus,
} from '../../main/cri/client';
import { labConfigToml } from './config-toml';
import { logTail, startContainerd, type ContainerdProcess } from './containerd-process';
import { mustRun, sleep } from './exec';
import { cleanHost, findLeaks, LabLeakError, rememberHostDirs } from './host-cleanup';
import { buildPauseImage, LAB_PAUSE_IMAGE } from './pause-image';
import { labPaths, type LabPaths } from './paths';
import { runPod, type RunPodResult } from './pods';
import { installRecoveryConfig, removeAllSandboxes, type SandboxRemoval } from './sandbox-teardown';
import { assertPreflight, DEFAULT_CNI_BIN_DIR } from './preflight';
import { LAB_DIR_PREFIX, recordLab, sweepAbandonedLabs } from './abandoned';

export { LabLeakError, type LabPaths, type RunPodResult };

export interface LabOptions {
  name: string;
  /** Files written into the CNI conf dir before containerd starts (name → content). */
  confDirFiles?: Record<string, string>;
  /** config.toml text; default labConfigToml(paths). Must listen on paths.socket. */
  configToml?: (paths: LabPaths) => string;
  /** CNI plugin dir; default /usr/lib/cni (Debian's containernetworking-plugins). */
  binDir?: string;
  /** Import the pause image after start (default true). */
  importPauseImage?: boolean;
  readyTimeoutMs?: number;
}

/** What the doctor's scanner needs to look at this lab like it looks at a node. */
export interface ScanTarget {
  configPath: string;
  socket: string;
  endpoint: string;
  confDir: string;
  binDir: string;
  /** PID of the running containerd, null while it is down. */
  pid: number | null;
}

export interface TeardownReport {
  removedSandboxes: string[];
  /** Sandboxes CRI would not stop/remove even after recovery; their state was removed by force. */
  sandboxFailures: string[];
  /** Lab processes that did not exit by themselves and were SIGKILLed. */
  killed: string[];
  ms: number;
}

export interface Lab extends ScanTarget {
  readonly name: string;
  readonly id: string;
  readonly paths: LabPaths;
  scanTarget(): ScanTarget;
  /** Bridge name for the lab's n-th network, e.g. cnd1a2b3c1 (teardown deletes cnd1a2b3c*). */
  bridgeName(n: number): string;
  /** n-th private /24 from 10.88.0.0/16 for lab networks (n in 1..50). */
  subnet(n: number): string;
  /** Writes a CNI conf in place (containerd 1.6 ignores files renamed into the dir). */
  writeConf(name: string, content: string): void;
  removeConf(name: string): void;
  listConf(): string[];
  /** Replaces config.toml; takes effect on restart(). */
  writeConfig(text: string): void;
  cri(): CriClient;
  probe(opts?: { deadlineMs?: number; listSandboxes?: boolean }): Promise<CriEntry>;
  waitForStatus(pred: (s: CriStatus) => boolean, timeoutMs?: number): Promise<CriStatus>;
  runPod(name: string): Promise<RunPodResult>;
  /** Kills containerd with a signal and leaves whatever it leaves (SIGKILL: a stale socket). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  restart(): Promise<void>;
  /** Removes every sandbox, stops containerd, cleans the host, and throws LabLeakError on leftovers. */
  stop(): Promise<TeardownReport>;
  log(): string;
}

export async function startLab(opts: LabOptions): Promise<Lab> {
  const binDir = opts.binDir ?? DEFAULT_CNI_BIN_DIR;
  assertPreflight(binDir);
  rememberHostDirs();
  await sweepAbandonedLabs(tmpdir());
  const id = randomBytes(3).toString('hex');
  // Short path on purpose: the socket path must fit sockaddr_un (108 bytes).
  const dir = mkdtempSync(join(tmpdir(), LAB_DIR_PREFIX));
  const paths = labPaths(dir, id, binDir, LAB_PAUSE_IMAGE);
  recordLab(paths, id, opts.name);
  for (const d of [
    paths.root,
    paths.state,
    join(dir, 'run'),
    paths.confDir,
    paths.runcRoot,
    paths.optDir,
    paths.ipamDir,
    paths.podLogDir,
    paths.imageDir,
  ]) {
    mkdirSync(d, { recursive: true });
  }
  for (const [file, content] of Object.entries(opts.confDirFiles ?? {}))
    writeFileSync(join(paths.confDir, file), content);
  writeFileSync(paths.configPath, (opts.configToml ?? labConfigToml)(paths));

  const sandboxIds = new Set<string>();
  let proc: ContainerdProcess | undefined;
  let client: CriClient | undefined;
  let stopped = false;
  try {
    const imageTar = await buildPauseImage(paths.imageDir);
    proc = await startContainerd(paths, opts.readyTimeoutMs);
    if (opts.importPauseImage ?? true)
      await mustRun(
        'ctr',
        ['-a', paths.socket, '-n', 'k8s.io', 'images', 'import', imageTar],
        60_000,
      );
  } catch (e) {
    await proc?.stop('SIGKILL');
    await cleanHost(paths, sandboxIds);
    throw e;
  }

  const closeClient = (): void => {
    client?.close();
    client = undefined;
  };
  const cri = (): CriClient =>
    (client ??= createCriClient(`unix://${paths.socket}`, { deadlineMs: 30_000 }));
  const restart = async (): Promise<void> => {
    closeClient();
    await proc?.stop();
    proc = await startContainerd(paths, opts.readyTimeoutMs);
  };

  const lab: Lab = {
    name: opts.name,
    id,
    paths,
    configPath: paths.configPath,
    socket: paths.socket,
    endpoint: `unix://${paths.socket}`,
    confDir: paths.confDir,
    binDir,
    get pid() {
      return proc && !proc.exited ? proc.pid : null;
    },
    scanTarget() {
      return {
        configPath: paths.configPath,
        socket: paths.socket,
        endpoint: lab.endpoint,
        confDir: paths.confDir,
        binDir,
        pid: lab.pid,
      };
    },
    bridgeName: (n) => `${paths.bridgePrefix}${n}`,
    subnet: (n) => {
      if (!Number.isInteger(n) || n < 1 || n > 50)
        throw new Error(`subnet index ${n} out of 1..50`);
      return `10.88.${200 + n}.0/24`;
    },
    writeConf: (name, content) => writeFileSync(join(paths.confDir, name), content),
    removeConf: (name) => rmSync(join(paths.confDir, name), { force: true }),
    listConf: () => readdirSync(paths.confDir).sort(),
    writeConfig: (text) => writeFileSync(paths.configPath, text),
    cri,
    // The product's 3 s default is for a hung runtime; the lab's is healthy but may be slow to
    // answer on a loaded machine, so its probes get 30 s unless a test asks otherwise.
    probe: (o) => probeCriEndpoint(lab.endpoint, { deadlineMs: 30_000, ...o }),
    // Far above the normal case (containerd reloads its CNI config within a second of a change):
    // a loaded machine makes the wait longer, not red. On failure it names the condition.
    async waitForStatus(pred, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last: CriStatus | undefined;
      while (Date.now() < deadline) {
        last = await cri().status(true);
        if (pred(last)) return last;
        await sleep(25);
      }
      throw new Error(
        `still waiting, after ${timeoutMs} ms, for the lab's CRI status to satisfy ${pred.toString()}; last status: ${JSON.stringify(last)}`,
      );
    },
    async runPod(name) {
      const r = await runPod(cri(), paths, name);
      if (r.sandboxId) sandboxIds.add(r.sandboxId);
      return r;
    },
    async kill(signal = 'SIGKILL') {
      closeClient();
      await proc?.stop(signal, 5000);
    },
    restart,
    async stop() {
      if (stopped) throw new Error(`lab ${opts.name} already stopped`);
      stopped = true;
      const started = performance.now();
      let result: SandboxRemoval = { removed: [], failed: [] };
      try {
        if (proc && !proc.exited) {
          result = await removeAllSandboxes(cri(), sandboxIds);
          if (result.failed.length > 0) {
            installRecoveryConfig(paths, lab.bridgeName(0), lab.subnet(50));
            await restart();
            const retry = await removeAllSandboxes(cri(), sandboxIds);
            result = { removed: [...result.removed, ...retry.removed], failed: retry.failed };
          }
        }
      } catch (e) {
        // Whatever CRI could not do, the host cleanup below does by force; the leak check judges.
        result.failed.push(`sandbox teardown: ${e instanceof Error ? e.message : String(e)}`);
      }
      closeClient();
      await proc?.stop();
      const cleaned = await cleanHost(paths, sandboxIds);
      const leaks = await findLeaks(paths, cleaned.sandboxIds);
      if (leaks.length > 0) throw new LabLeakError(opts.name, leaks);
      return {
        removedSandboxes: result.removed,
        sandboxFailures: result.failed,
        killed: cleaned.killed,
        ms: performance.now() - started,
      };
    },
    log: () => {
      try {
        return readFileSync(paths.containerdLog, 'utf8');
      } catch {
        return logTail(paths);
      }
    },
  };
  return lab;
}
