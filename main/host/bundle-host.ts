/**
 * A recorded node: answers every Host question from a bundle (bundle-format.md). What the bundle
 * did not record is reported as UNRECORDED / unknown, never as absent.
 */
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { CriEntry } from '../../shared/model/cri';
import type { NodeFacts, ProcessFact, ServiceFact } from '../../shared/model/snapshot';
import type { BundleManifest, ManifestPathEntry } from '../bundle/manifest';
import { parseManifest } from '../bundle/manifest';
import { BundleError, openBundleStore, type BundleStore, type ReadRange } from '../bundle/store';
import { MemoryStore } from '../bundle/memory-store';
import type {
  RawHns,
  Host,
  JournalRequest,
  ListResult,
  ReadOptions,
  ReadResult,
  StatResult,
  StreamOptions,
  FsErrorCode,
  PluginVersionResult,
} from './host';
import {
  basenameNode,
  bundleRelToNodePath,
  dirnameNode,
  nodePathToBundleRel,
  pathKey,
} from '../conventions/node-paths';

const UNRECORDED = (p: string): { ok: false; error: FsErrorCode; message: string } => ({
  ok: false,
  error: 'UNRECORDED',
  message: `${p} was not recorded in the bundle`,
});

export class BundleHost implements Host {
  readonly source = 'bundle' as const;
  readonly os: 'linux' | 'windows';
  private readonly paths = new Map<string, ManifestPathEntry>();
  /** pathKey → bundle-relative file name, for files under files/. */
  private readonly files = new Map<string, string>();
  /** pathKey of a directory → names implied by files and manifest paths below it. */
  private readonly implied = new Map<string, Set<string>>();

  private constructor(
    readonly label: string,
    private readonly store: BundleStore,
    readonly manifest: BundleManifest,
    readonly warnings: string[],
    fileList: string[],
    emptyDirs: string[] = [],
  ) {
    this.os = manifest.host.os;
    for (const [p, entry] of Object.entries(manifest.paths ?? {})) {
      this.paths.set(pathKey(this.os, p), entry);
      this.imply(p);
    }
    for (const rel of fileList) {
      const nodePath = bundleRelToNodePath(this.os, rel);
      this.files.set(pathKey(this.os, nodePath), rel);
      this.imply(nodePath);
    }
    for (const rel of emptyDirs) {
      const nodePath = bundleRelToNodePath(this.os, rel);
      this.imply(nodePath);
      const key = pathKey(this.os, nodePath);
      if (!this.implied.has(key)) this.implied.set(key, new Set());
    }
  }

  /** `blockingIo`: a one-shot CLI run (see DirectoryStore). */
  static async open(p: string, opts: { blockingIo?: boolean } = {}): Promise<BundleHost> {
    const store = await openBundleStore(p, opts);
    try {
      const parsed = parseManifest(await store.readManifest());
      if (!parsed.ok) throw new BundleError(`${p}: ${parsed.error}`);
      return new BundleHost(
        store.label,
        store,
        parsed.manifest,
        parsed.warnings,
        await store.listFiles(),
        (await store.listEmptyDirs?.()) ?? [],
      );
    } catch (e) {
      await store.close?.();
      throw e;
    }
  }

  /** Frees the store (an unpacked archive's private folder). Reads after this fail. */
  async close(): Promise<void> {
    await this.store.close?.();
  }

  /**
   * A bundle that exists only in memory (a live Windows scan's collection): `files` is keyed by
   * native node path. The manifest is trusted as typed; its source already validated the data.
   */
  static fromMemory(
    label: string,
    manifest: BundleManifest,
    files: ReadonlyMap<string, Buffer>,
  ): BundleHost {
    const byRel = new Map<string, Buffer>();
    for (const [p, data] of files) byRel.set(nodePathToBundleRel(manifest.host.os, p), data);
    const store = new MemoryStore(
      label,
      JSON.stringify({ format: manifest.format, host: manifest.host }),
      byRel,
    );
    return new BundleHost(label, store, manifest, [], [...byRel.keys()]);
  }

  private imply(nodePath: string): void {
    let child = nodePath;
    for (let depth = 0; depth < 256; depth++) {
      const parent = dirnameNode(this.os, child);
      if (parent === child) break;
      const key = pathKey(this.os, parent);
      let set = this.implied.get(key);
      if (!set) this.implied.set(key, (set = new Set()));
      set.add(basenameNode(this.os, child));
      if (parent === '/' || /^[A-Za-z]:\\?$/.test(parent)) break;
      child = parent;
    }
  }

  async node(): Promise<NodeFacts> {
    const h = this.manifest.host;
    return {
      os: h.os,
      source: 'bundle',
      ...(h.hostname !== undefined && { hostname: h.hostname }),
      ...(h.osVersion !== undefined && { osVersion: h.osVersion }),
      ...(h.elevated !== undefined && { elevated: h.elevated }),
      ...(this.manifest.collectedAt !== undefined && { collectedAt: this.manifest.collectedAt }),
    };
  }

  async stat(p: string, opts?: { noFollow?: boolean }): Promise<StatResult> {
    const key = pathKey(this.os, p);
    const entry = this.paths.get(key);
    // A recorded link target answers lstat: the entry is a link, whatever it leads to.
    if (opts?.noFollow && entry?.target !== undefined)
      return { ok: true, type: 'symlink', target: entry.target };
    if (entry) {
      if (entry.error)
        return { ok: false, error: errorCode(entry.error), message: `${p}: ${entry.error}` };
      if (entry.type === 'missing')
        return { ok: false, error: 'ENOENT', message: `${p} does not exist` };
      return {
        ok: true,
        type: entry.type,
        ...(entry.size !== undefined && { size: entry.size }),
        ...(entry.target !== undefined && { target: entry.target }),
        ...(entry.executable !== undefined && { executable: entry.executable }),
        ...(entry.mtime !== undefined && { mtime: entry.mtime }),
      };
    }
    if (this.files.has(key)) return { ok: true, type: 'file' };
    if (this.implied.has(key)) return { ok: true, type: 'dir' };
    return UNRECORDED(p);
  }

  async readFile(p: string, opts?: ReadOptions): Promise<ReadResult> {
    return this.load(p, opts?.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {});
  }

  /** The head or the tail of a recorded file, never all of a huge one (store.ts ReadRange). */
  private async load(p: string, range: ReadRange): Promise<ReadResult> {
    const key = pathKey(this.os, p);
    const entry = this.paths.get(key);
    if (entry?.error)
      return { ok: false, error: errorCode(entry.error), message: `${p}: ${entry.error}` };
    if (entry?.type === 'missing')
      return { ok: false, error: 'ENOENT', message: `${p} does not exist` };
    if (entry?.type === 'dir')
      return { ok: false, error: 'EISDIR', message: `${p} is a directory` };
    const rel = this.files.get(key) ?? nodePathToBundleRel(this.os, p);
    const r = await this.store.read(rel, range);
    if (!r.ok) {
      // A path listed without its contents (e.g. stat'ed, never read) is unknown, not absent.
      if (r.error === 'ENOENT') return UNRECORDED(p);
      return {
        ok: false,
        error: r.error === 'EISDIR' ? 'EISDIR' : r.error === 'EACCES' ? 'EACCES' : 'OTHER',
        message: r.message,
      };
    }
    const truncated = (entry?.truncated ?? false) || r.size > r.data.length;
    return { ok: true, data: r.data, size: entry?.size ?? r.size, truncated };
  }

  async listDir(p: string): Promise<ListResult> {
    const key = pathKey(this.os, p);
    const entry = this.paths.get(key);
    if (entry?.error)
      return { ok: false, error: errorCode(entry.error), message: `${p}: ${entry.error}` };
    if (entry?.type === 'missing')
      return { ok: false, error: 'ENOENT', message: `${p} does not exist` };
    if (entry?.entries) return { ok: true, entries: [...entry.entries] };
    // A hand-made fixture may be a plain file tree: the files it holds are the listing
    // (documented in docs/bundle-extensions.md).
    const implied = this.implied.get(key);
    if (implied) return { ok: true, entries: [...implied] };
    return UNRECORDED(p);
  }

  async *streamFile(p: string, opts?: StreamOptions): AsyncIterable<Uint8Array> {
    const r = await this.load(
      p,
      opts?.tailBytes !== undefined ? { tailBytes: opts.tailBytes } : {},
    );
    if (!r.ok) throw Object.assign(new Error(r.message), { code: r.error });
    const data = r.data;
    const step = 1024 * 1024;
    for (let i = 0; i < data.length; i += step) yield data.subarray(i, i + step);
  }

  async processes(): Promise<Fact<ProcessFact[]>> {
    const ps = this.manifest.processes;
    return ps
      ? known(
          ps.map((p) => ({
            name: p.name,
            args: p.args,
            ...(p.pid !== undefined && { pid: p.pid }),
          })),
        )
      : unknownFact('the bundle did not record processes');
  }

  async services(): Promise<Fact<ServiceFact[]>> {
    const s = this.manifest.services;
    return s
      ? known(
          s.map((x) => ({
            name: x.name,
            state: x.state,
            ...(x.launch !== undefined && { launch: x.launch }),
          })),
        )
      : unknownFact('the bundle did not record services');
  }

  async versions(): Promise<Record<string, string>> {
    return { ...(this.manifest.versions ?? {}) };
  }

  async journal(req: JournalRequest): Promise<Fact<string> | undefined> {
    const log = this.manifest.logs?.find((l) => l.source === `journald:${req.unit}`);
    if (!log) return undefined;
    const r = await this.readFile(log.path);
    return r.ok ? known(r.data.toString('utf8')) : unknownFact(r.message);
  }

  async cri(): Promise<CriEntry[] | undefined> {
    return this.manifest.cri?.map((c) => ({ ...c }));
  }

  async pluginVersion(p: string): Promise<PluginVersionResult | undefined> {
    const r = this.manifest.pluginVersions?.[p];
    return r ? { ...r } : undefined;
  }

  async pipes(): Promise<Fact<string[]>> {
    if (this.os !== 'windows') return unknownFact('named pipes exist only on Windows');
    return this.manifest.pipes
      ? known([...this.manifest.pipes])
      : unknownFact('the bundle did not record named pipes');
  }

  async hns(): Promise<Fact<RawHns>> {
    if (this.os !== 'windows') return unknownFact('HNS exists only on Windows');
    const h = this.manifest.hns as
      (NonNullable<BundleManifest['hns']> & { errors?: unknown }) | undefined;
    if (!h) return unknownFact('the bundle did not record HNS objects');
    if (h.error) return unknownFact(`HNS could not be read on the node: ${h.error}`);
    const errors =
      typeof h.errors === 'object' && h.errors !== null && !Array.isArray(h.errors)
        ? Object.fromEntries(
            Object.entries(h.errors as Record<string, unknown>).filter(
              (e): e is [string, string] => typeof e[1] === 'string',
            ),
          )
        : undefined;
    return known({
      networks: h.networks,
      endpoints: h.endpoints,
      namespaces: h.namespaces,
      policyLists: h.policyLists,
      ...(h.source !== undefined && { source: h.source }),
      ...(errors && Object.keys(errors).length > 0 && { errors }),
    });
  }
}

function errorCode(e: string): FsErrorCode {
  const known: FsErrorCode[] = ['ENOENT', 'EACCES', 'ELOOP', 'ENOTDIR', 'EISDIR', 'EIO'];
  const hit = known.find((k) => e.toUpperCase().includes(k));
  if (hit) return hit;
  if (/permission|access/i.test(e)) return 'EACCES';
  return 'OTHER';
}
