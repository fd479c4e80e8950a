/**
 * Parses and validates the document collect.ps1 prints into a typed WindowsCollection. The text
 * comes from a node and is untrusted: any section may be missing (unknown, not empty), of the
 * wrong type, or shaped by PowerShell's serialiser quirks (single item instead of array, 5.1's
 * `{"value":[…]}` wrapper, numbers for enums). Nothing throws; every oddity is a warning, and a
 * section that cannot be used is left out so that its facts read as unknown.
 */
import { bool, isObj, num, objList, str, strList, type Obj } from './untrusted-json';
import { objectsFromHnsCall } from './hnscall-json';
import { objectsFromHnsdiag } from './hnsdiag-json';

export const COLLECT_FORMAT = 'cni-doctor.windows-collect/v1';

interface SectionMeta {
  /** The section failed as a whole on the node (its data may be partial or empty). */
  error?: string;
  /** Time the section took on the node. */
  ms?: number;
}

export interface HostInfo extends SectionMeta {
  hostname?: string;
  elevated?: boolean;
  osBuild?: string;
  /** "10.0.<build>" (bundle-format.md host.osVersion). */
  osVersion?: string;
  ubr?: number;
  productName?: string;
  displayVersion?: string;
  installationType?: string;
  psVersion?: string;
  psEdition?: string;
}

export interface PipeList extends SectionMeta {
  names: string[];
}

export interface ServiceRecord {
  name: string;
  present: boolean;
  /** As the service manager says it: Running, Stopped, Start Pending… */
  state?: string;
  startMode?: string;
  pathName?: string;
  processId?: number;
  exitCode?: number;
  /** ImagePath under the service's registry key, as written (not expanded). */
  imagePath?: string;
  /** Why ImagePath could not be read (access denied…); absent when it was, or the key is not there. */
  imagePathError?: string;
  /** Program, arguments, working folder and stderr file of an nssm-wrapped service. */
  nssm?: NssmParameters;
  /** Why the nssm Parameters key could not be read; absent when it was, or it is not there. */
  nssmError?: string;
}

export interface NssmParameters {
  application: string;
  parameters?: string;
  directory?: string;
  stderr?: string;
}

export interface ServiceList extends SectionMeta {
  source?: string;
  items: ServiceRecord[];
}

export interface ProcessRecord {
  name: string;
  pid?: number;
  parentPid?: number;
  /** Missing when the collector could not read it (another user's process, not elevated). */
  commandLine?: string;
  executablePath?: string;
}

export interface ProcessList extends SectionMeta {
  items: ProcessRecord[];
}

export type HnsListKind = 'networks' | 'endpoints' | 'namespaces' | 'policyLists';
export const HNS_LIST_KINDS: readonly HnsListKind[] = [
  'networks',
  'endpoints',
  'namespaces',
  'policyLists',
];

export interface HnsCollection extends SectionMeta {
  /** HNSCall | HostNetworkingService | hnsdiag | HNS (v2 module) | another label, or absent when none answered. */
  source?: string;
  schema?: 'v1' | 'v2';
  module?: { name?: string; version?: string; path?: string };
  /** Objects as HNS gave them (hnsdiag text already turned into objects). */
  networks: Obj[];
  endpoints: Obj[];
  namespaces: Obj[];
  policyLists: Obj[];
  /** Lists that could not be read, with the reason; a list not named here was read. */
  errors: Partial<Record<HnsListKind, string>> & { source?: string };
  attempts: { source: string; result: string }[];
  timedOut: boolean;
}

export interface VersionRecord {
  component: string;
  exe?: string;
  path?: string;
  via?: string;
  fileVersion?: string;
  productVersion?: string;
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  timedOut?: boolean;
  error?: string;
}

export interface VersionList extends SectionMeta {
  items: VersionRecord[];
}

export interface PathRecord {
  /** Native Windows path exactly as requested. */
  path: string;
  type: 'file' | 'dir' | 'missing' | 'other';
  size?: number;
  /** File contents (the first maxFileBytes when `truncated`). */
  content?: Buffer;
  truncated?: boolean;
  /** `content` is the end of the file, not its start (a log read for its newest lines). */
  tail?: boolean;
  entries?: string[];
  entriesTruncated?: boolean;
  linkTarget?: string;
  error?: string;
}

export interface FileList extends SectionMeta {
  items: PathRecord[];
}

export interface WindowsCollection {
  format: typeof COLLECT_FORMAT;
  startedAt?: string;
  finishedAt?: string;
  host?: HostInfo;
  pipes?: PipeList;
  services?: ServiceList;
  processes?: ProcessList;
  hns?: HnsCollection;
  versions?: VersionList;
  files?: FileList;
  /** Some part of the scan hit a deadline on the node; the shell should be replaced. */
  timedOut: boolean;
  /** Whole-document failure reported by the script (serialisation fallback). */
  error?: string;
  warnings: string[];
}

export type CollectionParse =
  { ok: true; collection: WindowsCollection } | { ok: false; error: string };

/**
 * Parses collect.ps1's stdout. Anything printed before the document (a stray warning line) is
 * skipped: the document is the line that starts with its format marker.
 */
export function parseCollection(stdout: string): CollectionParse {
  const text = stdout.charCodeAt(0) === 0xfeff ? stdout.slice(1) : stdout;
  const at = text.indexOf(`{"format":"${COLLECT_FORMAT}"`);
  const candidate = at >= 0 ? text.slice(at, endOfLine(text, at)) : text.trim();
  let raw: unknown;
  try {
    raw = JSON.parse(candidate);
  } catch (e) {
    return {
      ok: false,
      error: `the collection output is not JSON (${e instanceof Error ? e.message : String(e)}): ${JSON.stringify(text.slice(0, 200))}`,
    };
  }
  return parseCollectionObject(raw);
}

/** Validates an already parsed document (also used for the fixtures). */
export function parseCollectionObject(raw: unknown): CollectionParse {
  if (!isObj(raw)) return { ok: false, error: 'the collection output is not a JSON object' };
  if (raw.format !== COLLECT_FORMAT)
    return { ok: false, error: `unexpected collection format ${JSON.stringify(raw.format)}` };
  const warnings: string[] = [];
  const c: WindowsCollection = { format: COLLECT_FORMAT, timedOut: false, warnings };
  const startedAt = str(raw.startedAt);
  if (startedAt !== undefined) c.startedAt = startedAt;
  const finishedAt = str(raw.finishedAt);
  if (finishedAt !== undefined) c.finishedAt = finishedAt;
  const error = str(raw.error);
  if (error !== undefined) c.error = error;

  const section = <T>(key: string, read: (o: Obj) => T): T | undefined => {
    const v = raw[key];
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) {
      warnings.push(`section ${key} ignored: not an object`);
      return undefined;
    }
    return read(v);
  };
  const host = section('host', readHost);
  if (host) c.host = host;
  const pipes = section('pipes', (o) => ({ ...meta(o), names: strList(o.names) }));
  if (pipes) c.pipes = pipes;
  const services = section('services', (o) => readServices(o, warnings));
  if (services) c.services = services;
  const processes = section('processes', (o) => readProcesses(o, warnings));
  if (processes) c.processes = processes;
  const hns = section('hns', (o) => readHns(o, warnings));
  if (hns) {
    c.hns = hns;
    if (hns.timedOut) c.timedOut = true;
  }
  const versions = section('versions', (o) => ({
    ...meta(o),
    items: objList(o.items).items.map(readVersion).filter(isDefined),
  }));
  if (versions) {
    c.versions = versions;
    if (versions.items.some((v) => v.timedOut === true)) c.timedOut = true;
  }
  const files = section('files', (o) => readFiles(o, warnings));
  if (files) c.files = files;
  return { ok: true, collection: c };
}

function endOfLine(s: string, from: number): number {
  const nl = s.indexOf('\n', from);
  return nl < 0 ? s.length : nl;
}

function isDefined<T>(v: T | undefined): v is T {
  return v !== undefined;
}

function meta(o: Obj): SectionMeta {
  const m: SectionMeta = {};
  const error = str(o.error);
  if (error !== undefined) m.error = error;
  const ms = num(o.ms);
  if (ms !== undefined) m.ms = ms;
  return m;
}

/** Copies the named optional string fields that are strings. */
function strings<K extends string>(o: Obj, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function readHost(o: Obj): HostInfo {
  const h: HostInfo = {
    ...meta(o),
    ...strings(o, [
      'hostname',
      'osBuild',
      'osVersion',
      'productName',
      'displayVersion',
      'installationType',
      'psVersion',
      'psEdition',
    ] as const),
  };
  const elevated = bool(o.elevated);
  if (elevated !== undefined) h.elevated = elevated;
  const ubr = num(o.ubr);
  if (ubr !== undefined) h.ubr = ubr;
  return h;
}

function readServices(o: Obj, warnings: string[]): ServiceList {
  const { items, skipped } = objList(o.items);
  if (skipped > 0) warnings.push(`services: ${skipped} entries ignored (not objects)`);
  const out: ServiceRecord[] = [];
  for (const s of items) {
    const name = str(s.name);
    if (name === undefined) continue;
    // Enum values may come through as numbers (Get-Service fallback on 5.1).
    const state = typeof s.state === 'number' ? SERVICE_STATUS[s.state] : str(s.state);
    const r: ServiceRecord = { name, present: bool(s.present) !== false };
    if (state !== undefined) r.state = state;
    Object.assign(
      r,
      strings(s, ['startMode', 'pathName', 'imagePath', 'imagePathError', 'nssmError'] as const),
    );
    const pid = num(s.processId);
    if (pid !== undefined) r.processId = pid;
    const exit = num(s.exitCode);
    if (exit !== undefined) r.exitCode = exit;
    if (isObj(s.nssm)) {
      const application = str(s.nssm.application);
      if (application !== undefined)
        r.nssm = {
          application,
          ...nonEmpty(strings(s.nssm, ['parameters', 'directory', 'stderr'] as const)),
        };
    }
    out.push(r);
  }
  const list: ServiceList = { ...meta(o), items: out };
  const source = str(o.source);
  if (source !== undefined) list.source = source;
  return list;
}

/** The fields that are not empty strings (PowerShell's [string]$null is ''). */
function nonEmpty<T extends Record<string, string | undefined>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '')) as Partial<T>;
}

/** System.ServiceProcess.ServiceControllerStatus values. */
const SERVICE_STATUS: Record<number, string> = {
  1: 'Stopped',
  2: 'Start Pending',
  3: 'Stop Pending',
  4: 'Running',
  5: 'Continue Pending',
  6: 'Pause Pending',
  7: 'Paused',
};

function readProcesses(o: Obj, warnings: string[]): ProcessList {
  const { items, skipped } = objList(o.items);
  if (skipped > 0) warnings.push(`processes: ${skipped} entries ignored (not objects)`);
  const out: ProcessRecord[] = [];
  for (const p of items) {
    const name = str(p.name);
    if (name === undefined) continue;
    const r: ProcessRecord = { name, ...strings(p, ['commandLine', 'executablePath'] as const) };
    const pid = num(p.pid);
    if (pid !== undefined) r.pid = pid;
    const parent = num(p.parentPid);
    if (parent !== undefined) r.parentPid = parent;
    out.push(r);
  }
  return { ...meta(o), items: out };
}

function readHns(o: Obj, warnings: string[]): HnsCollection {
  const h: HnsCollection = {
    ...meta(o),
    networks: [],
    endpoints: [],
    namespaces: [],
    policyLists: [],
    errors: {},
    attempts: [],
    timedOut: bool(o.timedOut) === true,
  };
  const source = str(o.source);
  if (source !== undefined) h.source = source;
  if (o.schema === 'v1' || o.schema === 'v2') h.schema = o.schema;
  if (isObj(o.module)) h.module = strings(o.module, ['name', 'version', 'path'] as const);
  if (isObj(o.errors)) {
    for (const k of [...HNS_LIST_KINDS, 'source'] as const) {
      const e = str(o.errors[k]);
      if (e !== undefined) h.errors[k] = e;
    }
  }
  for (const a of objList(o.attempts).items) {
    const s = str(a.source);
    const r = str(a.result);
    if (s !== undefined && r !== undefined) h.attempts.push({ source: s, result: r });
  }
  const rawText = isObj(o.raw) ? o.raw : undefined;
  for (const kind of HNS_LIST_KINDS) {
    const text = rawText ? str(rawText[kind]) : undefined;
    if (text !== undefined && source === 'HNSCall') {
      // HNS's own JSON answer, passed through unparsed by collect.ps1.
      const parsed = objectsFromHnsCall(text);
      h[kind] = parsed.objects;
      if (parsed.error !== undefined) h.errors[kind] ??= parsed.error;
      for (const p of parsed.problems) warnings.push(`hns ${kind} (HNSCall): ${p}`);
      if (parsed.problems.length > 0 && parsed.objects.length === 0)
        h.errors[kind] ??= parsed.problems[0];
      continue;
    }
    if (text !== undefined) {
      // hnsdiag answered with text; its objects are the list.
      const parsed = objectsFromHnsdiag(text);
      h[kind] = parsed.objects;
      for (const p of parsed.problems) warnings.push(`hns ${kind} (hnsdiag): ${p}`);
      continue;
    }
    const { items, skipped } = objList(o[kind]);
    h[kind] = items;
    if (skipped > 0) warnings.push(`hns ${kind}: ${skipped} entries ignored (not objects)`);
  }
  return h;
}

function readVersion(v: Obj): VersionRecord | undefined {
  const component = str(v.component);
  if (component === undefined) return undefined;
  const r: VersionRecord = {
    component,
    ...strings(v, [
      'exe',
      'path',
      'via',
      'fileVersion',
      'productVersion',
      'stdout',
      'stderr',
      'error',
    ] as const),
  };
  const exit = num(v.exitCode);
  if (exit !== undefined) r.exitCode = exit;
  const timedOut = bool(v.timedOut);
  if (timedOut !== undefined) r.timedOut = timedOut;
  return r;
}

const PATH_TYPES = new Set(['file', 'dir', 'missing', 'other']);

function readFiles(o: Obj, warnings: string[]): FileList {
  const out: PathRecord[] = [];
  for (const f of objList(o.items).items) {
    const path = str(f.path);
    const type = str(f.type);
    if (path === undefined || type === undefined || !PATH_TYPES.has(type)) {
      warnings.push(`files: entry ignored (${JSON.stringify(path ?? null)} without a known type)`);
      continue;
    }
    const r: PathRecord = { path, type: type as PathRecord['type'] };
    const size = num(f.size);
    if (size !== undefined && size >= 0) r.size = size;
    const b64 = str(f.contentBase64);
    if (b64 !== undefined || f.contentBase64 === '') {
      if (b64 !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
        warnings.push(`files: content of ${path} is not base64; dropped`);
      else r.content = Buffer.from(b64 ?? '', 'base64');
    }
    const truncated = bool(f.truncated);
    if (truncated !== undefined) r.truncated = truncated;
    if (bool(f.tail) === true) r.tail = true;
    if (f.entries !== undefined) r.entries = strList(f.entries);
    if (bool(f.entriesTruncated) === true) r.entriesTruncated = true;
    Object.assign(r, strings(f, ['linkTarget', 'error'] as const));
    out.push(r);
  }
  return { ...meta(o), items: out };
}
