/**
 * Facts the rules share, computed once from the Snapshot: which runtime the kubelet uses, and
 * how each runtime loads its CNI conf dir (docs/knowledge/cni-loading.md#containerds-loader, docs/knowledge/cni-loading.md#each-runtime-loads-differently).
 */
import type { ConfEntryRole } from '../../shared/model/finding';
import type {
  CniBinDir,
  CniConfDir,
  CniConfFile,
  ContainerdFacts,
  CrioFacts,
  Snapshot,
} from '../../shared/model/snapshot';
import type { CriEntry } from '../../shared/model/cri';
import { pathKey } from '../conventions/node-paths';
import { endpointKey } from '../conventions/endpoint';
import type { LibcniGen } from '../conventions/cni-versions';
import { compareCniVersions, parseCniVersion } from '../conventions/cni-versions';
import type { LoaderProfile } from './cni-loader-profile';
import { loaderProfile } from './cni-loader-profile';

export type RuntimeName = 'containerd' | 'crio';

export interface RuntimeView {
  name: RuntimeName;
  /** "containerd", "k3s's containerd", "CRI-O" — for messages. */
  label: string;
  endpoint: string;
  facts: ContainerdFacts | CrioFacts;
  /** The kubelet dials this runtime (or no kubelet endpoint is known). */
  usedByKubelet: boolean;
  confDir: CniConfDir | undefined;
  binDirs: CniBinDir[];
  load: ConfLoad | undefined;
  cri: CriEntry | undefined;
  /** Which release's CNI loader the model applied (and whether the version was assumed). */
  profile: LoaderProfile;
}

export interface ConfLoadEntry {
  file: CniConfFile;
  role: ConfEntryRole;
  note?: string;
}

export interface ConfLoad {
  entries: ConfLoadEntry[];
  loadable: CniConfFile[];
  valid: CniConfFile[];
  invalid: CniConfFile[];
  inUse: CniConfFile[];
  /** containerd: the invalid file that makes the whole load fail. */
  fatal?: CniConfFile;
  /** A loadable file could not be read. */
  unreadable: CniConfFile[];
  /**
   * An unreadable file the runtime reads before its choice is settled: which config is in use
   * (or whether the load fails) cannot be told, so the CNI checks report unknown.
   */
  undecided?: CniConfFile;
  /** CRI-O: valid files skipped because a plugin binary is missing. */
  skippedForPlugins: CniConfFile[];
  /**
   * What the runtime's CNI Status says once loaded: `ok`, or the error it reports
   * (NetworkReady=false). Undefined when it cannot be told (a listing or a plugin is unknown).
   */
  status?: { ok: true } | { ok: false; error: string };
  /** Why libcni will refuse ADD on the network in use before any plugin runs, when it will. */
  addError?: string;
}

export interface Derived {
  runtimes: RuntimeView[];
  /** Runtimes the rules judge: the kubelet's, or every one present when its endpoint is unknown. */
  judged: RuntimeView[];
  kubeletEndpointKnown: boolean;
}

export function parsed(f: CniConfFile, gen?: LibcniGen) {
  const fact = (gen && gen !== '1.3' && f.parseByLibcni?.[gen]) || f.parse;
  return fact?.known ? fact.value : undefined;
}

/** The supported versions every reference plugin since v1.5 answers to VERSION. */
const REFERENCE_VERSIONS = ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0'];

/** libcni ValidateNetworkName (pkg/utils/utils.go@v1.1.2 L29, L50-58), checked at ADD. */
export function networkNameError(name: string): string | undefined {
  if (name === '') return 'missing network name';
  if (!/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(name)) return 'invalid characters found in network name';
  // libcni caches each result as <cacheDir>/results/<network>-<container ID>-<ifname>
  // (libcni/api.go getCacheFilePath): with a 64-character sandbox ID and "eth0" the file name
  // passes NAME_MAX (255 bytes) past 185 bytes of network name, and ADD fails writing it.
  if (new TextEncoder().encode(name).length + 1 + 64 + 1 + 4 > 255)
    return 'network name too long: the result cache file name passes 255 bytes (file name too long)';
  return undefined;
}

export function findConfDir(s: Snapshot, path: string): CniConfDir | undefined {
  return s.confDirs.find(
    (d) =>
      pathKey(s.node.os, d.path).replace(/[\\/]+$/, '') ===
      pathKey(s.node.os, path).replace(/[\\/]+$/, ''),
  );
}

export function findBinDirs(s: Snapshot, paths: readonly string[]): CniBinDir[] {
  return paths
    .map((p) =>
      s.binDirs.find(
        (d) =>
          pathKey(s.node.os, d.path).replace(/[\\/]+$/, '') ===
          pathKey(s.node.os, p).replace(/[\\/]+$/, ''),
      ),
    )
    .filter((d): d is CniBinDir => d !== undefined);
}

/** Is plugin `type` an entry of the bin dir? (Windows: `<type>.exe`, case-insensitive.) */
export function binDirHas(
  os: 'linux' | 'windows',
  dir: CniBinDir,
  type: string,
): boolean | undefined {
  if (!dir.entries.known) return undefined;
  // FindInPath wants a regular file (os.Stat follows links): a folder or a dangling link is
  // "not found" (pkg/invoke/find.go@v1.3.0 L39-45). A file without the execute bit is found.
  const u = dir.unusable?.[type];
  if (u === 'dir' || u === 'dangling') return false;
  if (os === 'windows') {
    const want = `${type}.exe`.toLowerCase();
    return dir.entries.value.some((e) => e.toLowerCase() === want);
  }
  return dir.entries.value.includes(type);
}

/** Plugin types of a config that none of the bin dirs holds; undefined when a listing is unknown. */
export function missingPlugins(
  os: 'linux' | 'windows',
  f: CniConfFile,
  dirs: CniBinDir[],
  opts: { gen?: LibcniGen; roles?: readonly string[] } = {},
): string[] | undefined {
  const p = parsed(f, opts.gen);
  if (!p?.ok) return [];
  const out: string[] = [];
  for (const ref of p.plugins) {
    if (opts.roles && !opts.roles.includes(ref.role)) continue;
    const found = dirs.map((d) => binDirHas(os, d, ref.type));
    if (found.some((x) => x === true)) continue;
    if (found.some((x) => x === undefined) || dirs.length === 0) return undefined;
    if (!out.includes(ref.type)) out.push(ref.type);
  }
  return out;
}

/** A plugin the runtime would find but cannot run: no execute bit (fork/exec: permission denied). */
function notExecutable(dirs: CniBinDir[], type: string): boolean {
  return (
    dirs.length > 0 &&
    dirs.every(
      (d) =>
        d.unusable?.[type] === 'not-executable' ||
        !d.entries.known ||
        !d.entries.value.includes(type),
    ) &&
    dirs.some((d) => d.unusable?.[type] === 'not-executable')
  );
}

/** libcni's own checks on ADD of a loaded network, before any plugin output matters. */
function addFailure(
  os: 'linux' | 'windows',
  f: CniConfFile,
  gen: LibcniGen,
  bins: CniBinDir[],
  crio: boolean,
): string | undefined {
  const p = parsed(f, gen);
  if (!p?.ok) return undefined;
  // CRI-O names a nameless network after its file before ADD (ocicni.go@v0.5.0 L379-381).
  const name = p.network || (crio ? f.name : '');
  const bad = networkNameError(name);
  if (bad) return bad;
  // libcni runs each plugin `type` itself; IPAM and delegates are run by the plugin, and their
  // absence is the plugin-missing rule's finding, not libcni's.
  const missing = missingPlugins(os, f, bins, { gen, roles: ['plugin'] });
  if (missing && missing.length > 0) return `failed to find plugin "${missing[0]}" in path`;
  for (const ref of p.plugins)
    if (ref.role === 'plugin' && notExecutable(bins, ref.type))
      return `fork/exec ${ref.type}: permission denied`;
  // The result is decoded in the config's version: libcni v1.1 knows results up to 1.0.0
  // (pkg/types/create@v1.1.2), v1.2+ up to 1.1.0.
  const results = gen === '1.1' ? REFERENCE_VERSIONS.slice(0, -1) : REFERENCE_VERSIONS;
  if (!results.includes(p.cniVersion || '0.1.0'))
    return `unsupported CNI result version "${p.cniVersion ?? ''}"`;
  return undefined;
}

function analyseContainerd(
  os: 'linux' | 'windows',
  dir: CniConfDir,
  maxConfNum: number,
  profile: LoaderProfile,
  bins: CniBinDir[],
): ConfLoad | undefined {
  if (!dir.entries.known) return undefined;
  const gen = profile.libcni;
  const entries: ConfLoadEntry[] = [];
  const load: ConfLoad = {
    entries,
    loadable: [],
    valid: [],
    invalid: [],
    inUse: [],
    unreadable: [],
    skippedForPlugins: [],
  };
  let stopped = false;
  const max = maxConfNum <= 0 ? Infinity : maxConfNum;
  for (const f of dir.entries.value) {
    if (!f.loadable) {
      entries.push({ file: f, role: f.disabledVariant ? 'disabled' : 'ignored' });
      continue;
    }
    load.loadable.push(f);
    const p = parsed(f, gen);
    if (!f.parse?.known) load.unreadable.push(f);
    if (p?.ok) load.valid.push(f);
    else if (p) load.invalid.push(f);
    if (stopped) {
      entries.push({
        file: f,
        role: p && !p.ok ? 'invalid' : 'never-read',
        note: 'containerd stops before this file',
      });
      continue;
    }
    if (!p) {
      entries.push({ file: f, role: 'never-read', note: 'unreadable' });
      load.undecided = f;
      stopped = true;
      continue;
    }
    if (!p.ok) {
      // go-cni returns on the first file that fails to parse: nothing loads (docs/knowledge/cni-loading.md#containerds-loader step 4).
      load.fatal = f;
      entries.push({
        file: f,
        role: 'invalid',
        note: 'containerd stops here: the whole CNI load fails',
      });
      stopped = true;
      continue;
    }
    load.inUse.push(f);
    entries.push({ file: f, role: 'in-use' });
    if (load.inUse.length >= max) stopped = true;
  }
  if (load.fatal) {
    load.inUse = [];
    for (const e of entries) if (e.role === 'in-use') e.role = 'valid-unused';
  }
  load.status = containerdStatus(os, load, profile, bins);
  const first = load.inUse[0];
  if (first) {
    const why = addFailure(os, first, gen, bins, false);
    if (why) load.addError = why;
  }
  return load;
}

/**
 * containerd's CNI Status: not initialized without a loaded network; from go-cni v1.1.12
 * (containerd 2.0.3+) also STATUS of every plugin of each loaded network whose cniVersion is
 * ≥ 1.1.0 (libcni api.go@v1.2.3 L850-872), where a plugin that cannot be found fails it.
 */
function containerdStatus(
  os: 'linux' | 'windows',
  load: ConfLoad,
  profile: LoaderProfile,
  bins: CniBinDir[],
): ConfLoad['status'] {
  if (load.undecided) return undefined;
  if (load.inUse.length === 0) return { ok: false, error: 'cni plugin not initialized' };
  if (!profile.statusRunsPlugins) return { ok: true };
  for (const f of load.inUse) {
    const p = parsed(f, profile.libcni);
    if (!p?.ok) continue;
    const v = parseCniVersion(p.cniVersion ?? '');
    if (!v || compareCniVersions(v, [1, 1, 0]) < 0) continue;
    const missing = missingPlugins(os, f, bins, { gen: profile.libcni, roles: ['plugin'] });
    if (missing === undefined) return undefined;
    if (missing.length > 0)
      return { ok: false, error: `failed to find plugin "${missing[0]}" in path` };
    for (const ref of p.plugins)
      if (ref.role === 'plugin' && notExecutable(bins, ref.type))
        return { ok: false, error: `fork/exec ${ref.type}: permission denied` };
  }
  return { ok: true };
}

/**
 * ocicni's ValidateNetworkList (libcni api.go@v1.3.0 L684-752): each plugin's `type` only —
 * found as a regular file, executable, and listing the config's cniVersion ("" = 0.1.0) among
 * the versions it answers. IPAM and delegates are not checked at load.
 */
function crioValidation(
  os: 'linux' | 'windows',
  f: CniConfFile,
  gen: LibcniGen,
  bins: CniBinDir[],
  versions: Map<string, string[]>,
): string | undefined | null {
  const p = parsed(f, gen);
  if (!p?.ok) return undefined;
  const missing = missingPlugins(os, f, bins, { gen, roles: ['plugin'] });
  if (missing === undefined) return null;
  if (missing.length > 0) return `plugin ${missing.join(', ')} not found`;
  const want = p.cniVersion || '0.1.0';
  for (const ref of p.plugins) {
    if (ref.role !== 'plugin') continue;
    if (notExecutable(bins, ref.type)) return `plugin ${ref.type} is not executable`;
    const supported = versions.get(ref.type) ?? REFERENCE_VERSIONS;
    if (!supported.includes(want))
      return `plugin ${ref.type} does not support config version "${want}"`;
  }
  return undefined;
}

function analyseCrio(
  os: 'linux' | 'windows',
  dir: CniConfDir,
  defaultNetwork: string | undefined,
  bins: CniBinDir[],
  profile: LoaderProfile,
  versions: Map<string, string[]>,
): ConfLoad | undefined {
  if (!dir.entries.known) return undefined;
  const gen = profile.libcni;
  const entries: ConfLoadEntry[] = [];
  const load: ConfLoad = {
    entries,
    loadable: [],
    valid: [],
    invalid: [],
    inUse: [],
    unreadable: [],
    skippedForPlugins: [],
  };
  const usable: CniConfFile[] = [];
  const names = new Set<string>();
  let pluginsUnknown = false;
  // ocicni names a nameless list (or "name": "") after the file (ocicni.go@v0.5.0 L379-381).
  const netName = (f: CniConfFile): string => {
    const p = parsed(f, gen);
    return (p?.ok ? p.network : undefined) || f.name;
  };
  for (const f of dir.entries.value) {
    if (!f.loadable) {
      entries.push({ file: f, role: f.disabledVariant ? 'disabled' : 'ignored' });
      continue;
    }
    load.loadable.push(f);
    const p = parsed(f, gen);
    if (!p) {
      load.unreadable.push(f);
      entries.push({ file: f, role: 'skipped', note: 'unreadable' });
      continue;
    }
    if (!p.ok) {
      load.invalid.push(f);
      entries.push({ file: f, role: 'invalid', note: 'CRI-O skips it' });
      continue;
    }
    load.valid.push(f);
    const why = crioValidation(os, f, gen, bins, versions);
    if (why === null) pluginsUnknown = true;
    if (why) {
      load.skippedForPlugins.push(f);
      entries.push({ file: f, role: 'skipped', note: why });
      continue;
    }
    const net = netName(f);
    if (names.has(net)) {
      entries.push({
        file: f,
        role: 'skipped',
        note: `network "${net}" already defined by an earlier file`,
      });
      continue;
    }
    names.add(net);
    usable.push(f);
    entries.push({ file: f, role: 'valid-unused' });
  }
  const chosen = defaultNetwork ? usable.find((f) => netName(f) === defaultNetwork) : usable[0];
  if (chosen) {
    load.inUse = [chosen];
    const e = entries.find((x) => x.file === chosen);
    if (e) e.role = 'in-use';
    const why = addFailure(os, chosen, gen, bins, true);
    if (why) load.addError = why;
  }
  // An unreadable file before the chosen one might be the network CRI-O really uses.
  const order = dir.entries.value;
  load.undecided = load.unreadable.find(
    (f) => !chosen || defaultNetwork !== undefined || order.indexOf(f) < order.indexOf(chosen),
  );
  if (!load.undecided && !pluginsUnknown) {
    load.status = chosen ? { ok: true } : { ok: false, error: 'no CNI configuration file' };
    // ocicni v0.5.0 runs STATUS on the default network (cniVersion ≥ 1.1.0).
    if (chosen && profile.statusRunsPlugins) {
      const p = parsed(chosen, gen);
      const v = p?.ok ? parseCniVersion(p.cniVersion ?? '') : undefined;
      if (v && compareCniVersions(v, [1, 1, 0]) >= 0) {
        const missing = missingPlugins(os, chosen, bins, { gen, roles: ['plugin'] });
        if (missing && missing.length > 0)
          load.status = { ok: false, error: `failed to find plugin "${missing[0]}" in path` };
      }
    }
  }
  return load;
}

/**
 * The load of one conf dir under one loader profile (the conformance replay asks this directly).
 */
export function analyseLoad(
  profile: LoaderProfile,
  os: 'linux' | 'windows',
  dir: CniConfDir,
  bins: CniBinDir[],
  settings: { maxConfNum?: number; defaultNetwork?: string } = {},
  versions: Map<string, string[]> = new Map(),
): ConfLoad | undefined {
  return profile.runtime === 'containerd'
    ? analyseContainerd(os, dir, settings.maxConfNum ?? 1, profile, bins)
    : analyseCrio(os, dir, settings.defaultNetwork || undefined, bins, profile, versions);
}

/** Plugin VERSION answers recorded for this node, by plugin type. */
function recordedVersions(s: Snapshot): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of s.pluginVersions ?? []) {
    const a = p.answer;
    if (a.ok) out.set(p.type, a.supportedVersions);
  }
  return out;
}

export function derive(s: Snapshot): Derived {
  const runtimes: RuntimeView[] = [];
  const kubeletEp = s.kubelet.known ? s.kubelet.value?.endpoint?.value : undefined;
  const criFor = (ep: string): CriEntry | undefined =>
    s.cri?.find((c) => endpointKey(c.endpoint) === endpointKey(ep));
  if (s.containerd.known && s.containerd.value) {
    const c = s.containerd.value;
    const endpoint =
      c.address.value.startsWith('\\\\') || c.address.value.includes('://')
        ? c.address.value
        : `unix://${c.address.value}`;
    const confDir = findConfDir(s, c.cni.confDir.value);
    const binDirs = findBinDirs(s, c.cni.binDirs.value);
    const cri = criFor(normaliseAddress(endpoint));
    const profile = runtimeProfile('containerd', c.version, cri);
    runtimes.push({
      name: 'containerd',
      label: c.flavor === 'containerd' ? 'containerd' : `${c.flavor}'s containerd`,
      endpoint: normaliseAddress(endpoint),
      facts: c,
      usedByKubelet:
        kubeletEp === undefined ||
        endpointKey(kubeletEp) === endpointKey(normaliseAddress(endpoint)),
      confDir,
      binDirs,
      load: confDir
        ? analyseContainerd(s.node.os, confDir, c.cni.maxConfNum.value, profile, binDirs)
        : undefined,
      cri,
      profile,
    });
  }
  if (s.crio.known && s.crio.value) {
    const c = s.crio.value;
    const endpoint = normaliseAddress(c.address.value);
    const confDir = findConfDir(s, c.cni.confDir.value);
    const binDirs = findBinDirs(s, c.cni.binDirs.value);
    const cri = criFor(endpoint);
    const profile = runtimeProfile('crio', c.version, cri);
    runtimes.push({
      name: 'crio',
      label: 'CRI-O',
      endpoint,
      facts: c,
      usedByKubelet: kubeletEp === undefined || endpointKey(kubeletEp) === endpointKey(endpoint),
      confDir,
      binDirs,
      load: confDir
        ? analyseCrio(
            s.node.os,
            confDir,
            c.cni.defaultNetwork?.value,
            binDirs,
            profile,
            recordedVersions(s),
          )
        : undefined,
      cri,
      profile,
    });
  }
  return {
    runtimes,
    judged: runtimes.filter((r) => r.usedByKubelet),
    kubeletEndpointKnown: kubeletEp !== undefined,
  };
}

/** The loader profile from the runtime's own version, else its CRI Version answer, else assumed. */
function runtimeProfile(
  runtime: 'containerd' | 'crio',
  version: string | undefined,
  cri: CriEntry | undefined,
): LoaderProfile {
  // A bundle holds what the binary answered when it was collected: the same words as the live
  // scan, so that a bundle's findings equal the node's (collect's promise).
  if (version) return loaderProfile(runtime, version, 'the runtime binary');
  const v = cri?.version?.runtimeVersion;
  if (v) return loaderProfile(runtime, v, 'the CRI Version answer');
  // A remote scan asks the running daemon, not its binary: with the CRI plugin disabled,
  // containerd's own Version service still answers.
  const d = runtime === 'containerd' ? cri?.containerdVersion?.version : undefined;
  if (d) return loaderProfile(runtime, d, "containerd's Version service");
  return loaderProfile(runtime, undefined, undefined);
}

/** A runtime's version: its binary's, else its CRI Version answer, else containerd's own. */
export function runtimeVersionOf(rt: Pick<RuntimeView, 'facts' | 'cri'>): string | undefined {
  return rt.facts.version ?? rt.cri?.version?.runtimeVersion ?? rt.cri?.containerdVersion?.version;
}

/** Why no runtime is judged: none is installed, or the kubelet uses another one (cri-dockerd…). */
export function noJudgedRuntimeReason(s: Snapshot, d: Derived): string {
  const kubeletEp = s.kubelet.known ? s.kubelet.value?.endpoint?.value : undefined;
  if (d.runtimes.length > 0 && kubeletEp)
    return `the kubelet uses ${kubeletEp}, not ${d.runtimes.map((r) => r.label).join(' or ')}`;
  return 'no containerd or CRI-O runtime found';
}

function normaliseAddress(a: string): string {
  if (a.includes('://')) return a;
  if (a.startsWith('\\\\.\\pipe\\')) return `npipe:////./pipe/${a.slice(9)}`;
  return `unix://${a}`;
}
