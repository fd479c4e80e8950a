/**
 * The Snapshot: every fact the probes learned about one node, in a form the rules can judge
 * without touching the disk. Probes fill it; rules only read it (architecture.md).
 * Browser-safe: the renderer shows parts of it in the Inventory screen.
 */
import type { Fact } from './fact';
import type { CriEntry } from './cri';
import type { HnsModel } from './hns';

export type NodeOs = 'linux' | 'windows';

/** A value together with where it was read, so findings can quote the line. */
export interface Located<T> {
  value: T;
  /** Native node path of the file, or a pseudo-source like `process:kubelet` / `default`. */
  source: string;
  line?: number;
}

export interface NodeFacts {
  os: NodeOs;
  hostname?: string;
  osVersion?: string;
  elevated?: boolean;
  source: 'live' | 'bundle';
  collectedAt?: string;
}

export interface ProcessFact {
  name: string;
  pid?: number;
  args: string[];
}

export type ServiceState = 'running' | 'stopped' | 'failed' | 'missing' | 'unknown';
export interface ServiceFact {
  name: string;
  state: ServiceState;
  /** Windows: how the service is started, from its registry key (absent: not recorded). */
  launch?: ServiceLaunch;
}

/**
 * A Windows service's registry key HKLM\SYSTEM\CurrentControlSet\Services\<name>: its ImagePath
 * and, for an nssm-wrapped service, the program nssm runs (Parameters). An `…Error` says the value
 * could not be read; a value that is absent without one is not there.
 */
export interface ServiceLaunch {
  imagePath?: string;
  imagePathError?: string;
  nssm?: { application: string; parameters?: string; directory?: string; stderr?: string };
  nssmError?: string;
}

/** A text file the probes read, kept (capped) so evidence can quote it. */
export interface TextFile {
  path: string;
  text: string;
  truncated: boolean;
  /** Set when the bytes are not valid UTF-8 (the text then holds U+FFFD in their place). */
  encodingError?: string;
}

export interface ConfigError {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

// ---------------------------------------------------------------- CNI

export interface CniPluginRef {
  type: string;
  /** Where the type was named: a plugin of the list, its IPAM, or flannel's delegate. */
  role: 'plugin' | 'ipam' | 'delegate';
  /** Subnet / gateway from IPAM ranges or nat's config, when given (Windows `nat` needs these). */
  subnet?: string;
  gateway?: string;
}

export type CniParse =
  | {
      ok: true;
      format: 'conf' | 'conflist';
      network?: string;
      cniVersion?: string;
      plugins: CniPluginRef[];
      /** libcni v1.3: plugin files merged from `<confdir>/<network name>/` (names in that folder). */
      folderPlugins?: string[];
    }
  /** `error` follows libcni's wording (docs/knowledge/cni-loading.md#how-libcni-finds-config-files); line/column point into the file when known. */
  | { ok: false; error: string; line?: number; column?: number };

export interface CniConfFile {
  name: string;
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /** The extension is one the consumer loads (.conf/.conflist/.json; podman: .conflist). */
  loadable: boolean;
  /** Renamed out of the loadable set by a tool (*.disabled, *.mk_disabled, *.cilium_bak). */
  disabledVariant: boolean;
  /** Parse result for loadable files and disabled variants (libcni v1.3 rules); unknown when unreadable. */
  parse?: Fact<CniParse>;
  /**
   * The parse under older libcni generations, where it differs from `parse` (docs/knowledge/cni-loading.md#libcni-versions):
   * `1.1` = libcni v1.1.x (containerd 1.6/1.7, CRI-O 1.30), `1.2` = v1.2.3 (containerd 2.0, CRI-O 1.31/1.32).
   */
  parseByLibcni?: { '1.1'?: Fact<CniParse>; '1.2'?: Fact<CniParse> };
  /** A symlink's target as read (lstat + readlink); `dangling` when it leads nowhere. */
  target?: string;
  dangling?: boolean;
  /** Capped contents for quoting lines. */
  text?: string;
  size?: number;
}

export interface CniConfDir {
  path: string;
  /** Every entry, sorted byte-wise by name (the order go-cni and ocicni use, docs/knowledge/cni-loading.md#containerds-loader). */
  entries: Fact<CniConfFile[]>;
  /** The directory does not exist (libcni treats that as "no files", docs/knowledge/cni-loading.md#how-libcni-finds-config-files). */
  missing: boolean;
}

export interface CniBinDir {
  path: string;
  /** File names in the directory (Windows: compare case-insensitively, `<type>.exe`). */
  entries: Fact<string[]>;
  /**
   * Entries a runtime cannot run though the name is there, as `os.Stat`/exec sees them
   * (pkg/invoke/find.go@v1.3.0 L39-45): a folder, a dangling symlink, no execute bit.
   */
  unusable?: Record<string, 'dir' | 'dangling' | 'not-executable'>;
  missing: boolean;
}

// ---------------------------------------------------------------- runtimes

export interface RuntimeCniSettings {
  confDir: Located<string>;
  binDirs: Located<string[]>;
  /** containerd max_conf_num (default 1); CRI-O always uses one default network. */
  maxConfNum: Located<number>;
  confTemplate?: Located<string>;
  /** CRI-O cni_default_network. */
  defaultNetwork?: Located<string>;
}

export interface TomlKeyRef {
  /** Dotted TOML path as written, e.g. plugins."io.containerd.grpc.v1.cri".cni.conf_dir */
  key: string;
  path: string;
  line: number;
}

export interface ContainerdFacts {
  /** How the doctor found it. */
  discoveredBy: 'process' | 'default-path' | 'k3s' | 'rke2' | 'windows-default';
  flavor: 'containerd' | 'k3s' | 'rke2';
  pid?: number;
  configPath: string;
  /** The main config and every import, in merge order; unknown when unreadable. */
  files: { path: string; file: Fact<TextFile>; exists: boolean }[];
  configErrors: ConfigError[];
  /** `version` of the main file (absent = 1). */
  configVersion: number;
  disabledPlugins: Located<string>[];
  cni: RuntimeCniSettings;
  systemdCgroup?: Located<boolean>;
  /** The CRI socket containerd listens on. */
  address: Located<string>;
  /** CRI/CNI keys placed under a plugin table containerd of this config version ignores. */
  wrongSchemaKeys: (TomlKeyRef & { belongsIn: string })[];
  version?: string;
}

export interface CrioFacts {
  discoveredBy: 'process' | 'default-path';
  pid?: number;
  configPath: string;
  dropInDir: string;
  files: { path: string; file: Fact<TextFile>; exists: boolean }[];
  configErrors: ConfigError[];
  cni: RuntimeCniSettings;
  cgroupManager?: Located<string>;
  address: Located<string>;
  version?: string;
}

export interface KubeletFlag {
  name: string;
  value?: string;
  source: string;
  line?: number;
}

export interface KubeletFacts {
  running: boolean;
  pid?: number;
  /** Flags from the process command line, or (when not running) from the files systemd would pass. */
  flags: KubeletFlag[];
  configPath?: string;
  config?: Fact<{ containerRuntimeEndpoint?: Located<string>; cgroupDriver?: Located<string> }>;
  /** The runtime endpoint the kubelet will dial, normalised (`unix:///run/...`, `npipe:////./pipe/...`). */
  endpoint?: Located<string>;
  cgroupDriver?: Located<string>;
  version?: string;
  files: TextFile[];
  /**
   * Where the kubelet's command line was read (absent in snapshots from before it was recorded).
   * When the kubelet is not running it crash-loops or is stopped, and its flags come from what
   * starts it: on Windows its service's start script, nssm AppParameters or ImagePath.
   */
  launch?: KubeletLaunch;
}

export interface KubeletLaunch {
  /**
   * `process`: the running kubelet's command line; `script`: a start script; `registry`: the
   * service's nssm AppParameters or ImagePath; `files`: Linux flag files and unit drop-ins;
   * `none`: no command line was found (why: `notes`).
   */
  source: 'process' | 'script' | 'registry' | 'files' | 'none';
  /** The script, or the registry key and value, the command line came from. */
  where?: string;
  /** Registry values quoted by flags whose `source` is `<key>\\<value>`. */
  registry?: RegistryValue[];
  /** What was looked at and found wanting, for an `unknown` reason. */
  notes: string[];
}

export interface RegistryValue {
  key: string;
  value: string;
  data: string;
}

export interface CrictlFacts {
  path: string;
  /** Contents, for quoting the runtime-endpoint line in evidence. */
  text?: string;
  runtimeEndpoint?: Located<string>;
  imageEndpoint?: Located<string>;
  error?: string;
}

export interface EndpointFact {
  /** Normalised endpoint: `unix:///run/containerd/containerd.sock` or `npipe:////./pipe/name`. */
  endpoint: string;
  runtime:
    'containerd' | 'crio' | 'cri-dockerd' | 'dockershim' | 'k3s' | 'rke2' | 'docker' | 'unknown';
  state: 'present' | 'missing' | 'not-a-socket' | 'unknown';
}

export interface PodmanFacts {
  path: string;
  networkBackend?: Located<string>;
  cniConfigDir?: Located<string>;
}

// ---------------------------------------------------------------- logs

export interface LogMatchFact {
  signatureId: string;
  path: string;
  /** 1-based; counted from the start of the part read (see `tailBytes`). */
  line: number;
  text: string;
  /**
   * Set when the file was larger than the part read: only its last `tailBytes` bytes were
   * scanned, so `line` counts from there ("line N of the last 64 MiB"), not from the file's start.
   */
  tailBytes?: number;
}

export interface LogSourceFact {
  path: string;
  /** `file` or `journald:<unit>`. */
  origin: string;
  state: 'scanned' | 'missing' | 'unreadable';
  bytes?: number;
  error?: string;
}

// ---------------------------------------------------------------- the snapshot

export interface Snapshot {
  node: NodeFacts;
  processes: Fact<ProcessFact[]>;
  services: Fact<ServiceFact[]>;
  versions: Record<string, string>;
  containerd: Fact<ContainerdFacts | null>;
  crio: Fact<CrioFacts | null>;
  kubelet: Fact<KubeletFacts | null>;
  crictl: Fact<CrictlFacts | null>;
  podman?: PodmanFacts;
  endpoints: EndpointFact[];
  /** Undefined when the runtime was not asked (bundle without `cri`). */
  cri?: CriEntry[];
  /** Why the runtimes were not asked over CRI when the host could say (a node without socat). */
  criUnknown?: string;
  /** Every conf dir examined, keyed by native path (runtimes' dirs first, then well-known ones). */
  confDirs: CniConfDir[];
  binDirs: CniBinDir[];
  logs: { sources: LogSourceFact[]; matches: LogMatchFact[] };
  windows?: {
    pipes: Fact<string[]>;
    hns: Fact<HnsModel>;
  };
  /**
   * When the configuration the runtimes read last changed: their CNI conf dirs (the directory
   * and each entry) and config files, with modification times (ISO 8601). Absent when no time
   * could be read (an older bundle).
   */
  configChanges?: { path: string; mtime: string }[];
  /**
   * CNI_COMMAND=VERSION answers of the plugins the runtimes' configs name (live Linux node, or
   * recorded in the bundle); absent when no plugin could be asked.
   */
  pluginVersions?: PluginProbe[];
  /** host-local IPAM reservations per network (Linux; absent in snapshots from older bundles). */
  ipam?: IpamState[];
  /** Linux kernel prerequisites of pod networking (absent in snapshots from older bundles). */
  kernel?: Fact<KernelFacts>;
}

/** A CNI plugin's answer to `CNI_COMMAND=VERSION`, or why it gave none. */
export type PluginVersionAnswer =
  | { ok: true; cniVersion: string; supportedVersions: string[] }
  | {
      ok: false;
      problem: 'not-executable' | 'wrong-architecture' | 'crashed' | 'bad-output' | 'timeout';
      message: string;
    };

export interface PluginProbe {
  type: string;
  /** The binary the runtime would run: the first bin dir that holds it. */
  path: string;
  answer: PluginVersionAnswer;
}

export interface IpamState {
  network: string;
  /** /var/lib/cni/networks/<network> */
  dir: string;
  /** One per reservation file: the address and the container (sandbox) ID it was given to. */
  reservations: Fact<{ ip: string; containerId: string }[]>;
}

export interface KernelFacts {
  /** net.ipv4.ip_forward as read ("1" when forwarding is on). */
  ipForward: string;
  /** br_netfilter: /sys/module/br_netfilter or the bridge sysctls exist. */
  brNetfilter: 'loaded' | 'absent' | 'unknown';
  /** net.bridge.bridge-nf-call-iptables as read; absent while br_netfilter is not loaded. */
  bridgeNfCallIptables?: string;
  /** IPv6 is disabled (no /proc/sys/net/ipv6, or net.ipv6.conf.all.disable_ipv6 = 1). */
  ipv6Disabled?: boolean;
}
