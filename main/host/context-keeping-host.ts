/**
 * Wraps a host for one scan and keeps, from every log the scan streams (and every journald
 * excerpt), the lines around the lines the scanner matches (main/logs/kept-context.ts): what the
 * UI's log viewer shows. The bytes are the ones the probes scanned, so the context and its line
 * numbers are the scan's, even on a live node whose logs move on. Each log's bytes are held only
 * until its stream ends (one log at a time, like the recording host).
 *
 * Everything else is passed through unchanged, optional methods only when the inner host has
 * them (a probe asks `host.pluginVersion` whether it can run plugins at all).
 */
import { signaturesFor } from '../logs/catalog';
import { keepMatchContext, type KeptLog } from '../logs/kept-context';
import type { Host, StreamOptions } from './host';

export interface ContextKeepingHost {
  host: Host;
  /** Log path (or `journald:<unit>`) → the kept windows. Filled as the scan streams. */
  kept: Map<string, KeptLog>;
}

export function keepLogContext(inner: Host): ContextKeepingHost {
  const kept = new Map<string, KeptLog>();
  const sigs = signaturesFor(inner.os);
  const keep = async (path: string, data: Uint8Array): Promise<void> => {
    try {
      kept.set(path, await keepMatchContext(path, data, sigs));
    } catch {
      // Keeping context is a convenience for the viewer; it never fails the scan.
    }
  };

  async function* streamFile(p: string, o?: StreamOptions): AsyncIterable<Uint8Array> {
    const chunks: Uint8Array[] = [];
    try {
      // The chunks are kept: they must be the host's own, never a reused buffer.
      const { reuse: _reuse, ...own } = o ?? {};
      for await (const c of inner.streamFile(p, own)) {
        chunks.push(c);
        yield c;
      }
    } finally {
      // A stream the scanner stopped reading, or that failed, is kept as far as it was read:
      // the scanner judged those bytes too.
      const data = Buffer.concat(
        chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)),
      );
      chunks.length = 0;
      await keep(p, data);
    }
  }

  const host: Host = {
    os: inner.os,
    source: inner.source,
    label: inner.label,
    node: () => inner.node(),
    stat: (p, o) => inner.stat(p, o),
    readFile: (p, o) => inner.readFile(p, o),
    listDir: (p) => inner.listDir(p),
    streamFile,
    processes: () => inner.processes(),
    services: (n) => inner.services(n),
    versions: (h) => inner.versions(h),
    async journal(req) {
      const r = await inner.journal(req);
      if (r?.known) await keep(`journald:${req.unit}`, Buffer.from(r.value, 'utf8'));
      return r;
    },
    cri: (e) => inner.cri(e),
    pipes: () => inner.pipes(),
    hns: () => inner.hns(),
  };
  if (inner.criUnavailable) host.criUnavailable = () => inner.criUnavailable?.();
  if (inner.pluginVersion) host.pluginVersion = (p) => inner.pluginVersion!(p);
  return { host, kept };
}
