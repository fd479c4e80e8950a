/**
 * A Linux node reached through a transport (a node container, ssh, a kubectl debug pod), read by
 * the node agent over ONE program run: the first exchange asks everything a default scan reads
 * (prefetch.ts); whatever the probes discover later (a non-default conf_dir, an import, a plugin
 * binary, a `--version`) is asked on the same run, batched per turn of the event loop. Answers
 * follow LinuxHost's semantics (same error codes and messages), so a scan through a transport
 * gives the same findings as a scan run on the node itself.
 */
import type { CriEntry } from '../../shared/model/cri';
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { NodeFacts, ProcessFact, ServiceFact } from '../../shared/model/snapshot';
import type {
  FsErrorCode,
  Host,
  JournalRequest,
  ListResult,
  RawHns,
  ReadOptions,
  ReadResult,
  StatResult,
  StreamOptions,
  VersionHints,
  PluginVersionResult,
} from '../host/host';
import { isRelevant, processName } from '../host/linux/proc';
import { journalFact, parseSystemctlShow, versionIn } from '../host/linux/commands';
import { blockOf, type AgentAnswer } from './agent-protocol';
import { AgentSession, RELAYABLE, type AgentRequest, type NodeSessionError } from './agent-session';
import { endpointToPath } from '../conventions/endpoint';
import type { NodeDeadlines } from './node-deadlines';
import { closeWarm, offerRelay, probeThroughRelay, type RelayStats } from './cri-relay';
import { crictlEntry } from './crictl-answers';
import { defaultPrefetch, LIST_MAX } from './prefetch';
import {
  disabledOriginal,
  LOADABLE_EXTENSIONS,
  WELL_KNOWN_BIN_DIRS,
  WELL_KNOWN_CONF_DIRS,
} from '../conventions/cni-files';
import { joinNode } from '../conventions/node-paths';
import { cniExtension } from '../probes/cni-parse';
import { MAX_LOADABLE_ENTRIES } from '../probes/cni-dirs';
import { READ_LIMITS } from '../bundle/limits';
import type { Transport } from './transport';
import { versionKey, type VersionCache } from './version-cache';

/** A plugin type as a conf names it, and as probePluginVersions accepts it. */
const PLUGIN_TYPE = /"type"\s*:\s*"([A-Za-z0-9._-]{1,64})"/g;
/** A plugin's `--version` the probe can read: it names the CNI versions the plugin speaks. */
const speaksCni = (output: string): boolean =>
  /CNI protocol versions supported: *[0-9]/.test(output);
/** The probe's own cap on the plugins it asks (plugin-versions.ts MAX_PLUGINS). */
const PLUGIN_VERSIONS_AHEAD = 32;
/** The probe's own cap on a conf dir's entries (cni-dirs.ts MAX_ENTRIES). */
const CONF_FILES_AHEAD = 5000;

export interface RemoteHostOptions {
  /** Budget per CRI endpoint, connection through the transport included (default 10 s). */
  criDeadlineMs?: number;
  /** How long the node may take per answer and in all (node-deadlines.ts defaults). */
  deadlines?: Partial<NodeDeadlines>;
  /** `--version` answers of the node's plugins and kubelet from earlier scans (version-cache.ts). */
  versionCache?: VersionCache;
}

/** A binary's `--version`: what the agent said of the file, and the program's output. */
interface VersionAnswer {
  type: AgentAnswer['type'];
  output: string | undefined;
}

type Failure = { ok: false; error: FsErrorCode; message: string };

const CODES: Record<string, FsErrorCode> = {
  ENOENT: 'ENOENT',
  EACCES: 'EACCES',
  EISDIR: 'EISDIR',
  ENOTDIR: 'ENOTDIR',
  ELOOP: 'ELOOP',
};
const WHY: Partial<Record<FsErrorCode, string>> = {
  ENOENT: 'does not exist',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

function failure(p: string, a: AgentAnswer): Failure | undefined {
  if (a.type === 'missing' && !a.error)
    return { ok: false, error: 'ENOENT', message: `${p}: does not exist` };
  if (!a.error) return undefined;
  const code = CODES[a.error.code] ?? 'OTHER';
  if (code === 'EISDIR') return { ok: false, error: code, message: `${p} is a directory` };
  if (code === 'OTHER') return { ok: false, error: code, message: `${p} is not a regular file` };
  return { ok: false, error: code, message: `${p}: ${WHY[code] ?? a.error.message}` };
}

export class RemoteLinuxHost implements Host {
  readonly os = 'linux' as const;
  readonly source = 'live' as const;
  readonly label: string;
  /** The run of the agent asked now; a run handed to the CRI relay is kept in `earlier`. */
  private session: AgentSession;
  private readonly earlier: AgentSession[] = [];
  private readonly answers = new Map<string, Promise<AgentAnswer>>();
  private prefetched = false;
  /** Plugin types whose `--version` was asked ahead (prefetchPluginVersions). */
  private readonly versionsAhead = new Set<string>();
  /** Each binary's `--version`, remembered or asked once per scan (versionAnswer). */
  private readonly versionAnswers = new Map<string, Promise<VersionAnswer | undefined>>();
  private readonly relay: RelayStats = { connections: 0 };
  /**
   * CRI goes over the agent's own run, handed to socat at its end (AgentSession.handOver): the
   * engine asks it once the files are read (snapshot.ts), so no second program is run.
   */
  readonly criLast = true;
  private programsStarted: Promise<void> | undefined;
  /**
   * The agent's run was handed to the CRI relay: questions asked ahead are dropped from then on
   * (a guess is not worth a new run on the node); the probes' own questions start one.
   */
  private handedOver = false;
  /** How the CRI answers were obtained, or why not (set by cri()). */
  criRoute: string | undefined;

  constructor(
    readonly transport: Transport,
    private readonly opts: RemoteHostOptions = {},
  ) {
    this.session = this.newSession();
    this.label = `${transport.name} → ${describeTarget(transport)}`;
  }

  private newSession(): AgentSession {
    const s = new AgentSession(this.transport, this.opts.deadlines);
    // The answers of a failed session are let go at once (the cached buffers, up to the cap).
    s.onFailed = () => this.answers.clear();
    return s;
  }

  private get sessions(): AgentSession[] {
    return [...this.earlier, this.session];
  }

  /** Program runs on the node (the agent's, and socat's for a CRI socket it could not take). */
  get roundTrips(): number {
    return this.sessions.reduce((n, s) => n + s.runs, 0) + (this.relay.runs ?? 0);
  }
  /** Batches of questions sent to the agent. */
  get exchanges(): number {
    return this.sessions.reduce((n, s) => n + s.exchanges, 0);
  }
  get criConnections(): number {
    return this.relay.connections;
  }
  /**
   * Why the conversation with the node ended early (it hung, or sent more than asked): a scan
   * whose answers stopped midway is not a diagnosis, so the command fails with this instead.
   */
  get sessionFailure(): NodeSessionError | undefined {
    return this.sessions.find((s) => s.failed)?.failed;
  }
  /** Bytes the node sent this session (decoded). */
  get receivedBytes(): number {
    return this.sessions.reduce((n, s) => n + s.receivedBytes, 0);
  }

  private async ask(r: AgentRequest): Promise<AgentAnswer> {
    const a = await this.askCached(r);
    // Answers that came in before the session failed are not handed on after it: the command
    // fails anyway, and the engine would otherwise go on working through what a node flooding
    // us had sent (a hostile node's 4 MiB confs, read and parsed, tripled our memory).
    const failed = this.session.failed;
    if (failed) throw failed;
    return a;
  }

  private askCached(r: AgentRequest): Promise<AgentAnswer> {
    if (!this.prefetched) {
      this.prefetched = true;
      for (const p of defaultPrefetch()) this.cached(p);
      for (const dir of WELL_KNOWN_CONF_DIRS.linux)
        void this.cached({ op: 'list', path: dir, max: LIST_MAX }).then(
          (a) => this.prefetchConfFiles(dir, a),
          () => undefined,
        );
      for (const dir of WELL_KNOWN_BIN_DIRS.linux)
        void this.cached({ op: 'list', path: dir, max: LIST_MAX }).then(
          (a) => this.prefetchBinEntries(dir, a),
          () => undefined,
        );
    }
    return this.cached(r);
  }

  /**
   * The probe stats every entry of a conf dir, then reads the loadable ones (cni-dirs.ts), once
   * the runtimes' configs have been read; asked as soon as the listing is in, those two exchanges
   * are answered by then. The same questions: the probe's own are answered from the cache.
   */
  private prefetchConfFiles(dir: string, a: AgentAnswer): void {
    if (this.handedOver || a.error || a.type !== 'dir') return;
    for (const name of a.names.slice(0, CONF_FILES_AHEAD)) {
      const path = joinNode('linux', dir, name);
      this.cached({ op: 'stat', path });
      const ext = cniExtension(name, 'linux');
      const loadable = (LOADABLE_EXTENSIONS as readonly string[]).includes(ext);
      if (!loadable && !disabledOriginal(name)) continue;
      const read = this.cached({ op: 'read', path, max: READ_LIMITS.configBytes });
      if (loadable)
        void read.then(
          (r) => this.prefetchPluginVersions(r),
          () => undefined,
        );
    }
  }

  /**
   * probePluginVersions asks `--version` of each plugin type the loadable confs name once the
   * conf and plugin folders are probed: after the runtime's CRI is asked, and last on the node
   * (a program run each, ~6 ms, one after another). The types a conf names are found here as
   * soon as it is read, and asked of the first default plugin folder that holds them (the probe's
   * choice unless the runtime names another folder): the answers are in when the probe asks,
   * while CRI answers. A type the probe does not ask about costs a program run on the node.
   */
  private prefetchPluginVersions(a: AgentAnswer): void {
    const data = a.error || this.handedOver ? undefined : blockOf(a, 0);
    if (!data) return;
    for (const m of data.toString('utf8').matchAll(PLUGIN_TYPE)) {
      const type = m[1] as string;
      if (this.versionsAhead.has(type) || this.versionsAhead.size >= PLUGIN_VERSIONS_AHEAD)
        continue;
      this.versionsAhead.add(type);
      void this.firstBinDirHolding(type).then(
        (dir) => {
          if (dir && !this.handedOver)
            void this.versionAnswer(joinNode('linux', dir, type), speaksCni, true);
        },
        () => undefined,
      );
    }
  }

  /**
   * A binary's `--version` output (a plugin's, the kubelet's), once per scan: remembered from an
   * earlier scan when the binary is the very same file (version-cache.ts), else asked of the node
   * and remembered when `readable`. Asked `ahead` (a guess from a conf's text), it is not asked
   * once the run went to the CRI relay.
   */
  private versionAnswer(
    path: string,
    readable: (output: string) => boolean,
    ahead = false,
  ): Promise<VersionAnswer | undefined> {
    const memo = this.versionAnswers.get(path);
    if (memo) return memo;
    const p = this.askVersion(path, readable, ahead);
    this.versionAnswers.set(path, p);
    // A guess given up, or a failed run: the probe's own question asks again.
    const forget = () => {
      if (this.versionAnswers.get(path) === p) this.versionAnswers.delete(path);
    };
    p.then((r) => r === undefined && forget(), forget);
    return p;
  }

  private async askVersion(
    path: string,
    readable: (output: string) => boolean,
    ahead: boolean,
  ): Promise<VersionAnswer | undefined> {
    const key = await this.versionKeyOf(path);
    const remembered = key === undefined ? undefined : this.opts.versionCache?.get(key);
    if (remembered !== undefined && readable(remembered))
      return { type: 'file', output: remembered };
    if (ahead && this.handedOver) return undefined;
    const a = await this.askCached({ op: 'version', path });
    const output = a.type === 'file' ? (blockOf(a, 0) ?? EMPTY).toString('utf8') : undefined;
    if (key !== undefined && output !== undefined && readable(output))
      this.opts.versionCache?.remember(key, output);
    return { type: a.type, output };
  }

  /**
   * What the binary's answer is remembered under: the node's name and the binary's identity from
   * its stat, both answered by then (the first exchange; the plugin folder's stats).
   */
  private async versionKeyOf(path: string): Promise<string | undefined> {
    if (!this.opts.versionCache) return undefined;
    try {
      const [node, st] = await Promise.all([
        this.askCached({ op: 'node' }),
        this.askCached({ op: 'stat', path }),
      ]);
      const hostname = node.names[0];
      if (hostname === undefined) return undefined;
      return versionKey(JSON.stringify(this.transport.target), hostname, path, st.identity);
    } catch {
      return undefined;
    }
  }

  private async firstBinDirHolding(name: string): Promise<string | undefined> {
    for (const dir of WELL_KNOWN_BIN_DIRS.linux) {
      const a = await this.cached({ op: 'list', path: dir, max: LIST_MAX });
      if (!a.error && a.type === 'dir' && a.names.includes(name)) return dir;
    }
    return undefined;
  }

  /**
   * The probe stats every entry of a plugin folder (cni-dirs.ts probeBinDir: a folder, a dangling
   * link or a file without the execute bit is not a plugin); asked as soon as the listing is in,
   * they go in the exchange that reads the conf files instead of one of their own after it.
   */
  private prefetchBinEntries(dir: string, a: AgentAnswer): void {
    if (this.handedOver || a.error || a.type !== 'dir' || a.names.length > MAX_LOADABLE_ENTRIES)
      return;
    for (const name of a.names) this.cached({ op: 'stat', path: joinNode('linux', dir, name) });
  }

  private cached(r: AgentRequest): Promise<AgentAnswer> {
    const key = JSON.stringify(r);
    let a = this.answers.get(key);
    if (!a) {
      a = this.session.ask(r);
      // A rejected answer is re-raised to each caller; never an unhandled rejection.
      a.catch(() => undefined);
      this.answers.set(key, a);
    }
    return a;
  }

  /** Starts the agent (prefetch) and fails loudly when the node cannot be reached at all. */
  async connect(): Promise<void> {
    let started = (): void => undefined;
    this.programsStarted = new Promise<void>((resolve) => (started = resolve));
    let first: Promise<AgentAnswer>;
    try {
      await this.transport.prepare();
      first = this.ask({ op: 'node' });
      this.session.flush();
    } finally {
      started();
    }
    await first;
  }

  /**
   * Settles once connect() has started the agent. A caller about to do synchronous work (loading
   * the engine) waits for it, so that the node answers meanwhile.
   */
  started(): Promise<void> {
    return this.programsStarted ?? Promise.resolve();
  }

  /** Ends the session now: every pending and later question fails with `why`. */
  cancel(why: string): void {
    for (const s of this.sessions) s.abort(why);
  }

  async close(): Promise<void> {
    closeWarm(this.relay);
    // Written while the node's client tears its session down (podman exec: tens of ms).
    this.opts.versionCache?.save();
    await Promise.all(this.sessions.map((s) => s.close()));
    // A held scan (serve keeps a few) must not keep every answer the node sent alive with it.
    this.answers.clear();
  }

  async node(): Promise<NodeFacts> {
    const a = await this.ask({ op: 'node' });
    // The prefetch's own limit: the same question, answered by the first exchange.
    const release = await this.readFile('/etc/os-release', { maxBytes: READ_LIMITS.configBytes });
    const m = release.ok ? /^PRETTY_NAME="?([^"\n]*)"?/m.exec(release.data.toString('utf8')) : null;
    const uid = a.values[0];
    return {
      os: 'linux',
      source: 'live',
      ...(a.names[0] !== undefined && { hostname: a.names[0].trim() }),
      ...(uid !== undefined && { elevated: uid === 0 }),
      ...(m?.[1] ? { osVersion: m[1] } : {}),
    };
  }

  async stat(p: string): Promise<StatResult> {
    try {
      const a = await this.ask({ op: 'stat', path: p });
      const f = failure(p, a);
      if (f) return f;
      return {
        ok: true,
        type: a.type === 'missing' || a.type === undefined ? 'other' : a.type,
        ...(a.size !== undefined && { size: a.size }),
        ...(a.type === 'file' && { executable: a.executable === true }),
        ...(a.type === 'dir' && { executable: true }),
      };
    } catch (e) {
      return unreachable(p, e);
    }
  }

  async readFile(p: string, opts?: ReadOptions): Promise<ReadResult> {
    const max = opts?.maxBytes ?? 64 * 1024 * 1024;
    try {
      const a = await this.ask({ op: 'read', path: p, max });
      const f = failure(p, a);
      if (f) return f;
      // The agent reads one byte more than `max`: only a file cut short costs a stat for its size.
      // The parser held the answer to max+1 bytes, so the cut keeps one byte of it alive, no more.
      const data = blockOf(a, 0) ?? EMPTY;
      let size = a.size ?? data.length;
      if (data.length > max) {
        const st = await this.stat(p);
        if (st.ok && st.size !== undefined) size = Math.max(st.size, data.length);
      }
      return { ok: true, data: data.subarray(0, max), size, truncated: size > max };
    } catch (e) {
      return unreachable(p, e);
    }
  }

  async listDir(p: string): Promise<ListResult> {
    try {
      const a = await this.ask({ op: 'list', path: p, max: LIST_MAX });
      const f = failure(p, a);
      if (f) return f;
      return { ok: true, entries: [...a.names] };
    } catch (e) {
      return unreachable(p, e);
    }
  }

  async *streamFile(p: string, opts?: StreamOptions): AsyncIterable<Uint8Array> {
    const a =
      opts?.tailBytes !== undefined
        ? await this.ask({ op: 'tail', path: p, bytes: opts.tailBytes })
        : await this.ask({ op: 'read', path: p, max: 1024 * 1024 * 1024 });
    const f = failure(p, a);
    if (f) throw Object.assign(new Error(f.message), { code: f.error });
    // The pieces as decoded: a 64 MiB tail is never joined into a second copy of itself.
    yield* a.chunks[0] ?? [];
  }

  async processes(): Promise<Fact<ProcessFact[]>> {
    try {
      const a = await this.ask({ op: 'procs' });
      if (a.unavailable !== undefined) return unknownFact(`processes: ${a.unavailable}`);
      return known(parseProcTable(blockOf(a, 0) ?? EMPTY));
    } catch (e) {
      return unknownFact(`processes could not be read: ${(e as Error).message}`);
    }
  }

  async services(names: readonly string[]): Promise<Fact<ServiceFact[]>> {
    try {
      const a = await this.ask({ op: 'services', names });
      if (a.unavailable !== undefined) return unknownFact(a.unavailable);
      const out = (blockOf(a, 0) ?? EMPTY).toString('utf8');
      if (!out.trim()) return unknownFact('systemctl gave no answer');
      return known(parseSystemctlShow(out, names));
    } catch (e) {
      return unknownFact(`services could not be read: ${(e as Error).message}`);
    }
  }

  async versions(hints: VersionHints): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    await Promise.all(
      hints.binaries.map(async ({ component, path }) => {
        try {
          const a = await this.versionAnswer(path, (o) => versionIn(o) !== undefined);
          // As every answer: none handed on once the session failed (ask()).
          const failed = this.session.failed;
          if (failed) throw failed;
          const v = a?.output === undefined ? undefined : versionIn(a.output);
          if (v !== undefined) out[component] = v;
        } catch {
          // A version is a nice-to-have; the scan goes on without it.
        }
      }),
    );
    return out;
  }

  /**
   * The agent runs a binary only with `--version` and no environment of ours: a CNI plugin run
   * without CNI_COMMAND prints its "about" text and, since libcni v1.1.0, "CNI protocol versions
   * supported: …", and exits without touching the network (docs/knowledge/cni-loading.md
   * #checking-plugin-binaries). Output it does not recognise is no answer (the check says unknown).
   */
  async pluginVersion(path: string): Promise<PluginVersionResult | undefined> {
    try {
      const a =
        (await this.versionAnswer(path, speaksCni)) ??
        (await this.askVersion(path, speaksCni, false));
      // As every answer: none handed on once the session failed (ask()).
      const failed = this.session.failed;
      if (failed) throw failed;
      if (a?.type !== 'file' || a.output === undefined) return undefined;
      const text = a.output;
      const listed = /CNI protocol versions supported: *([0-9., ]+)/.exec(text)?.[1];
      if (listed) {
        const supportedVersions = listed.split(/[ ,]+/).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
        const cniVersion = supportedVersions[supportedVersions.length - 1];
        if (cniVersion) return { ok: true, cniVersion, supportedVersions };
      }
      if (/Exec format error|cannot execute binary file/i.test(text))
        return { ok: false, problem: 'wrong-architecture', message: text.trim().slice(0, 200) };
      if (/Permission denied/i.test(text))
        return { ok: false, problem: 'not-executable', message: text.trim().slice(0, 200) };
      return undefined;
    } catch {
      return undefined;
    }
  }

  async journal(req: JournalRequest): Promise<Fact<string> | undefined> {
    try {
      const a = await this.ask({ op: 'journal', unit: req.unit, lines: req.lines });
      if (a.unavailable !== undefined) return undefined;
      return journalFact((blockOf(a, 0) ?? EMPTY).toString('utf8'));
    } catch (e) {
      return unknownFact(`journalctl could not be run: ${(e as Error).message}`);
    }
  }

  /**
   * The runtime's CRI answers, by the first route the node allows: our own gRPC client through
   * `socat` on the node (what a local scan asks, byte for byte), else the node's `crictl` or
   * `k3s crictl` (crictl-answers.ts), else none — unknown, with why. criRoute says which.
   */
  async cri(endpoints: readonly string[]): Promise<CriEntry[] | undefined> {
    const socat = await this.ask({ op: 'which', program: 'socat' }).catch(() => undefined);
    if (socat?.names[0] !== undefined) {
      await this.handOverTo(endpoints);
      this.criRoute = `grpc through socat on the node (${this.transport.name})`;
      return probeThroughRelay(
        this.transport,
        endpoints,
        this.opts.criDeadlineMs ?? 10_000,
        this.relay,
      );
    }
    const answers = await Promise.all(
      endpoints.map(async (endpoint) => ({
        endpoint,
        a: await this.ask({ op: 'crictl', endpoint }).catch((e: Error) => e),
      })),
    );
    const first = answers.find((x) => !(x.a instanceof Error))?.a as AgentAnswer | undefined;
    if (endpoints.length > 0 && (first === undefined || first.unavailable !== undefined)) {
      this.criRoute = `not asked: the node has no socat to relay the CRI socket through ${this.transport.name}, and ${first?.unavailable ?? 'no crictl could be run'}`;
      return undefined;
    }
    if (endpoints.length === 0) {
      this.criRoute = `not asked: the node has no socat to relay the CRI socket through ${this.transport.name}`;
      return undefined;
    }
    this.criRoute = `${first?.names[0] ?? 'crictl'} on the node (${this.transport.name})`;
    return answers.map(({ endpoint, a }) =>
      a instanceof Error
        ? { endpoint, api: null, error: { code: 2, message: a.message } }
        : crictlEntry(endpoint, a),
    );
  }

  /**
   * The agent's run becomes the relay of the first endpoint socat can reach: asked last
   * (criLast), nothing waits behind it; a question asked later starts a new run of the agent.
   * Any other endpoint gets a socat run of its own when its connection opens (cri-relay.ts).
   */
  private async handOverTo(endpoints: readonly string[]): Promise<void> {
    const paths = endpoints.map((e) => endpointToPath(e));
    const path = paths.find((p) => p.kind === 'unix' && RELAYABLE.test(p.path));
    if (path?.kind !== 'unix') return;
    const run = this.session;
    this.handedOver = true;
    this.earlier.push(run);
    this.session = this.newSession();
    const handed = await run.handOver(path.path).catch(() => undefined);
    if (handed && 'socket' in handed) offerRelay(this.relay, path.path, handed.socket);
  }

  /** Why cri() returned no answers (snapshot.criUnknown). */
  criUnavailable(): string | undefined {
    return this.criRoute?.startsWith('not asked') ? this.criRoute : undefined;
  }

  async pipes(): Promise<Fact<string[]>> {
    return unknownFact('named pipes exist only on Windows');
  }

  async hns(): Promise<Fact<RawHns>> {
    return unknownFact('HNS exists only on Windows');
  }
}

const EMPTY = Buffer.alloc(0);

function unreachable(p: string, e: unknown): Failure {
  return {
    ok: false,
    error: 'OTHER',
    message: `${p} could not be read from the node: ${(e as Error).message}`,
  };
}

function describeTarget(t: Transport): string {
  const x = t.target;
  switch (x.kind) {
    case 'container':
      return x.name;
    case 'ssh':
      return `${x.user !== undefined ? `${x.user}@` : ''}${x.host}${x.port !== undefined ? `:${x.port}` : ''}`;
    case 'kubectl':
      return `node ${x.node}${x.context !== undefined ? ` (context ${x.context})` : ''}`;
    default:
      return x.kind;
  }
}

const HEADER = /(?:^|\n)==> \/proc\/([0-9]+)\/cmdline <==\n/g;

/** `head -c N /proc/[0-9]*\/cmdline` output → the relevant processes, like readProcessTable. */
export function parseProcTable(raw: Buffer): ProcessFact[] {
  const text = raw.toString('latin1');
  const out: ProcessFact[] = [];
  const marks = [...text.matchAll(HEADER)];
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i] as RegExpMatchArray;
    const start = (m.index ?? 0) + m[0].length;
    const end =
      i + 1 < marks.length
        ? ((marks[i + 1] as RegExpMatchArray).index ?? text.length)
        : text.length;
    const body = Buffer.from(text.slice(start, end), 'latin1');
    if (body.length === 0) continue; // a kernel thread
    const args = body.toString('utf8').split('\0');
    if (args[args.length - 1] === '') args.pop();
    if (!isRelevant(args)) continue;
    out.push({ name: processName(args), pid: Number(m[1]), args });
  }
  out.sort((a, b) => (a.pid ?? 0) - (b.pid ?? 0));
  return out;
}
