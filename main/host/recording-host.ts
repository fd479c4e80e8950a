/**
 * Wraps a host and records every answer into a bundle (the `collect` command). Because the scan
 * that follows reads the bundle through the same probes, a bundle answers exactly what the node
 * answered — minus redacted secrets, whose lines keep their numbers.
 */
import type { Fact } from '../../shared/model/fact';
import type { CriEntry } from '../../shared/model/cri';
import type { NodeFacts, ProcessFact, ServiceFact } from '../../shared/model/snapshot';
import { known } from '../../shared/model/fact';
import type { BundleManifest, ManifestPathEntry } from '../bundle/manifest';
import { BUNDLE_FORMAT } from '../bundle/manifest';
import { redactArgs, redactCommandLine, redactFile, type Redaction } from '../bundle/redact';
import type {
  RawHns,
  Host,
  JournalRequest,
  ListResult,
  ReadOptions,
  ReadResult,
  StatResult,
  StreamOptions,
  VersionHints,
  PluginVersionResult,
} from './host';
import { joinNode } from '../conventions/node-paths';
import { InFlightLimit } from './in-flight-limit';
import type { TailOffload } from '../bundle/tail/tail-offload';

export interface RecordedFile {
  path: string;
  data: Buffer;
}

export interface RecordingOptions {
  redact: boolean;
  collectorVersion: string;
  onProgress?: (what: string) => void;
  /**
   * Where each file goes the moment it is recorded (redacted), instead of being kept for
   * result(): collect's archive writer, so compressing overlaps reading and a 64 MiB log tail
   * is not held to the end. A file read again keeps its first recording, as the archive does.
   */
  sink?: (path: string, data: Buffer) => void;
  /**
   * At most this many stat/read/list calls on the recorded host at once (collect on a local
   * disk: see in-flight-limit.ts). Unset for hosts that batch what is asked in the same tick.
   */
  maxInFlight?: number;
  /**
   * Log tails recorded on a worker thread (main/bundle/tail/) and handed to `sinkCompressed`
   * already gzipped: collect of a local disk. `localPath` says where a node path is on this
   * machine (undefined: record that file the ordinary way).
   */
  tails?: {
    offload: Pick<TailOffload, 'run'>;
    localPath: (nodePath: string) => Promise<string | undefined>;
    /** localPath answers paths resolved inside a root (--root): open them without following. */
    resolvedUnderRoot: boolean;
    sinkCompressed: (path: string, length: number, member: Uint8Array) => void;
  };
}

/** Below this, a tail is recorded in place: a worker's hand-off would cost more than it saves. */
const OFFLOAD_MIN_BYTES = 1024 * 1024;

export class RecordingHost implements Host {
  readonly os: 'linux' | 'windows';
  readonly source: 'live' | 'bundle';
  readonly label: string;
  /** As the host recorded: CRI asked last when it ends the node's one connection. */
  readonly criLast: boolean;
  private readonly paths: Record<string, ManifestPathEntry> = {};
  private readonly files = new Map<string, Buffer>();
  /** Files handed to the sink: path → bytes. */
  private readonly sunk = new Map<string, number>();
  private readonly redactions: Redaction[] = [];
  /**
   * Redactions of tails recorded on the worker, by path in the order they were asked for: the
   * manifest lists them after the others whenever the worker answers, so it does not depend on
   * timing.
   */
  private readonly tailRedactions = new Map<string, Redaction[]>();
  private readonly logs: { source: string; path: string }[] = [];
  private nodeFacts: NodeFacts | undefined;
  private procs: ProcessFact[] | undefined;
  private svcs: ServiceFact[] | undefined;
  private readonly versionMap: Record<string, string> = {};
  private criEntries: CriEntry[] | undefined;
  private pipeNames: string[] | undefined;
  private hnsRaw: Fact<RawHns> | undefined;

  private readonly limit: InFlightLimit | undefined;

  constructor(
    private readonly inner: Host,
    private readonly opts: RecordingOptions,
  ) {
    this.limit = opts.maxInFlight === undefined ? undefined : new InFlightLimit(opts.maxInFlight);
    this.os = inner.os;
    this.source = inner.source;
    this.label = `recording ${inner.label}`;
    this.criLast = inner.criLast === true;
  }

  private gated<T>(call: () => Promise<T>): Promise<T> {
    return this.limit ? this.limit.run(call) : call();
  }

  private progress(what: string): void {
    this.opts.onProgress?.(what);
  }

  async node(): Promise<NodeFacts> {
    this.nodeFacts = await this.inner.node();
    return this.nodeFacts;
  }

  async stat(p: string, o?: { noFollow?: boolean }): Promise<StatResult> {
    const r = await this.gated(() => this.inner.stat(p, o));
    // lstat answers describe the link itself; the bundle keeps the followed view, which is what
    // every probe but the symlink check asks for, plus the link's target: a replay then knows
    // the entry is a link (libcni lists a link to a folder and fails to read it).
    if (o?.noFollow) {
      if (r.ok && r.type === 'symlink' && r.target !== undefined)
        this.paths[p] = { ...(this.paths[p] ?? { type: 'file' }), target: r.target };
      return r;
    }
    if (!r.ok) {
      if (r.error !== 'UNRECORDED')
        this.paths[p] =
          r.error === 'ENOENT'
            ? {
                type: 'missing',
                ...(this.paths[p]?.target !== undefined && { target: this.paths[p]?.target }),
              }
            : { ...(this.paths[p] ?? { type: 'file' }), error: r.error };
    } else if (!this.paths[p] || this.paths[p]?.type !== r.type || r.mtime !== undefined) {
      this.paths[p] = {
        ...this.paths[p],
        type: r.type,
        ...(r.size !== undefined && r.type === 'file' && { size: r.size }),
        ...(r.executable !== undefined && r.type === 'file' && { executable: r.executable }),
        ...(r.mtime !== undefined && { mtime: r.mtime }),
      };
    }
    return r;
  }

  private store(p: string, data: Buffer): Buffer {
    let out = data;
    if (this.opts.redact) {
      const r = redactFile(p, data);
      out = r.data;
      // A file recorded again (it changed, or was read twice) lists its redactions once.
      if (!this.sunk.has(p)) this.redactions.push(...r.redactions);
    }
    const sink = this.opts.sink;
    if (!sink) this.files.set(p, out);
    else if (!this.sunk.has(p)) {
      this.sunk.set(p, out.length);
      sink(p, out);
    }
    return out;
  }

  /** How many files were recorded, and their bytes (as stored: redacted). */
  recorded(): { files: number; bytes: number } {
    let bytes = 0;
    for (const d of this.files.values()) bytes += d.length;
    for (const n of this.sunk.values()) bytes += n;
    return { files: this.files.size + this.sunk.size, bytes };
  }

  async readFile(p: string, o?: ReadOptions): Promise<ReadResult> {
    const r = await this.gated(() => this.inner.readFile(p, o));
    if (!r.ok) {
      // A link's recorded target stays: a dangling or looping link is judged as one on replay.
      const target = this.paths[p]?.target;
      const link = target !== undefined ? { target } : {};
      if (r.error === 'ENOENT') this.paths[p] = { type: 'missing', ...link };
      else if (r.error === 'EISDIR') this.paths[p] = { ...this.paths[p], type: 'dir' };
      else if (r.error !== 'UNRECORDED')
        this.paths[p] = { type: this.paths[p]?.type ?? 'file', error: r.error, ...link };
      return r;
    }
    this.progress(p);
    const data = this.store(p, r.data);
    if (r.truncated)
      this.paths[p] = { ...this.paths[p], type: 'file', truncated: true, size: r.size };
    // The scan sees the redacted bytes too, so scanning the bundle later gives the same answer.
    return { ...r, data };
  }

  async listDir(p: string): Promise<ListResult> {
    const r = await this.gated(() => this.inner.listDir(p));
    if (r.ok) this.paths[p] = { ...this.paths[p], type: 'dir', entries: [...r.entries] };
    else if (r.error === 'ENOENT') this.paths[p] = { type: 'missing' };
    else if (r.error !== 'UNRECORDED') this.paths[p] = { type: 'dir', error: r.error };
    return r;
  }

  async *streamFile(p: string, o?: StreamOptions): AsyncIterable<Uint8Array> {
    this.progress(p);
    // The stat before the read says how much is coming (a log's tail): the chunks are copied
    // into one buffer of that size as they pass, instead of being kept and joined at the end
    // (which held a 64 MiB tail twice). A file that grew meanwhile falls back to joining.
    const known = this.paths[p]?.size;
    const expect =
      known === undefined ? 0 : Math.min(known, o?.tailBytes ?? Number.MAX_SAFE_INTEGER);
    let whole: Buffer | undefined = expect > 0 ? Buffer.allocUnsafeSlow(expect) : undefined;
    let got = 0;
    const chunks: Buffer[] = [];
    try {
      // A host that can reads straight into `whole` (its chunks are then views of it, in place).
      // The chunks may be kept (joined at the end): never a reused buffer.
      const { reuse: _reuse, ...own } = o ?? {};
      const opts = whole ? { ...own, into: whole } : own;
      for await (const c of this.inner.streamFile(p, opts)) {
        const b = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
        const inPlace =
          whole && b.buffer === whole.buffer && b.byteOffset === whole.byteOffset + got;
        if (whole && got + b.length <= whole.length) {
          if (!inPlace) b.copy(whole, got);
        } else {
          if (whole) chunks.push(whole.subarray(0, got));
          whole = undefined;
          chunks.push(b);
        }
        got += b.length;
        yield c;
      }
    } finally {
      const data = whole ? whole.subarray(0, got) : Buffer.concat(chunks);
      this.store(p, data);
      const st = this.paths[p];
      if (st && st.size !== undefined && st.size > data.length)
        this.paths[p] = { ...st, truncated: true };
    }
  }

  async recordTail(p: string, tailBytes: number): Promise<{ bytes: number } | undefined> {
    const tails = this.opts.tails;
    const st = this.paths[p];
    if (!tails || this.sunk.has(p) || st?.type !== 'file' || st.size === undefined)
      return undefined;
    const size = st.size;
    if (Math.min(size, tailBytes) < OFFLOAD_MIN_BYTES) return undefined;
    const real = await tails.localPath(p);
    if (real === undefined) return undefined;
    this.progress(p);
    this.tailRedactions.set(p, []);
    const out = await tails.offload.run({
      real,
      nodePath: p,
      start: Math.max(0, size - tailBytes),
      end: size,
      redact: this.opts.redact,
      noFollow: tails.resolvedUnderRoot,
    });
    if (!out.handled || this.sunk.has(p)) {
      this.tailRedactions.delete(p);
      return undefined;
    }
    this.tailRedactions.set(p, out.redactions);
    this.sunk.set(p, out.length);
    tails.sinkCompressed(p, out.length, out.member);
    if (size > out.length) this.paths[p] = { ...st, truncated: true };
    return { bytes: out.length };
  }

  async processes(): Promise<Fact<ProcessFact[]>> {
    const r = await this.inner.processes();
    if (r.known) {
      this.procs = r.value.map((p) => {
        if (!this.opts.redact) return p;
        const { args, redactions } = redactArgs(p.name, p.args);
        this.redactions.push(...redactions);
        return { ...p, args };
      });
      return known(this.procs);
    }
    return r;
  }

  async services(names: readonly string[]): Promise<Fact<ServiceFact[]>> {
    const r = await this.inner.services(names);
    if (r.known) {
      this.svcs = this.opts.redact ? r.value.map((s) => this.redactLaunch(s)) : r.value;
      return known(this.svcs);
    }
    return r;
  }

  /** A Windows service's command line (ImagePath, nssm AppParameters) may carry a token. */
  private redactLaunch(s: ServiceFact): ServiceFact {
    const l = s.launch;
    if (!l) return s;
    const key = `HKLM\\SYSTEM\\CurrentControlSet\\Services\\${s.name}`;
    const launch = { ...l };
    if (l.imagePath !== undefined) {
      const r = redactCommandLine(`${key}\\ImagePath`, l.imagePath);
      launch.imagePath = r.line;
      this.redactions.push(...r.redactions);
    }
    if (l.nssm?.parameters !== undefined) {
      const r = redactCommandLine(`${key}\\Parameters\\AppParameters`, l.nssm.parameters);
      launch.nssm = { ...l.nssm, parameters: r.line };
      this.redactions.push(...r.redactions);
    }
    return { ...s, launch };
  }

  async versions(h: VersionHints): Promise<Record<string, string>> {
    const v = await this.inner.versions(h);
    Object.assign(this.versionMap, v);
    return v;
  }

  async journal(req: JournalRequest): Promise<Fact<string> | undefined> {
    const r = await this.inner.journal(req);
    if (r?.known) {
      this.progress(`journald ${req.unit}`);
      const path =
        this.os === 'windows'
          ? joinNode('windows', 'C:\\cni-doctor\\journal', `${req.unit}.log`)
          : `/var/log/cni-doctor-journal/${req.unit}.log`;
      const stored = this.store(path, Buffer.from(r.value, 'utf8'));
      this.logs.push({ source: `journald:${req.unit}`, path });
      return known(stored.toString('utf8'));
    }
    return r;
  }

  async cri(endpoints: readonly string[]): Promise<CriEntry[] | undefined> {
    const r = await this.inner.cri(endpoints);
    if (r) this.criEntries = [...(this.criEntries ?? []), ...r];
    else this.criEntries ??= undefined;
    return r;
  }

  private readonly pluginVersions: Record<string, PluginVersionResult> = {};

  async pluginVersion(p: string): Promise<PluginVersionResult | undefined> {
    const r = await this.inner.pluginVersion?.(p);
    if (r) this.pluginVersions[p] = r;
    return r;
  }

  async pipes(): Promise<Fact<string[]>> {
    const r = await this.inner.pipes();
    if (r.known) this.pipeNames = r.value;
    return r;
  }

  async hns(): Promise<Fact<RawHns>> {
    const r = await this.inner.hns();
    this.hnsRaw = r;
    return r;
  }

  /** Everything recorded so far, as a manifest and the files for `files/` (none given to a sink). */
  result(): { manifest: BundleManifest; files: RecordedFile[] } {
    const n = this.nodeFacts;
    const manifest: BundleManifest = {
      format: BUNDLE_FORMAT,
      collectedAt: new Date().toISOString(),
      collector: { name: 'cni-doctor', version: this.opts.collectorVersion },
      host: {
        os: this.os,
        ...(n?.hostname !== undefined && { hostname: n.hostname }),
        ...(n?.osVersion !== undefined && { osVersion: n.osVersion }),
        ...(n?.elevated !== undefined && { elevated: n.elevated }),
      },
      paths: this.paths,
      ...(this.pipeNames && { pipes: this.pipeNames }),
      ...(this.procs && {
        processes: this.procs.map((p) => ({
          name: p.name,
          args: p.args,
          ...(p.pid !== undefined && { pid: p.pid }),
        })),
      }),
      ...(this.svcs && { services: this.svcs }),
      versions: this.versionMap,
      ...(this.criEntries && { cri: this.criEntries.map((c) => ({ ...c, api: c.api })) }),
      ...(Object.keys(this.pluginVersions).length > 0 && {
        pluginVersions: { ...this.pluginVersions },
      }),
      ...(this.hnsRaw && {
        hns: this.hnsRaw.known
          ? {
              networks: this.hnsRaw.value.networks as Record<string, unknown>[],
              endpoints: this.hnsRaw.value.endpoints as Record<string, unknown>[],
              namespaces: this.hnsRaw.value.namespaces as Record<string, unknown>[],
              policyLists: this.hnsRaw.value.policyLists as Record<string, unknown>[],
              ...(this.hnsRaw.value.source !== undefined && { source: this.hnsRaw.value.source }),
              ...(this.hnsRaw.value.errors && { errors: this.hnsRaw.value.errors }),
            }
          : {
              networks: [],
              endpoints: [],
              namespaces: [],
              policyLists: [],
              error: this.hnsRaw.reason,
            },
      }),
      logs: this.logs,
      redactions: [...this.redactions, ...[...this.tailRedactions.values()].flat()],
    };
    return { manifest, files: [...this.files.entries()].map(([path, data]) => ({ path, data })) };
  }
}
