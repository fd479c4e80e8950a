/**
 * A Host is where facts come from: the live node, a node disk mounted under --root, or a recorded
 * bundle. Probes only talk to this interface, so a probe cannot tell which host it runs on
 * (architecture.md: "A bundle and a live node are the same thing to the engine").
 *
 * Paths are native absolute node paths (`/etc/cni/net.d`, `C:\etc\cni\net.d`).
 */
import type { Fact } from '../../shared/model/fact';
import type { CriEntry } from '../../shared/model/cri';
import type {
  NodeFacts,
  PluginVersionAnswer,
  ProcessFact,
  ServiceFact,
} from '../../shared/model/snapshot';

export type FsErrorCode =
  'ENOENT' | 'EACCES' | 'ELOOP' | 'ENOTDIR' | 'EISDIR' | 'EIO' | 'UNRECORDED' | 'OTHER';

export type PathType = 'file' | 'dir' | 'socket' | 'symlink' | 'missing' | 'other';

export type StatResult =
  | {
      ok: true;
      type: PathType;
      size?: number;
      target?: string;
      executable?: boolean;
      /** Last modification time, ISO 8601 (to tell log lines older than a config change). */
      mtime?: string;
    }
  | { ok: false; error: FsErrorCode; message: string };

export type ReadResult =
  | { ok: true; data: Buffer; size: number; truncated: boolean }
  | { ok: false; error: FsErrorCode; message: string };

export type ListResult =
  { ok: true; entries: string[] } | { ok: false; error: FsErrorCode; message: string };

export interface ReadOptions {
  /** Read at most this many bytes (the start of the file); `truncated` says when more existed. */
  maxBytes?: number;
}

export interface StreamOptions {
  /** Read only the last `tailBytes` of the file (logs: the newest entries matter most). */
  tailBytes?: number;
  /**
   * A buffer the caller will copy the bytes into anyway (a recording keeping a log tail): a host
   * that can read straight into it yields views of it, in order from its start, and no chunk
   * of its own. Hosts may ignore it; bytes beyond its length come as ordinary chunks.
   */
  into?: Buffer;
  /**
   * The caller is done with each chunk before it asks for the next (a log scan): a host may read
   * every chunk into the same buffer instead of allocating one per chunk. A host that keeps or
   * passes on the chunks (a recording) must not pass this on.
   */
  reuse?: boolean;
}

export interface JournalRequest {
  unit: string;
  lines: number;
}

export interface Host {
  readonly os: 'linux' | 'windows';
  readonly source: 'live' | 'bundle';
  /** A label for messages: "live node", "bundle /tmp/x.tar.gz", "root /mnt/node". */
  readonly label: string;

  node(): Promise<NodeFacts>;
  /** Follows symlinks (like stat(2)); `lstat` semantics via `stat(path, { noFollow: true })`. */
  stat(path: string, opts?: { noFollow?: boolean }): Promise<StatResult>;
  readFile(path: string, opts?: ReadOptions): Promise<ReadResult>;
  listDir(path: string): Promise<ListResult>;
  /** Streams a (possibly huge) file in chunks; errors surface as a rejected iteration. */
  streamFile(path: string, opts?: StreamOptions): AsyncIterable<Uint8Array>;
  /**
   * Records the last `tailBytes` of a log straight into the bundle being written, without
   * handing the bytes to the caller (collect does not match logs). Only a recording host that
   * can do this offers it; undefined from it means "stream it instead".
   */
  recordTail?(path: string, tailBytes: number): Promise<{ bytes: number } | undefined>;
  processes(): Promise<Fact<ProcessFact[]>>;
  services(names: readonly string[]): Promise<Fact<ServiceFact[]>>;
  /** Versions the host can determine by itself (running `kubelet --version` etc. on live hosts). */
  versions(hints: VersionHints): Promise<Record<string, string>>;
  /** Recent journald entries of a unit; `undefined` when the host has no journal. */
  journal(req: JournalRequest): Promise<Fact<string> | undefined>;
  /** Asks CRI endpoints; `undefined` when this host cannot (a bundle that recorded none). */
  cri(endpoints: readonly string[]): Promise<CriEntry[] | undefined>;
  /** Why cri() gave no answers, when the host knows (a remote node without a CRI relay). */
  criUnavailable?(): string | undefined;
  /**
   * CRI goes over the host's one connection to the node and ends it (a remote node's agent hands
   * its run to the socket): ask it once every file is read, not beside them.
   */
  readonly criLast?: boolean;
  /**
   * Runs a CNI plugin with CNI_COMMAND=VERSION (no network change). Only a live node can; a
   * bundle answers what its collection recorded. `undefined`: not asked / not recorded.
   */
  pluginVersion?(path: string): Promise<PluginVersionResult | undefined>;
  /** Windows only: names under \\.\pipe\. */
  pipes(): Promise<Fact<string[]>>;
  /** Windows only: HNS objects as the node returned them (the probe normalises them). */
  hns(): Promise<Fact<RawHns>>;
}

/** A CNI plugin's answer to `CNI_COMMAND=VERSION` (shared/model/snapshot.ts). */
export type PluginVersionResult = PluginVersionAnswer;

/** Binaries whose `--version` a live host may run, found from the process table or defaults. */
export interface VersionHints {
  binaries: { component: string; path: string }[];
}

/** HNS lists as Get-HnsNetwork & co. (or hnsdiag / the v2 module) returned them. */
export interface RawHns {
  networks: unknown[];
  endpoints: unknown[];
  namespaces: unknown[];
  policyLists: unknown[];
  source?: string;
  /** Per-list read errors (e.g. one list timed out); other lists stay usable. */
  errors?: Record<string, string>;
}
