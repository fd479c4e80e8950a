/**
 * The data a collection scan hands to collect.ps1 (through build-script.ts), its defaults, and
 * its validation. Names and paths here are data for the script, never code; validation still
 * refuses what the script must not touch (pipes, shares, device paths) so that the TypeScript side
 * and the script agree on it.
 */
export interface VersionProbe {
  /** Key under the bundle's `versions` (kubelet, containerd, antrea, flannel, calico, kube-proxy). */
  component: string;
  /** Image name matched against running processes and service binaries. */
  exe: string;
  /** Fixed flags to print the version; empty means only the file's version resource is read. */
  args: string[];
  /** Install locations to try when no process or service names the binary. */
  candidates: string[];
}

export type HnsSourceChoice = 'auto' | 'builtin' | 'hnsdiag' | 'v2';

/** The parts of collect.ps1's document; a follow-up call for more paths asks for 'files' only. */
export type CollectSection =
  'host' | 'pipes' | 'services' | 'processes' | 'hns' | 'versions' | 'files';

export interface CollectInput {
  /** Files to read (capped at maxFileBytes); a directory given here is listed instead. */
  paths: string[];
  /** Directories to list (no recursion). */
  dirs: string[];
  /**
   * Directories to list whose entries are also typed, and read when their names end in one of
   * readDirSuffixes (CNI conf dirs: the probes parse every config in them next).
   */
  readDirs: string[];
  readDirSuffixes: string[];
  /** Files of which only the last maxTailBytes are read (logs). */
  tails: string[];
  maxTailBytes: number;
  /** Sections to run; absent = all. */
  sections?: CollectSection[];
  maxFileBytes: number;
  maxDirEntries: number;
  services: string[];
  /**
   * Services whose launch scripts (a .ps1 their ImagePath or nssm AppParameters names) and nssm
   * stderr log are read along with the files (the kubelet: its command line when it is not running).
   */
  launchServices: string[];
  /** Process image names (`kubelet.exe`) whose command lines are recorded. */
  processNames: string[];
  versionProbes: VersionProbe[];
  /** Run the probes' `--version`; off gives file version resources only. */
  runVersionCommands: boolean;
  execTimeoutMs: number;
  hnsSource: HnsSourceChoice;
  /** Deadline for each HNS list inside the script (a hung HNS costs only that list). */
  hnsTimeoutMs: number;
  maxHnsRawChars: number;
  /**
   * Where the node's namespaces are read from instead of its own: a drive letter mapped to a
   * folder (a node's disk mounted elsewhere; the tests' mock node) and the folder listed as the
   * named pipes. Paths in the document keep the node's spelling. Absent on a live node.
   */
  nodeRoot?: NodeRoot;
}

export interface NodeRoot {
  drives?: Record<string, string>;
  pipes?: string;
}

/** Services the Windows rules look at (docs/knowledge/windows-node.md#services-restart-order-and-logs service table, docs/knowledge/windows-cni-agents.md#antrea, docs/knowledge/windows-cni-agents.md#flannel). */
export const DEFAULT_SERVICES = [
  'containerd',
  'kubelet',
  'kube-proxy',
  'kubeproxy',
  'antrea-agent',
  'ovs-vswitchd',
  'ovsdb-server',
  'flanneld',
  'CalicoNode',
  'CalicoFelix',
  'docker',
  'hns',
  'vmcompute',
  'rke2',
];

/** The kubelet: when it crash-loops on a flag, its script is where its command line lives. */
export const DEFAULT_LAUNCH_SERVICES = ['kubelet'];

export const DEFAULT_PROCESS_NAMES = [
  'kubelet.exe',
  'containerd.exe',
  'kube-proxy.exe',
  'dockerd.exe',
  'antrea-agent.exe',
  'ovs-vswitchd.exe',
  'ovsdb-server.exe',
  'flanneld.exe',
  'calico-node.exe',
  'rke2.exe',
  'containerd-shim-runhcs-v1.exe',
];

export const DEFAULT_VERSION_PROBES: VersionProbe[] = [
  {
    component: 'kubelet',
    exe: 'kubelet.exe',
    args: ['--version'],
    candidates: ['C:\\k\\kubelet.exe', 'C:\\var\\lib\\rancher\\rke2\\bin\\kubelet.exe'],
  },
  {
    component: 'containerd',
    exe: 'containerd.exe',
    args: ['--version'],
    candidates: [
      'C:\\Program Files\\containerd\\bin\\containerd.exe',
      'C:\\Program Files\\containerd\\containerd.exe',
    ],
  },
  {
    component: 'kube-proxy',
    exe: 'kube-proxy.exe',
    args: ['--version'],
    candidates: ['C:\\k\\kube-proxy.exe'],
  },
  // antrea-agent is a cobra command with Version set, so --version prints and exits.
  {
    component: 'antrea',
    exe: 'antrea-agent.exe',
    args: ['--version'],
    candidates: ['C:\\k\\antrea\\bin\\antrea-agent.exe', 'C:\\k\\antrea-agent.exe'],
  },
  {
    component: 'flannel',
    exe: 'flanneld.exe',
    args: ['--version'],
    candidates: [
      'C:\\flannel\\flanneld.exe',
      'C:\\k\\flannel\\flanneld.exe',
      'C:\\k\\flanneld.exe',
    ],
  },
  // Calico's Windows binary is not run: its version comes from the file's version resource.
  {
    component: 'calico',
    exe: 'calico-node.exe',
    args: [],
    candidates: [
      'C:\\CalicoWindows\\calico-node.exe',
      'C:\\Program Files\\Calico\\calico-node.exe',
    ],
  },
];

export function defaultCollectInput(over: Partial<CollectInput> = {}): CollectInput {
  return {
    paths: [],
    dirs: [],
    readDirs: [],
    readDirSuffixes: [],
    tails: [],
    maxTailBytes: 4 * 1024 * 1024,
    maxFileBytes: 1024 * 1024,
    maxDirEntries: 5000,
    services: DEFAULT_SERVICES,
    launchServices: DEFAULT_LAUNCH_SERVICES,
    processNames: DEFAULT_PROCESS_NAMES,
    versionProbes: DEFAULT_VERSION_PROBES,
    runVersionCommands: true,
    execTimeoutMs: 10_000,
    hnsSource: 'auto',
    hnsTimeoutMs: 120_000,
    maxHnsRawChars: 64 * 1024 * 1024,
    ...over,
  };
}

/**
 * A path collect.ps1 will open: a plain local drive path. Named pipes are listed, never opened
 * (opening connects, docs/knowledge/windows-node.md#named-pipes); shares and device paths are out of scope; `:` after the
 * drive would address an alternate data stream.
 */
export function isCollectablePath(p: string): boolean {
  return /^[A-Za-z]:\\/.test(p) && p.indexOf(':', 2) < 0 && !p.includes('\0');
}

const FLAG = /^[A-Za-z0-9._=-]+$/;
const SUFFIX = /^[A-Za-z0-9._-]{1,32}$/;

/** Problems with an input, empty when it can be sent. */
export function validateCollectInput(input: CollectInput): string[] {
  const problems: string[] = [];
  for (const p of [...input.paths, ...input.dirs, ...input.readDirs, ...input.tails]) {
    if (!isCollectablePath(p)) problems.push(`not a plain local drive path: ${JSON.stringify(p)}`);
  }
  for (const probe of input.versionProbes) {
    for (const a of probe.args)
      if (!FLAG.test(a))
        problems.push(
          `version probe ${probe.component}: argument ${JSON.stringify(a)} is not a plain flag`,
        );
    for (const c of probe.candidates)
      if (!isCollectablePath(c))
        problems.push(`version probe ${probe.component}: candidate ${JSON.stringify(c)}`);
  }
  for (const x of input.readDirSuffixes)
    if (!SUFFIX.test(x)) problems.push(`not a plain file name suffix: ${JSON.stringify(x)}`);
  const limits: [string, number][] = [
    ['maxFileBytes', input.maxFileBytes],
    ['maxTailBytes', input.maxTailBytes],
    ['maxDirEntries', input.maxDirEntries],
    ['execTimeoutMs', input.execTimeoutMs],
    ['hnsTimeoutMs', input.hnsTimeoutMs],
    ['maxHnsRawChars', input.maxHnsRawChars],
  ];
  for (const [letter, dir] of Object.entries(input.nodeRoot?.drives ?? {}))
    if (!/^[A-Za-z]$/.test(letter) || dir === '' || dir.includes('\0'))
      problems.push(`nodeRoot: not a drive letter and folder: ${JSON.stringify(letter)}`);
  for (const [name, v] of limits)
    if (!Number.isSafeInteger(v) || v <= 0) problems.push(`${name} must be a positive integer`);
  return problems;
}
