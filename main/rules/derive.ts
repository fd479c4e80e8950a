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
}

export interface Derived {
  runtimes: RuntimeView[];
  /** Runtimes the rules judge: the kubelet's, or every one present when its endpoint is unknown. */
  judged: RuntimeView[];
  kubeletEndpointKnown: boolean;
}

export function parsed(f: CniConfFile) {
  return f.parse?.known ? f.parse.value : undefined;
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
): string[] | undefined {
  const p = parsed(f);
  if (!p?.ok) return [];
  const out: string[] = [];
  for (const ref of p.plugins) {
    const found = dirs.map((d) => binDirHas(os, d, ref.type));
    if (found.some((x) => x === true)) continue;
    if (found.some((x) => x === undefined) || dirs.length === 0) return undefined;
    if (!out.includes(ref.type)) out.push(ref.type);
  }
  return out;
}

function analyseContainerd(dir: CniConfDir, maxConfNum: number): ConfLoad | undefined {
  if (!dir.entries.known) return undefined;
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
    const p = parsed(f);
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
  return load;
}

function analyseCrio(
  os: 'linux' | 'windows',
  dir: CniConfDir,
  defaultNetwork: string | undefined,
  bins: CniBinDir[],
): ConfLoad | undefined {
  if (!dir.entries.known) return undefined;
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
  for (const f of dir.entries.value) {
    if (!f.loadable) {
      entries.push({ file: f, role: f.disabledVariant ? 'disabled' : 'ignored' });
      continue;
    }
    load.loadable.push(f);
    const p = parsed(f);
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
    // ocicni validates plugins against plugin_dirs at load and skips failing files (docs/knowledge/cni-loading.md#each-runtime-loads-differently).
    const missing = missingPlugins(os, f, bins);
    if (missing && missing.length > 0) {
      load.skippedForPlugins.push(f);
      entries.push({ file: f, role: 'skipped', note: `plugin ${missing.join(', ')} not found` });
      continue;
    }
    // ocicni names a nameless list after the file (docs/knowledge/cni-loading.md#load-order-on-a-real-node row 200-loopback).
    const net = p.network ?? f.name;
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
  const chosen = defaultNetwork
    ? usable.find(
        (f) =>
          (parsed(f)?.ok ? ((parsed(f) as { network?: string }).network ?? f.name) : '') ===
          defaultNetwork,
      )
    : usable[0];
  if (chosen) {
    load.inUse = [chosen];
    const e = entries.find((x) => x.file === chosen);
    if (e) e.role = 'in-use';
  }
  // An unreadable file before the chosen one might be the network CRI-O really uses.
  const order = dir.entries.value;
  load.undecided = load.unreadable.find(
    (f) => !chosen || defaultNetwork !== undefined || order.indexOf(f) < order.indexOf(chosen),
  );
  return load;
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
      load: confDir ? analyseContainerd(confDir, c.cni.maxConfNum.value) : undefined,
      cri: criFor(normaliseAddress(endpoint)),
    });
  }
  if (s.crio.known && s.crio.value) {
    const c = s.crio.value;
    const endpoint = normaliseAddress(c.address.value);
    const confDir = findConfDir(s, c.cni.confDir.value);
    const binDirs = findBinDirs(s, c.cni.binDirs.value);
    runtimes.push({
      name: 'crio',
      label: 'CRI-O',
      endpoint,
      facts: c,
      usedByKubelet: kubeletEp === undefined || endpointKey(kubeletEp) === endpointKey(endpoint),
      confDir,
      binDirs,
      load: confDir
        ? analyseCrio(s.node.os, confDir, c.cni.defaultNetwork?.value, binDirs)
        : undefined,
      cri: criFor(endpoint),
    });
  }
  return {
    runtimes,
    judged: runtimes.filter((r) => r.usedByKubelet),
    kubeletEndpointKnown: kubeletEp !== undefined,
  };
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
