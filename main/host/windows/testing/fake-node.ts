/**
 * A Windows node for tests, behind the ScriptRunner interface: it decodes the base64 payload of
 * the collection script it is handed and answers with the document collect.ps1 would print for
 * this node (same sections, same per-path records, same refusals). There is no PowerShell here;
 * this is collect.ps1's contract written out in TypeScript, and every call is counted so tests
 * can assert how many round trips a scan makes and what each one asked for.
 */
import { COLLECT_FORMAT } from '../collect-result';
import { isCollectablePath, type CollectInput, type CollectSection } from '../collect-input';
import { launchScriptPaths } from '../../../conventions/windows-launch';
import { PAYLOAD_LINE_PREFIX, PAYLOAD_LINE_SUFFIX } from '../build-script';
import type { RunOptions, RunResult, ScriptRunner } from '../powershell-session';
import { normalizeNodePath } from '../../../conventions/node-paths';

export interface FakeService {
  name: string;
  /** Win32_Service State: Running, Stopped, … ; absent = the service does not exist. */
  state?: string;
  exitCode?: number;
  pathName?: string;
  /** ImagePath under the service's registry key. */
  imagePath?: string;
  /** nssm's Parameters key (Application, AppParameters, AppDirectory, AppStderr). */
  nssm?: { application: string; parameters?: string; directory?: string; stderr?: string };
  /** Reading the service's registry key is refused (access denied). */
  registryDenied?: boolean;
}

const REGISTRY_DENIED = 'Requested registry access is not allowed.';

export interface FakeProcess {
  name: string;
  pid: number;
  commandLine: string;
}

export interface FakeHns {
  networks: unknown[];
  endpoints: unknown[];
  namespaces: unknown[];
  policyLists: unknown[];
}

export interface FakeNodeSpec {
  hostname?: string;
  osVersion?: string;
  pipes?: string[];
  services?: FakeService[];
  processes?: FakeProcess[];
  /** component → what `<exe> --version` prints. */
  versions?: Record<string, string>;
  hns?: FakeHns;
  /** Native path → contents. Parent folders exist implicitly. */
  files?: Record<string, string | Buffer>;
  /** Folders with exactly these entries (names without contents, e.g. plugin binaries). */
  dirs?: Record<string, string[]>;
  /** Paths whose reads fail with access denied. */
  denied?: string[];
}

export interface FakeCall {
  script: string;
  input: CollectInput | undefined;
  opts: RunOptions;
}

type Rec = Record<string, unknown>;

const key = (p: string): string => normalizeNodePath('windows', p).toLowerCase();

/** The payload of a script built by build-script.ts (or any script with the same first line). */
export function decodePayload(script: string): unknown {
  const first = script.slice(0, script.indexOf('\n') < 0 ? script.length : script.indexOf('\n'));
  if (!first.startsWith(PAYLOAD_LINE_PREFIX) || !first.endsWith(PAYLOAD_LINE_SUFFIX))
    return undefined;
  const b64 = first.slice(PAYLOAD_LINE_PREFIX.length, -PAYLOAD_LINE_SUFFIX.length);
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as unknown;
}

/** collect.ps1's Get-ServiceLaunch for one service. */
function launchOf(s: FakeService): Rec {
  if (s.registryDenied) return { imagePathError: REGISTRY_DENIED, nssmError: REGISTRY_DENIED };
  return {
    ...(s.imagePath !== undefined && { imagePath: s.imagePath }),
    ...(s.nssm !== undefined && {
      nssm: {
        application: s.nssm.application,
        parameters: s.nssm.parameters ?? '',
        directory: s.nssm.directory ?? '',
        stderr: s.nssm.stderr ?? '',
      },
    }),
  };
}

export class FakeWindowsNode implements ScriptRunner {
  readonly calls: FakeCall[] = [];
  /** Scripts that are not collection scripts go here (repairs); default: refuse. */
  other: ((script: string, opts: RunOptions) => Promise<RunResult>) | undefined;
  hns: FakeHns;
  services: FakeService[];
  pipes: string[];
  private readonly files = new Map<string, { path: string; data: Buffer }>();
  private readonly dirEntries = new Map<string, Set<string>>();
  private readonly denied: Set<string>;

  constructor(readonly spec: FakeNodeSpec) {
    // Copies: repairs (testing/fake-repair.ts) change these, never the spec they came from.
    const h = spec.hns ?? { networks: [], endpoints: [], namespaces: [], policyLists: [] };
    this.hns = {
      networks: [...h.networks],
      endpoints: [...h.endpoints],
      namespaces: [...h.namespaces],
      policyLists: [...h.policyLists],
    };
    this.services = (spec.services ?? []).map((x) => ({ ...x }));
    this.pipes = [...(spec.pipes ?? [])];
    this.denied = new Set((spec.denied ?? []).map(key));
    for (const [p, d] of Object.entries(spec.files ?? {}))
      this.addFile(p, typeof d === 'string' ? Buffer.from(d, 'utf8') : d);
    // Listed names (plugin binaries) are files whose bytes no test reads.
    for (const [dir, names] of Object.entries(spec.dirs ?? {})) {
      this.ensureDir(dir);
      for (const n of names) this.addFile(`${dir.replace(/\\+$/, '')}\\${n}`, Buffer.alloc(0));
    }
  }

  addFile(p: string, data: Buffer): void {
    const n = normalizeNodePath('windows', p);
    this.files.set(key(n), { path: n, data });
    this.ensureDir(n.slice(0, n.lastIndexOf('\\')) || n);
    this.entriesOf(n.slice(0, n.lastIndexOf('\\'))).add(n.slice(n.lastIndexOf('\\') + 1));
  }

  private entriesOf(dir: string): Set<string> {
    const k = key(dir);
    let s = this.dirEntries.get(k);
    if (!s) this.dirEntries.set(k, (s = new Set()));
    return s;
  }

  private ensureDir(dir: string): void {
    const n = normalizeNodePath('windows', dir);
    this.entriesOf(n);
    const at = n.lastIndexOf('\\');
    if (at > 2) {
      const parent = n.slice(0, at);
      this.entriesOf(parent).add(n.slice(at + 1));
      this.ensureDir(parent);
    }
  }

  async run(script: string, opts: RunOptions): Promise<RunResult> {
    const payload = decodePayload(script);
    const isCollect = script.includes('# cni-doctor: one read-only collection pass');
    this.calls.push({ script, input: isCollect ? (payload as CollectInput) : undefined, opts });
    if (!isCollect) {
      if (this.other) return this.other(script, opts);
      return {
        ok: false,
        kind: 'stderr',
        message: 'the fake node only answers collection scripts',
      };
    }
    return { ok: true, stdout: `${JSON.stringify(this.collect(payload as CollectInput))}\n` };
  }

  /** Calls that were collections, in order. */
  get collections(): CollectInput[] {
    return this.calls.flatMap((c) => (c.input ? [c.input] : []));
  }

  private collect(input: CollectInput): Rec {
    const want = (s: CollectSection): boolean =>
      input.sections === undefined || input.sections.includes(s);
    const out: Rec = { format: COLLECT_FORMAT, startedAt: '2026-12-02T09:00:00.0000000Z' };
    if (want('host'))
      out.host = {
        hostname: this.spec.hostname ?? 'win-node',
        elevated: true,
        osVersion: this.spec.osVersion ?? '10.0.20348',
        osBuild: '20348',
        error: null,
      };
    if (want('pipes')) out.pipes = { names: [...this.pipes], error: null };
    if (want('services')) {
      const wanted = new Map(input.services.map((s) => [s.toLowerCase(), s]));
      const items: Rec[] = [];
      for (const s of this.services) {
        if (!wanted.has(s.name.toLowerCase()) || s.state === undefined) continue;
        wanted.delete(s.name.toLowerCase());
        items.push({
          name: s.name,
          present: true,
          state: s.state,
          exitCode: s.exitCode ?? 0,
          ...(s.pathName !== undefined && { pathName: s.pathName }),
          ...launchOf(s),
        });
      }
      for (const name of wanted.values()) items.push({ name, present: false });
      out.services = { source: 'Win32_Service', items, error: null };
    }
    const procs = (this.spec.processes ?? []).filter((p) =>
      input.processNames.some((n) => n.toLowerCase() === p.name.toLowerCase()),
    );
    if (want('processes'))
      out.processes = {
        items: procs.map((p) => ({ name: p.name, pid: p.pid, commandLine: p.commandLine })),
        error: null,
      };
    if (want('hns')) {
      out.hns = {
        source: 'HostNetworkingService',
        schema: 'v1',
        networks: this.hns.networks,
        endpoints: this.hns.endpoints,
        namespaces: this.hns.namespaces,
        policyLists: this.hns.policyLists,
        errors: {},
        attempts: [{ source: 'HostNetworkingService', result: '4 of 4 lists read' }],
        timedOut: false,
      };
    }
    if (want('versions')) {
      const v = this.spec.versions ?? {};
      out.versions = {
        items: input.versionProbes.map((p) =>
          v[p.component] !== undefined
            ? {
                component: p.component,
                exe: p.exe,
                path: `C:\\k\\${p.exe}`,
                via: 'process',
                exitCode: 0,
                stdout: `${v[p.component]}\r\n`,
              }
            : { component: p.component, exe: p.exe, error: 'not found' },
        ),
        error: null,
      };
    }
    if (want('files')) {
      const items: Rec[] = [];
      // collect.ps1's Get-LaunchFiles: the launch services' scripts and stderr logs join the lists.
      const launch = want('services') ? this.launchFiles(input) : { scripts: [], logs: [] };
      const has = (list: string[], p: string): boolean =>
        list.some((x) => x.toLowerCase() === p.toLowerCase());
      const paths = [...input.paths, ...launch.scripts.filter((p) => !has(input.paths, p))];
      const tails = [...input.tails, ...launch.logs.filter((p) => !has(input.tails, p))];
      for (const p of paths) items.push(this.read(p, true, input.maxFileBytes, false));
      for (const d of input.dirs) items.push(this.read(d, false, input.maxFileBytes, false));
      for (const d of input.readDirs) {
        const listing = this.read(d, false, input.maxFileBytes, false);
        items.push(listing);
        if (listing.type !== 'dir') continue;
        for (const name of listing.entries as string[]) {
          const wantContent = input.readDirSuffixes.some((s) =>
            name.toLowerCase().endsWith(s.toLowerCase()),
          );
          items.push(
            this.read(`${d.replace(/\\+$/, '')}\\${name}`, wantContent, input.maxFileBytes, false),
          );
        }
      }
      for (const t of tails) items.push(this.read(t, true, input.maxTailBytes, true));
      out.files = { items, error: null };
    }
    out.finishedAt = '2026-12-02T09:00:01.0000000Z';
    return out;
  }

  /** collect.ps1's Get-LaunchFiles over the services it reports. */
  private launchFiles(input: CollectInput): { scripts: string[]; logs: string[] } {
    const wanted = new Set((input.launchServices ?? []).map((n) => n.toLowerCase()));
    const scripts: string[] = [];
    const logs: string[] = [];
    for (const s of this.services) {
      if (s.state === undefined || s.registryDenied || !wanted.has(s.name.toLowerCase())) continue;
      const lines = [
        { line: s.imagePath ?? '', dir: '' },
        { line: s.pathName ?? '', dir: '' },
      ];
      if (s.nssm) {
        lines.push({
          line: `"${s.nssm.application}" ${s.nssm.parameters ?? ''}`,
          dir: s.nssm.directory ?? '',
        });
        if (s.nssm.stderr !== undefined && isCollectablePath(s.nssm.stderr))
          logs.push(s.nssm.stderr);
      }
      for (const l of lines)
        for (const p of launchScriptPaths(l.line, l.dir))
          if (isCollectablePath(p) && !scripts.includes(p)) scripts.push(p);
    }
    return { scripts, logs };
  }

  /** collect.ps1's Read-NodePath. */
  private read(p: string, wantContent: boolean, maxBytes: number, tail: boolean): Rec {
    if (!/^[A-Za-z]:\\/.test(p) || p.indexOf(':', 2) >= 0)
      return { path: p, type: 'other', error: 'refused: not a plain local drive path' };
    const k = key(p);
    const file = this.files.get(k);
    const dir = this.dirEntries.get(k);
    if (!file && !dir) return { path: p, type: 'missing', error: null };
    if (dir) return { path: p, type: 'dir', error: null, entries: [...dir].sort() };
    if (this.denied.has(k))
      return { path: p, type: 'file', error: `Access to the path '${p}' is denied. (0x80070005)` };
    const data = (file as { data: Buffer }).data;
    const r: Rec = { path: p, type: 'file', error: null, size: data.length };
    if (wantContent) {
      const n = Math.min(data.length, maxBytes);
      const part = tail ? data.subarray(data.length - n) : data.subarray(0, n);
      r.contentBase64 = part.toString('base64');
      r.truncated = data.length > n;
      if (tail) r.tail = true;
    }
    return r;
  }
}
