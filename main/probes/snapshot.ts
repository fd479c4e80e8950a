/**
 * Runs every probe against a host and assembles the Snapshot. Order matters only where a probe
 * needs another's answer (the runtimes' conf dirs, the kubelet's endpoint).
 */
import type { Fact } from '../../shared/model/fact';
import { unknownFact } from '../../shared/model/fact';
import type { CniBinDir, CniConfDir, ServiceFact, Snapshot } from '../../shared/model/snapshot';
import type { Host } from '../host/host';
import { pathKey } from '../conventions/node-paths';
import { ProbeContext } from './context';
import { probeContainerd } from './containerd';
import { probeCrio } from './crio';
import { probeKubelet } from './kubelet';
import { probeCrictl } from './crictl';
import { probeEndpoints } from './endpoints';
import { probeBinDir, probeConfDir } from './cni-dirs';

import { probeLogs } from './logs';
import {
  CRI_RUNTIME_NAMES,
  probeVersions,
  runtimesVersionedByCri,
  SERVICE_NAMES,
  versionBinaries,
} from './versions';
import { probePodman } from './podman';
import { probeHns } from './windows/hns';
import { probeConfigChanges } from './config-changes';
import { probeKernel } from './kernel';
import { probeIpam } from './ipam';
import { WELL_KNOWN_BIN_DIRS, WELL_KNOWN_CONF_DIRS } from '../conventions/cni-files';
import { probePluginVersions } from './plugin-versions';

export interface SnapshotOptions {
  /** Skip asking CRI endpoints (e.g. a quick scan). */
  skipCri?: boolean;
  /**
   * false: read the logs (a recording host keeps their tails) without matching the signature
   * catalog. `collect` sets it: the bundle holds bytes, and its scan matches them later.
   */
  matchLogs?: boolean;
  /** false: parse CNI configs as libcni v1.3 only (ProbeContext.olderLoaders); `collect` sets it. */
  olderLoaders?: boolean;
  onProgress?: (step: string) => void;
}

export async function collectSnapshot(host: Host, opts: SnapshotOptions = {}): Promise<Snapshot> {
  const ctx = new ProbeContext(host, opts.olderLoaders !== false);
  const progress = opts.onProgress ?? ((): void => undefined);
  progress('node');
  // Independent questions go out together: on a live node each is a subprocess or a /proc walk.
  const [node, processes, services] = await Promise.all([
    host.node(),
    host.processes(),
    host.services(SERVICE_NAMES[host.os]),
  ]);
  // Reading without matching (collect) starts on the logs now: their tails are most of a
  // bundle's bytes, and compressing them then overlaps the reading of everything else.
  const logsRead =
    opts.matchLogs === false
      ? probeLogs(ctx, { match: false, extraFiles: serviceLogFiles(services) })
      : undefined;
  logsRead?.catch(() => undefined); // awaited below; not an unobserved rejection meanwhile
  // Asked now, awaited where a value is needed: on a live node each version is a run of a Go
  // binary of tens of MB (20-100 ms), and nothing below needs one but the kubelet's default
  // endpoint, when no flag or config names it. A remote node runs them together, once the files
  // are read (agent-session.ts toSend). Where CRI comes last (criLast: a remote node), a running
  // runtime's version is its own CRI Version answer, asked anyway; its binary is run only when
  // that answer is missing (rules/derive.ts runtimeProfile says which source it was).
  progress('runtime versions');
  const criGivesRuntimes = host.criLast === true && !opts.skipCri;
  const versionsAsked = probeVersions(
    host,
    processes,
    (c) => !(criGivesRuntimes && c in CRI_RUNTIME_NAMES),
  );
  versionsAsked.catch(() => undefined); // awaited below; not an unobserved rejection meanwhile
  // The kubelet first: its endpoint says which runtime matters when several are installed.
  progress('kubelet');
  const kubelet = await probeKubelet(
    ctx,
    processes,
    async () => (await versionsAsked).kubelet,
    services,
  );
  const kubeletEndpoint = kubelet.known ? kubelet.value?.endpoint?.value : undefined;
  progress('containerd');
  const containerd = await probeContainerd(ctx, processes, kubeletEndpoint);
  progress('CRI-O');
  const crio = await probeCrio(ctx, processes);
  const crictl = await probeCrictl(ctx);
  const podman = host.os === 'linux' ? await probePodman(ctx) : undefined;

  let windows: Snapshot['windows'];
  if (host.os === 'windows') {
    progress('HNS and named pipes');
    windows = { pipes: await host.pipes(), hns: await probeHns(host) };
  }
  progress('CRI endpoints');
  const endpoints = await probeEndpoints(ctx, {
    containerd,
    crio,
    kubelet,
    crictl,
    pipes: windows?.pipes,
  });

  let asked: Promise<Snapshot['cri']> | undefined;
  const askCri = (): void => {
    if (opts.skipCri) return;
    progress('asking the runtimes over CRI');
    // Only sockets that exist are asked: a missing one is `cri.endpoint.missing`'s business.
    const ask = endpoints
      .filter((e) => e.state === 'present' || e.state === 'unknown')
      .map((e) => e.endpoint);
    asked = host.cri(ask);
    asked.catch(() => undefined); // awaited below; not an unobserved rejection meanwhile
  };
  // Asked now, while the CNI files are read: the runtimes answer over their own connection —
  // unless CRI ends the host's one connection to the node (criLast): then once they are read.
  if (!host.criLast) askCri();

  progress('CNI configuration');
  const confPaths: string[] = [];
  const binPaths: string[] = [];
  for (const rt of [containerd, crio]) {
    if (rt.known && rt.value) {
      confPaths.push(rt.value.cni.confDir.value);
      binPaths.push(...rt.value.cni.binDirs.value);
    }
  }
  confPaths.push(...WELL_KNOWN_CONF_DIRS[host.os]);
  binPaths.push(...WELL_KNOWN_BIN_DIRS[host.os]);
  // Conf and bin dirs side by side: on a live Windows node the dirs a config names are fetched
  // in one batched PowerShell call, not one per kind (main/host/windows/miss-batcher.ts).
  const [confDirs, binDirs]: [CniConfDir[], CniBinDir[]] = await Promise.all([
    Promise.all(dedupe(host.os, confPaths).map((p) => probeConfDir(ctx, p))),
    Promise.all(dedupe(host.os, binPaths).map((p) => probeBinDir(ctx, p))),
  ]);

  // The rest reads only files and the dirs found above: it is read while the runtimes answer
  // CRI, not after (a remote node's agent answers it meanwhile; CRI has its own connection).
  const logsAndFiles = Promise.all([
    logsRead ?? probeLogs(ctx, { extraFiles: serviceLogFiles(services) }),
    probeConfigChanges(ctx, [containerd, crio], confDirs),
    host.os === 'linux' ? probeKernel(ctx) : undefined,
    probeIpam(ctx, confDirs),
    probePluginVersions(ctx, confDirs, binDirs),
  ]);
  logsAndFiles.catch(() => undefined);
  if (host.criLast) {
    await logsAndFiles.then(
      () => undefined,
      () => undefined,
    );
    askCri();
  }
  const cri: Snapshot['cri'] = await asked;
  const criUnknown = cri === undefined ? host.criUnavailable?.() : undefined;

  progress('logs');
  const [logs, configChanges, kernel, ipam, pluginVersions] = await logsAndFiles;
  const versions = await versionsAsked;
  if (criGivesRuntimes) {
    const answered = runtimesVersionedByCri(cri);
    const binaries = versionBinaries(processes, (c) => c in CRI_RUNTIME_NAMES && !answered.has(c));
    if (binaries.length > 0) Object.assign(versions, await host.versions({ binaries }));
  }
  if (kubelet.known && kubelet.value && versions.kubelet !== undefined)
    kubelet.value.version ??= versions.kubelet;
  if (containerd.known && containerd.value)
    containerd.value.version ??= versions.containerd ?? versions.k3s ?? versions.rke2;
  if (crio.known && crio.value && versions.crio) crio.value.version = versions.crio;

  const snapshot: Snapshot = {
    node,
    processes,
    services,
    versions,
    containerd,
    crio,
    kubelet,
    crictl,
    endpoints,
    confDirs,
    binDirs,
    logs,
    ...(podman && { podman }),
    ...(cri !== undefined && { cri }),
    ...(criUnknown !== undefined && { criUnknown }),
    ...(windows && { windows }),
    ...(configChanges.length > 0 && { configChanges }),
    ...(kernel && { kernel }),
    ...(ipam.length > 0 && { ipam }),
    ...(pluginVersions.length > 0 && { pluginVersions }),
  };
  return snapshot;
}

/** Logs the services name themselves: nssm's AppStderr (the kubelet's kubelet.err.log). */
function serviceLogFiles(services: Fact<ServiceFact[]>): string[] {
  if (!services.known) return [];
  return services.value.flatMap((s) => {
    const stderr = s.launch?.nssm?.stderr;
    return stderr !== undefined && /^[A-Za-z]:\\/.test(stderr) ? [stderr] : [];
  });
}

function dedupe(os: 'linux' | 'windows', paths: string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((p) => {
    const k = pathKey(os, p).replace(/[\\/]+$/, '');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export const notProbed = <T>(what: string): Fact<T> => unknownFact(`${what} was not probed`);

/** Moved to main/conventions/cni-files.ts; re-exported for code written before the move. */
export { WELL_KNOWN_BIN_DIRS, WELL_KNOWN_CONF_DIRS } from '../conventions/cni-files';
