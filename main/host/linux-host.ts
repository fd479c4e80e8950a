/**
 * The live Linux node (or a node's disk mounted at `--root`). Reads are bounded and never block:
 * only regular files are opened (a FIFO in /etc/cni/net.d would hang a naive reader).
 */
import * as os from 'node:os';
import type { Fact } from '../../shared/model/fact';
import { unknownFact } from '../../shared/model/fact';
import type { CriEntry } from '../../shared/model/cri';
import type { NodeFacts, ProcessFact, ServiceFact } from '../../shared/model/snapshot';
import type {
  RawHns,
  FsErrorCode,
  Host,
  JournalRequest,
  ListResult,
  PathType,
  ReadOptions,
  ReadResult,
  StatResult,
  StreamOptions,
  VersionHints,
  PluginVersionResult,
} from './host';
import { ResolveError, RootResolver } from './rooted-fs';
import { blockingIo, threadPoolIo, type FileIo, type OpenOptions } from './linux/file-io';
import { runPluginVersion } from './linux/plugin-version';
import { readProcessTable } from './linux/proc';
import { systemdServices, journalExcerpt, runVersion } from './linux/commands';

export interface LinuxHostOptions {
  /** Scan a node disk mounted here as if it were `/`. Default `/` (this machine). */
  root?: string;
  /** Deadline for each CRI call (ms). */
  criDeadlineMs?: number;
  /**
   * Make file calls synchronously (file-io.ts): for a one-shot CLI run, whose event loop has
   * nothing else to do. Long-running processes leave it off so they keep answering meanwhile.
   */
  blockingIo?: boolean;
}

export class LinuxHost implements Host {
  readonly os = 'linux' as const;
  readonly source = 'live' as const;
  readonly label: string;
  private readonly root: string;
  private readonly criDeadlineMs: number;
  /** Directories under --root are walked once per host; a host is opened per scan. */
  private readonly paths: RootResolver;
  private readonly io: FileIo;
  /**
   * Under --root every path is resolved inside the root first (rooted-fs.ts), and the answer is
   * kept for the scan: the file opened must still be what was resolved, not a symlink put there
   * since. On `/` the kernel resolves, symlinks included, as the node would.
   */
  private readonly open: OpenOptions;

  constructor(opts: LinuxHostOptions = {}) {
    this.root = opts.root ?? '/';
    this.io = opts.blockingIo ? blockingIo : threadPoolIo;
    this.open = { noFollow: this.root !== '/' };
    this.paths = new RootResolver(this.root, this.io);
    this.criDeadlineMs = opts.criDeadlineMs ?? 3000;
    this.label = this.root === '/' ? 'live node' : `node disk at ${this.root}`;
  }

  /**
   * Where a node path is on this machine (under --root: inside the root, symlinks resolved there),
   * for watching it; undefined when the path cannot be resolved.
   */
  async localPath(p: string): Promise<string | undefined> {
    try {
      return await this.paths.resolve(p, true);
    } catch {
      return undefined;
    }
  }

  /** True when this is the running machine (processes, services and CRI can be asked). */
  get isRunningNode(): boolean {
    return this.root === '/';
  }

  async node(): Promise<NodeFacts> {
    if (!this.isRunningNode) {
      const hostname = await this.readFile('/etc/hostname', { maxBytes: 256 });
      return {
        os: 'linux',
        source: 'live',
        ...(hostname.ok && { hostname: hostname.data.toString('utf8').trim() }),
        ...(await this.osRelease()),
      };
    }
    return {
      os: 'linux',
      source: 'live',
      hostname: os.hostname(),
      elevated: process.getuid?.() === 0,
      ...(await this.osRelease()),
    };
  }

  private async osRelease(): Promise<{ osVersion?: string }> {
    const r = await this.readFile('/etc/os-release', { maxBytes: 16384 });
    if (!r.ok) return {};
    const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(r.data.toString('utf8'));
    return m?.[1] ? { osVersion: m[1] } : {};
  }

  private async real(p: string, follow = true): Promise<string> {
    return this.paths.resolve(p, follow);
  }

  async stat(p: string, opts?: { noFollow?: boolean }): Promise<StatResult> {
    try {
      const { real, stats } = await this.paths.locate(p, !opts?.noFollow);
      // Under --root the walk already lstat-ed what the path names; on / it did not.
      const st = stats ?? (opts?.noFollow ? await this.io.lstat(real) : await this.io.stat(real));
      const type: PathType = st.isFile()
        ? 'file'
        : st.isDirectory()
          ? 'dir'
          : st.isSocket()
            ? 'socket'
            : st.isSymbolicLink()
              ? 'symlink'
              : 'other';
      const target =
        type === 'symlink' ? await this.io.readlink(real).catch(() => undefined) : undefined;
      return {
        ok: true,
        type,
        size: st.size,
        executable: (st.mode & 0o111) !== 0,
        mtime: st.mtime.toISOString(),
        ...(target !== undefined && { target }),
      };
    } catch (e) {
      return fsError(p, e);
    }
  }

  /** Only on the running node: under --root the binaries may not even run on this machine. */
  async pluginVersion(p: string): Promise<PluginVersionResult | undefined> {
    if (this.root !== '/') return undefined;
    return runPluginVersion(p);
  }

  async readFile(p: string, opts?: ReadOptions): Promise<ReadResult> {
    try {
      const max = opts?.maxBytes ?? Number.MAX_SAFE_INTEGER;
      const r = await this.io.readRegular(await this.real(p), max, this.open);
      if (r.notRegular === 'dir')
        return { ok: false, error: 'EISDIR', message: `${p} is a directory` };
      if (r.notRegular) return { ok: false, error: 'OTHER', message: `${p} is not a regular file` };
      return { ok: true, data: r.data, size: r.size, truncated: r.size > max };
    } catch (e) {
      return fsError(p, e);
    }
  }

  async listDir(p: string): Promise<ListResult> {
    try {
      return { ok: true, entries: await this.io.readdir(await this.real(p)) };
    } catch (e) {
      return fsError(p, e);
    }
  }

  async *streamFile(p: string, opts?: StreamOptions): AsyncIterable<Uint8Array> {
    const real = await this.real(p);
    const st = await this.io.stat(real);
    if (!st.isFile())
      throw Object.assign(new Error(`${p} is not a regular file`), { code: 'OTHER' });
    const start =
      opts?.tailBytes !== undefined && st.size > opts.tailBytes ? st.size - opts.tailBytes : 0;
    // Read up to the size seen now: a log growing while we scan does not make the scan endless.
    const end = Math.max(st.size - 1, start);
    if (st.size === 0) return;
    const o = opts?.reuse ? { ...this.open, reuse: true } : this.open;
    yield* this.io.readRange(real, start, end + 1, opts?.into, o);
  }

  async processes(): Promise<Fact<ProcessFact[]>> {
    if (!this.isRunningNode)
      return unknownFact(`processes are not visible for a disk mounted at ${this.root}`);
    return readProcessTable();
  }

  async services(names: readonly string[]): Promise<Fact<ServiceFact[]>> {
    if (!this.isRunningNode)
      return unknownFact(`services are not visible for a disk mounted at ${this.root}`);
    return systemdServices(names);
  }

  async versions(hints: VersionHints): Promise<Record<string, string>> {
    if (!this.isRunningNode) return {};
    const out: Record<string, string> = {};
    await Promise.all(
      hints.binaries.map(async ({ component, path }) => {
        const v = await runVersion(path);
        if (v !== undefined) out[component] = v;
      }),
    );
    return out;
  }

  async journal(req: JournalRequest): Promise<Fact<string> | undefined> {
    if (!this.isRunningNode) return undefined;
    return journalExcerpt(req.unit, req.lines);
  }

  async cri(endpoints: readonly string[]): Promise<CriEntry[] | undefined> {
    if (!this.isRunningNode) return undefined;
    const { probeCriEndpoint } = await import('../cri/client');
    return Promise.all(
      endpoints.map((ep) =>
        probeCriEndpoint(ep, { deadlineMs: this.criDeadlineMs, listSandboxes: true }),
      ),
    );
  }

  async pipes(): Promise<Fact<string[]>> {
    return unknownFact('named pipes exist only on Windows');
  }

  async hns(): Promise<Fact<RawHns>> {
    return unknownFact('HNS exists only on Windows');
  }
}

export function fsError(p: string, e: unknown): { ok: false; error: FsErrorCode; message: string } {
  if (e instanceof ResolveError)
    return { ok: false, error: e.code === 'OTHER' ? 'OTHER' : e.code, message: e.message };
  const code = (e as NodeJS.ErrnoException).code;
  const map: Record<string, FsErrorCode> = {
    ENOENT: 'ENOENT',
    EACCES: 'EACCES',
    EPERM: 'EACCES',
    ELOOP: 'ELOOP',
    ENOTDIR: 'ENOTDIR',
    EISDIR: 'EISDIR',
    EIO: 'EIO',
  };
  const err: FsErrorCode = (code !== undefined ? map[code] : undefined) ?? 'OTHER';
  const why =
    err === 'ENOENT'
      ? 'does not exist'
      : err === 'EACCES'
        ? 'permission denied'
        : err === 'ELOOP'
          ? 'symlink loop'
          : (e as Error).message;
  return { ok: false, error: err, message: `${p}: ${why}` };
}
