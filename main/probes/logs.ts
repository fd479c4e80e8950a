/**
 * Logs of the runtime, the kubelet and the CNI agents, from files and journald, matched against
 * the signature catalog by the streaming scanner (bounded memory, huge files fine).
 */
import { pathKey } from '../conventions/node-paths';
import type { LogMatchFact, LogSourceFact } from '../../shared/model/snapshot';
import { READ_LIMITS } from '../bundle/limits';
import { signaturesFor } from '../logs/catalog';
import { scanLog as matchLog } from '../logs/scanner';
import type { LogScanResult } from '../logs/types';
import type { ProbeContext } from './context';

export const LOG_FILES = {
  linux: [
    '/var/log/containerd.log',
    '/var/log/crio.log',
    '/var/log/kubelet.log',
    '/var/lib/rancher/k3s/agent/containerd/containerd.log',
    '/var/lib/rancher/rke2/agent/containerd/containerd.log',
  ],
  windows: [
    'C:\\var\\log\\kubelet\\kubelet.log',
    'C:\\k\\kubelet.log',
    'C:\\k\\kubelet.err.log',
    'C:\\var\\log\\kubelet\\kubelet.err.log',
    'C:\\var\\log\\containerd\\containerd.log',
    'C:\\Program Files\\containerd\\containerd.log',
    'C:\\var\\log\\antrea\\antrea-agent.log',
    'C:\\k\\antrea\\logs\\antrea-agent.log',
    'C:\\k\\flanneld.log',
    'C:\\CalicoWindows\\logs\\calico-node.log',
  ],
} as const;

// cri-docker: cri-dockerd's own errors (e.g. a --network-plugin naming a CNI instead of `cni`,
// docs/knowledge/log-signatures-linux.md#linux-44) reach only its journal, never the kubelet's.
export const JOURNAL_UNITS = [
  'containerd',
  'crio',
  'kubelet',
  'cri-docker',
  'k3s',
  'k3s-agent',
  'rke2-agent',
  'rke2-server',
] as const;

async function* once(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

const EMPTY_SCAN: LogScanResult = {
  matches: [],
  bytesScanned: 0,
  lines: 0,
  truncatedLines: 0,
  droppedMatches: 0,
};

/**
 * Reads a log to its end and matches nothing: `collect` needs the bytes (its recording host keeps
 * them), not the matches, which the scan of the bundle finds later from the same bytes.
 */
async function readOnly(source: AsyncIterable<Uint8Array>): Promise<LogScanResult> {
  let bytesScanned = 0;
  try {
    for await (const chunk of source) bytesScanned += chunk.byteLength;
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown };
    const error = typeof err.code === 'string' ? err.code : String(err.message ?? e);
    return { matches: [], bytesScanned, lines: 0, truncatedLines: 0, droppedMatches: 0, error };
  }
  return { matches: [], bytesScanned, lines: 0, truncatedLines: 0, droppedMatches: 0 };
}

/**
 * `extraFiles`: logs the node names itself (Windows: the kubelet service's nssm AppStderr), read
 * after the well-known ones; one that is already among them is read once.
 */
export async function probeLogs(
  ctx: ProbeContext,
  opts: { match?: boolean; extraFiles?: readonly string[] } = {},
): Promise<{ sources: LogSourceFact[]; matches: LogMatchFact[] }> {
  const sigs = signaturesFor(ctx.os);
  const scanLog = opts.match === false ? readOnly : matchLog;
  const sources: LogSourceFact[] = [];
  const matches: LogMatchFact[] = [];
  const files: string[] = [];
  for (const p of [...LOG_FILES[ctx.os], ...(opts.extraFiles ?? [])])
    if (!files.some((f) => pathKey(ctx.os, f) === pathKey(ctx.os, p))) files.push(p);
  for (const path of files) {
    const st = await ctx.stat(path);
    if (!st.ok) {
      if (st.error !== 'ENOENT' && st.error !== 'UNRECORDED')
        sources.push({ path, origin: 'file', state: 'unreadable', error: st.message });
      continue;
    }
    if (st.type !== 'file') continue;
    const tailBytes = READ_LIMITS.logTailBytes;
    // collect: a recording host may take the tail straight into the bundle (on another core).
    const recorded =
      opts.match === false ? await ctx.host.recordTail?.(path, tailBytes) : undefined;
    const r = recorded
      ? { ...EMPTY_SCAN, bytesScanned: recorded.bytes }
      : await scanLog(
          ctx.host.streamFile(path, { tailBytes, reuse: scanLog === matchLog }),
          path,
          sigs,
        );
    sources.push({
      path,
      origin: 'file',
      state: r.error ? 'unreadable' : 'scanned',
      bytes: r.bytesScanned,
      ...(r.error !== undefined && { error: r.error }),
    });
    // Only the tail was read: its line numbers are not the file's, and the evidence says so.
    const tailed = st.size !== undefined && st.size > tailBytes;
    for (const m of r.matches) matches.push(tailed ? { ...m, tailBytes } : m);
  }
  if (ctx.os === 'linux') {
    for (const unit of JOURNAL_UNITS) {
      const j = await ctx.host.journal({ unit, lines: READ_LIMITS.journalLines });
      if (!j) continue;
      const path = `journald:${unit}`;
      if (!j.known) {
        sources.push({ path, origin: path, state: 'unreadable', error: j.reason });
        continue;
      }
      const r = await scanLog(once(j.value), path, sigs);
      sources.push({ path, origin: path, state: 'scanned', bytes: r.bytesScanned });
      matches.push(...r.matches);
    }
  }
  return { sources, matches };
}
