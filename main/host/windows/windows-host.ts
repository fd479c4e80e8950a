/**
 * The live Windows node, read over ONE long-lived PowerShell session (docs/knowledge/windows-node.md#node-powershell, docs/knowledge/windows-node.md#scale, docs/knowledge/windows-node.md#scale):
 *
 * - The first Host call runs ONE collection (collect.ps1): host, pipes, services, processes,
 *   versions, every HNS list, and every path a default scan's probes ask for (scan-paths.ts).
 *   HNS objects are read there and only there, whole lists at a time — never one object per call.
 * - The result is held as an in-memory bundle and every Host call is answered from it by the
 *   same BundleHost logic that answers a recorded bundle, so a live scan and a replay of its
 *   recording agree.
 * - A path the probes discover later (a non-default conf_dir, an import, a kubelet --config) is
 *   a miss; misses raised in the same turn of the event loop are fetched in ONE follow-up call
 *   that reads files only (miss-batcher.ts). A path is never asked for twice.
 * - CRI goes over gRPC to the npipe endpoints (main/cri/client.ts), not through the shell.
 * - Deadlines and a hung shell are the session's business (powershell-session.ts kills and
 *   respawns it); a failed follow-up makes only its paths unknown, never absent.
 */
import type { CriEntry } from '../../../shared/model/cri';
import type { Fact } from '../../../shared/model/fact';
import type { NodeFacts, ProcessFact, ServiceFact } from '../../../shared/model/snapshot';
import type { ProbeOptions } from '../../cri/client';
import type { BundleHost } from '../bundle-host';
import type {
  FsErrorCode,
  Host,
  ListResult,
  RawHns,
  ReadOptions,
  ReadResult,
  StatResult,
  StreamOptions,
} from '../host';
import { pathKey } from '../../conventions/node-paths';
import { collectWindows, defaultDeadlineMs } from './collect';
import { defaultCollectInput, type CollectInput } from './collect-input';
import { toBundlePieces } from './collect-manifest';
import { CollectedNode } from './collected-node';
import { MissBatcher, type PathWant, type WantKind } from './miss-batcher';
import type { ScriptRunner } from './powershell-session';
import {
  collectablePath,
  CONF_FILE_SUFFIXES,
  defaultScanRequest,
  type PathRequest,
} from './scan-paths';

export type CriProber = (endpoint: string, opts: ProbeOptions) => Promise<CriEntry>;

export interface WindowsHostOptions {
  /** Budget per CRI endpoint (default 3 s, as on Linux). */
  criDeadlineMs?: number;
  /** Changes to the collection input (limits, HNS source); paths are the scan's own. */
  input?: Partial<Omit<CollectInput, 'paths' | 'dirs' | 'readDirs' | 'tails' | 'sections'>>;
  /** Deadline of a follow-up call (files only). Default 60 s. */
  followUpDeadlineMs?: number;
  /** How CRI endpoints are asked; default probeCriEndpoint over grpc-js. */
  probeCri?: CriProber;
}

type Failure = { ok: false; error: FsErrorCode; message: string };

const LABEL = 'live Windows node';

export class WindowsHost implements Host {
  readonly os = 'windows' as const;
  readonly source = 'live' as const;
  readonly label = LABEL;

  private readonly collected = new CollectedNode();
  private current: BundleHost | undefined;
  private first: Promise<BundleHost> | undefined;
  /** Paths already fetched (kind + key): never asked twice. */
  private readonly asked = new Set<string>();
  /** pathKey → why its follow-up failed (its facts are unknown). */
  private readonly failed = new Map<string, string>();
  private readonly batcher = new MissBatcher((w) => this.fetchMore(w));
  private calls = 0;

  constructor(
    private readonly runner: ScriptRunner & { dispose?: () => Promise<void> },
    private readonly opts: WindowsHostOptions = {},
  ) {}

  /** Collection calls made to the shell so far (one per round). */
  get roundTrips(): number {
    return this.calls;
  }

  /** What this scan has read, as a bundle manifest and files (for `collect` and tests). */
  recording(): {
    manifest: ReturnType<CollectedNode['manifest']>;
    files: ReadonlyMap<string, Buffer>;
  } {
    return { manifest: this.collected.manifest(), files: this.collected.contents() };
  }

  private input(request: PathRequest, extra: Partial<CollectInput> = {}): CollectInput {
    return defaultCollectInput({
      ...this.opts.input,
      ...request,
      readDirSuffixes: [...CONF_FILE_SUFFIXES],
      ...extra,
    });
  }

  /** The first call of any Host method runs the full collection; a failure fails the scan. */
  private ready(): Promise<BundleHost> {
    this.first ??= (async () => {
      const input = this.input(defaultScanRequest());
      this.calls++;
      const r = await collectWindows(this.runner, input, { deadlineMs: defaultDeadlineMs(input) });
      if (!r.ok) throw new Error(`reading the Windows node failed (${r.kind}): ${r.message}`);
      if (r.collection.error !== undefined)
        throw new Error(`reading the Windows node failed: ${r.collection.error}`);
      this.collected.add(toBundlePieces(r.collection));
      for (const p of [...input.paths, ...input.dirs]) this.asked.add(askKey('path', p));
      for (const p of input.readDirs) this.asked.add(askKey('readDir', p));
      for (const p of input.tails) this.asked.add(askKey('tail', p));
      this.current = this.collected.host(LABEL);
      return this.current;
    })();
    return this.first;
  }

  private async fetchMore(wants: PathWant[]): Promise<void> {
    const pick = (k: WantKind): string[] => wants.filter((w) => w.kind === k).map((w) => w.path);
    for (const w of wants) this.asked.add(askKey(w.kind, w.path));
    const input = this.input(
      { paths: pick('path'), dirs: [], readDirs: pick('readDir'), tails: pick('tail') },
      { sections: ['files'] },
    );
    this.calls++;
    const r = await collectWindows(this.runner, input, {
      deadlineMs: this.opts.followUpDeadlineMs ?? 60_000,
    });
    const why = !r.ok
      ? `${r.kind}: ${r.message}`
      : (r.collection.files?.error ??
        (r.collection.files ? undefined : 'the answer had no files section'));
    if (why !== undefined) {
      for (const w of wants)
        this.failed.set(
          pathKey('windows', w.path),
          `${w.path} could not be read from the node (${why})`,
        );
    }
    if (!r.ok) return;
    this.collected.add(toBundlePieces(r.collection));
    this.current = this.collected.host(LABEL);
  }

  /**
   * Answers from what was collected; a path never collected is fetched (batched) and asked again.
   * `kind` says how to fetch it: as a file or dir (`path`), a conf dir with its configs
   * (`readDir`), or a log's tail (`tail`).
   */
  private async answer<T extends { ok: boolean }>(
    p: string,
    kind: WantKind,
    ask: (h: BundleHost) => Promise<T>,
  ): Promise<T | Failure> {
    await this.ready();
    // Always the newest state: follow-ups replace it with one that holds more.
    const first = await ask(this.current as BundleHost);
    if (!unrecorded(first)) return first;
    const native = collectablePath(p);
    if (native === undefined)
      return {
        ok: false,
        error: 'OTHER',
        message: `${p} is not a plain local drive path; the doctor does not open it`,
      };
    const key = pathKey('windows', native);
    if (!this.asked.has(askKey(kind, native)) && !this.failed.has(key)) {
      await this.batcher.request({ kind, path: native, key: askKey(kind, native) });
    }
    const again = await ask(this.current as BundleHost);
    if (!unrecorded(again)) return again;
    return {
      ok: false,
      error: 'OTHER',
      message: this.failed.get(key) ?? `${p}: the node's answer did not cover it`,
    };
  }

  async node(): Promise<NodeFacts> {
    const facts = await (await this.ready()).node();
    return { ...facts, source: 'live' };
  }

  async stat(p: string, _opts?: { noFollow?: boolean }): Promise<StatResult> {
    return this.answer(p, 'path', (h) => h.stat(p));
  }

  async readFile(p: string, opts?: ReadOptions): Promise<ReadResult> {
    return this.answer(p, 'path', (h) => h.readFile(p, opts));
  }

  async listDir(p: string): Promise<ListResult> {
    return this.answer(p, 'readDir', (h) => h.listDir(p));
  }

  async *streamFile(p: string, opts?: StreamOptions): AsyncIterable<Uint8Array> {
    // Make sure the contents were collected (a log's tail, or the file), then stream them.
    const r = await this.answer(p, opts?.tailBytes !== undefined ? 'tail' : 'path', (h) =>
      h.readFile(p, { maxBytes: 1 }),
    );
    if (!r.ok) throw Object.assign(new Error(r.message), { code: r.error });
    yield* (this.current as BundleHost).streamFile(p, opts);
  }

  async processes(): Promise<Fact<ProcessFact[]>> {
    return (await this.ready()).processes();
  }

  async services(): Promise<Fact<ServiceFact[]>> {
    return (await this.ready()).services();
  }

  async versions(): Promise<Record<string, string>> {
    return (await this.ready()).versions();
  }

  /** Windows has no journal; its logs are files. */
  async journal(): Promise<undefined> {
    return undefined;
  }

  async cri(endpoints: readonly string[]): Promise<CriEntry[]> {
    const probe = this.opts.probeCri ?? (await import('../../cri/client')).probeCriEndpoint;
    const deadlineMs = this.opts.criDeadlineMs ?? 3000;
    return Promise.all(endpoints.map((ep) => probe(ep, { deadlineMs, listSandboxes: true })));
  }

  async pipes(): Promise<Fact<string[]>> {
    return (await this.ready()).pipes();
  }

  async hns(): Promise<Fact<RawHns>> {
    return (await this.ready()).hns();
  }
}

function askKey(kind: WantKind, p: string): string {
  return `${kind}:${pathKey('windows', p)}`;
}

function unrecorded(r: { ok: boolean }): boolean {
  return !r.ok && (r as Failure).error === 'UNRECORDED';
}
