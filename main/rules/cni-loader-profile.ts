/**
 * Which runtime release's CNI loader the model applies: the go-cni / ocicni + libcni pair that
 * release pins in its go.mod (docs/knowledge/cni-loading.md#loader-profiles). The runtime
 * version comes from the binary, the CRI Version answer or the bundle; when none is known the
 * newest loader is assumed, and the report says so.
 */
import type { LibcniGen } from '../conventions/cni-versions';

export type LoaderProfileId =
  | 'containerd-1.6'
  | 'containerd-1.7'
  | 'containerd-2.0'
  | 'containerd-2.1'
  | 'containerd-2.2'
  | 'crio-1.30'
  | 'crio-1.31'
  | 'crio-1.32'
  | 'crio-1.33'
  | 'crio-1.35';

export interface LoaderProfile {
  id: LoaderProfileId;
  runtime: 'containerd' | 'crio';
  /** "go-cni v1.1.12 + libcni v1.3.0" */
  loader: string;
  libcni: LibcniGen;
  /** go-cni ≥ v1.1.12 runs STATUS on every loaded network with cniVersion ≥ 1.1.0. */
  statusRunsPlugins: boolean;
  /** The runtime version the profile was chosen from, or undefined when assumed. */
  runtimeVersion?: string;
  /** Where the version came from ("containerd --version", "CRI Version", "bundle"). */
  versionSource?: string;
  /** Said in the report: which release's loader was applied and why. */
  note: string;
}

const TABLE: Record<
  LoaderProfileId,
  Omit<LoaderProfile, 'id' | 'note' | 'runtimeVersion' | 'versionSource'>
> = {
  'containerd-1.6': {
    runtime: 'containerd',
    loader: 'go-cni v1.1.6 + libcni v1.1.1',
    libcni: '1.1',
    statusRunsPlugins: false,
  },
  'containerd-1.7': {
    runtime: 'containerd',
    loader: 'go-cni v1.1.9 + libcni v1.1.2',
    libcni: '1.1',
    statusRunsPlugins: false,
  },
  'containerd-2.0': {
    runtime: 'containerd',
    loader: 'go-cni v1.1.12 + libcni v1.2.3',
    libcni: '1.2',
    statusRunsPlugins: true,
  },
  'containerd-2.1': {
    runtime: 'containerd',
    loader: 'go-cni v1.1.12 + libcni v1.3.0',
    libcni: '1.3',
    statusRunsPlugins: true,
  },
  'containerd-2.2': {
    runtime: 'containerd',
    loader: 'go-cni v1.1.13 + libcni v1.3.0',
    libcni: '1.3',
    statusRunsPlugins: true,
  },
  'crio-1.30': {
    runtime: 'crio',
    loader: 'ocicni v0.4.2 + libcni v1.1.2',
    libcni: '1.1',
    statusRunsPlugins: false,
  },
  'crio-1.31': {
    runtime: 'crio',
    loader: 'ocicni v0.4.2 + libcni v1.2.3',
    libcni: '1.2',
    statusRunsPlugins: false,
  },
  'crio-1.32': {
    runtime: 'crio',
    loader: 'ocicni v0.4.3 + libcni v1.2.3',
    libcni: '1.2',
    statusRunsPlugins: false,
  },
  'crio-1.33': {
    runtime: 'crio',
    loader: 'ocicni v0.4.3 + libcni v1.3.0',
    libcni: '1.3',
    statusRunsPlugins: false,
  },
  'crio-1.35': {
    runtime: 'crio',
    loader: 'ocicni v0.5.0 + libcni v1.3.0',
    libcni: '1.3',
    statusRunsPlugins: true,
  },
};

const LABEL: Record<LoaderProfileId, string> = {
  'containerd-1.6': 'containerd 1.6',
  'containerd-1.7': 'containerd 1.7',
  'containerd-2.0': 'containerd 2.0',
  'containerd-2.1': 'containerd 2.1',
  'containerd-2.2': 'containerd 2.2+',
  'crio-1.30': 'CRI-O 1.30',
  'crio-1.31': 'CRI-O 1.31',
  'crio-1.32': 'CRI-O 1.32',
  'crio-1.33': 'CRI-O 1.33/1.34',
  'crio-1.35': 'CRI-O 1.35+',
};

export function profileById(id: LoaderProfileId, note?: string): LoaderProfile {
  return { id, ...TABLE[id], note: note ?? `${LABEL[id]} loader (${TABLE[id].loader})` };
}

/** "v1.7.27", "1.7.27-0ubuntu1", "v1.7.23-k3s2", "1.30.4" → [1, 7]. */
function majorMinor(v: string): [number, number] | undefined {
  const m = /(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function containerdId(mm: [number, number]): LoaderProfileId {
  const [a, b] = mm;
  if (a < 1 || (a === 1 && b <= 6)) return 'containerd-1.6';
  if (a === 1) return 'containerd-1.7';
  if (a === 2 && b === 0) return 'containerd-2.0';
  if (a === 2 && b === 1) return 'containerd-2.1';
  return 'containerd-2.2';
}

function crioId(mm: [number, number]): LoaderProfileId {
  const [a, b] = mm;
  if (a < 1 || (a === 1 && b <= 30)) return 'crio-1.30';
  if (a === 1 && b === 31) return 'crio-1.31';
  if (a === 1 && b === 32) return 'crio-1.32';
  if (a === 1 && b <= 34) return 'crio-1.33';
  return 'crio-1.35';
}

/**
 * The loader profile for a runtime of version `version` (k3s/rke2 report containerd's own
 * version). Unknown or unparseable: the newest loader, said as an assumption.
 */
export function loaderProfile(
  runtime: 'containerd' | 'crio',
  version: string | undefined,
  source: string | undefined,
): LoaderProfile {
  const mm = version ? majorMinor(version) : undefined;
  if (!mm) {
    const id = runtime === 'containerd' ? 'containerd-2.2' : 'crio-1.35';
    const who = runtime === 'containerd' ? 'containerd' : 'CRI-O';
    return profileById(
      id,
      `${who} version unknown${version ? ` ("${version}")` : ''}: assumed the ${LABEL[id]} loader (${TABLE[id].loader})`,
    );
  }
  const id = runtime === 'containerd' ? containerdId(mm) : crioId(mm);
  return {
    ...profileById(
      id,
      `${LABEL[id]} loader (${TABLE[id].loader}) for ${runtime === 'containerd' ? 'containerd' : 'CRI-O'} ${version}${source ? `, from ${source}` : ''}`,
    ),
    runtimeVersion: version as string,
    ...(source !== undefined && { versionSource: source }),
  };
}
