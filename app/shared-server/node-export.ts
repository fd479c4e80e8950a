/**
 * "Export this node" from the Bundles screen: records the node in focus (this machine, or a node
 * reached through a target) through the same probes a
 * scan uses (redacted, plus the files the configs point to) and returns it as a .tar.gz.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Host } from '../../main/host/host';
import { RecordingHost } from '../../main/host/recording-host';
import { collectSnapshot } from '../../main/probes/snapshot';
import { writeBundleArchive } from '../../main/bundle/writer';
import { recordReferencedFiles } from '../../main/bundle/referenced-files';
import { VERSION } from '../cli/version';
import { newJobId } from './ids';
import type { ProgressBus } from './progress';

export async function exportLiveNode(
  inner: Host,
  progress: ProgressBus,
  tmpRoot: string | undefined,
  /** The node's own name (a node container's name) when its hostname would not say which it is. */
  name?: string,
): Promise<{ fileName: string; data: Buffer }> {
  const rec = new RecordingHost(inner, { redact: true, collectorVersion: VERSION });
  const jobId = newJobId();
  progress.emit({ kind: 'scan', jobId, step: `recording ${name ?? 'this node'}`, done: false });
  const snapshot = await collectSnapshot(rec, {
    matchLogs: false,
    olderLoaders: false,
    onProgress: (step) =>
      progress.emit({ kind: 'scan', jobId, step: `recording: ${step}`, done: false }),
  });
  await recordReferencedFiles(rec, snapshot);
  const { manifest, files } = rec.result();
  const dir = await fsp.mkdtemp(path.join(tmpRoot ?? os.tmpdir(), 'cni-doctor-export-'));
  try {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const host = (name ?? manifest.host.hostname ?? 'node').replace(/[^A-Za-z0-9.-]/g, '_');
    const fileName = `cni-doctor-${host}-${stamp}.tar.gz`;
    const out = path.join(dir, fileName);
    await writeBundleArchive(out, inner.os, manifest, files);
    const data = await fsp.readFile(out);
    progress.emit({ kind: 'scan', jobId, step: 'recorded', done: true });
    return { fileName, data };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
