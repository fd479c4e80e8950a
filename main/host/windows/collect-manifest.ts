/**
 * A WindowsCollection as bundle-manifest pieces (bundle-format.md): `host`, `hns`, `pipes`,
 * `services`, `processes`, `versions`, `paths`, plus the collected file contents keyed by native
 * Windows path (the bundle writer stores them under files/C/…). A section the collection lacks is
 * left out, so a reader sees it as not recorded rather than as empty.
 */
import type { BundleManifest, ManifestPathEntry } from '../../bundle/manifest';
import type {
  HnsCollection,
  PathRecord,
  ServiceRecord,
  VersionRecord,
  WindowsCollection,
} from './collect-result';
import { HNS_LIST_KINDS } from './collect-result';
import { splitWindowsCommandLine } from './command-line';
import type { ServiceLaunch } from '../../../shared/model/snapshot';

type ServiceState = NonNullable<BundleManifest['services']>[number]['state'];
type ManifestHns = NonNullable<BundleManifest['hns']> & { errors?: Record<string, string> };

export interface BundlePieces {
  host: BundleManifest['host'];
  collectedAt?: string;
  hns?: ManifestHns;
  pipes?: string[];
  services?: NonNullable<BundleManifest['services']>;
  processes?: NonNullable<BundleManifest['processes']>;
  versions?: Record<string, string>;
  paths?: Record<string, ManifestPathEntry>;
  /** Contents of collected files, keyed by the native path as requested. */
  files: Map<string, Buffer>;
}

export function toBundlePieces(c: WindowsCollection): BundlePieces {
  const host: BundleManifest['host'] = { os: 'windows' };
  if (c.host?.hostname !== undefined) host.hostname = c.host.hostname;
  if (c.host?.osVersion !== undefined) host.osVersion = c.host.osVersion;
  if (c.host?.elevated !== undefined) host.elevated = c.host.elevated;
  const pieces: BundlePieces = { host, files: new Map() };
  if (c.startedAt !== undefined) pieces.collectedAt = c.startedAt;

  if (c.hns) pieces.hns = hnsPiece(c.hns);
  // A failed listing is unknown, not "no pipes".
  if (c.pipes && c.pipes.error === undefined) pieces.pipes = [...c.pipes.names];
  if (c.services && c.services.items.length > 0)
    pieces.services = c.services.items.map((s) => {
      const launch = serviceLaunch(s);
      return { name: s.name, state: serviceState(s), ...(launch !== undefined && { launch }) };
    });
  if (c.processes && c.processes.error === undefined) {
    pieces.processes = c.processes.items.map((p) => ({
      name: p.name.replace(/\.exe$/i, ''),
      ...(p.pid !== undefined && { pid: p.pid }),
      args:
        p.commandLine !== undefined
          ? splitWindowsCommandLine(p.commandLine)
          : p.executablePath !== undefined
            ? [p.executablePath]
            : [],
    }));
  }
  if (c.versions) {
    const versions: Record<string, string> = {};
    for (const v of c.versions.items) {
      const found = versionOf(v);
      if (found !== undefined) versions[v.component] = found;
    }
    pieces.versions = versions;
  }
  if (c.files) {
    const paths: Record<string, ManifestPathEntry> = {};
    for (const f of c.files.items) {
      const entry = pathEntry(f);
      if (entry !== undefined) paths[f.path] = entry;
      if (f.type === 'file' && f.content !== undefined && f.error === undefined)
        pieces.files.set(f.path, f.content);
    }
    pieces.paths = paths;
  }
  return pieces;
}

function hnsPiece(h: HnsCollection): ManifestHns {
  const errors: Record<string, string> = {};
  for (const [k, v] of Object.entries(h.errors)) if (v !== undefined) errors[k] = v;
  const readLists = HNS_LIST_KINDS.filter((k) => h.errors[k] === undefined);
  // The manifest's single `error` means "HNS could not be read"; it is set only when no list was.
  // Per-list failures travel in `errors` (an extension readers may ignore).
  const failed = readLists.length === 0 || h.source === undefined;
  return {
    networks: [...h.networks],
    endpoints: [...h.endpoints],
    namespaces: [...h.namespaces],
    policyLists: [...h.policyLists],
    error: failed
      ? (h.error ?? (Object.values(errors).join('; ') || 'no HNS surface answered'))
      : null,
    ...(h.source !== undefined && { source: h.source }),
    ...(Object.keys(errors).length > 0 && { errors }),
  };
}

/** The registry launch values collect.ps1 read for a service, when it read any. */
function serviceLaunch(s: ServiceRecord): ServiceLaunch | undefined {
  const l: ServiceLaunch = {};
  if (s.imagePath !== undefined && s.imagePath !== '') l.imagePath = s.imagePath;
  if (s.imagePathError !== undefined) l.imagePathError = s.imagePathError;
  if (s.nssm !== undefined) l.nssm = { ...s.nssm };
  if (s.nssmError !== undefined) l.nssmError = s.nssmError;
  return Object.keys(l).length > 0 ? l : undefined;
}

/** Win32_Service State (or Get-Service Status) to the manifest's five states. */
function serviceState(s: ServiceRecord): ServiceState {
  if (!s.present) return 'missing';
  switch ((s.state ?? '').toLowerCase()) {
    case 'running':
      return 'running';
    case 'stopped':
      // 1077 = ERROR_SERVICE_NEVER_STARTED: stopped, not failed.
      return s.exitCode !== undefined && s.exitCode !== 0 && s.exitCode !== 1077
        ? 'failed'
        : 'stopped';
    case 'paused':
      return 'stopped';
    default:
      return 'unknown'; // pending states and anything unexpected
  }
}

const VERSION = /\bv?\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?/;

/** The version a probe found: from its `--version` output first, else the file's version resource. */
export function versionOf(v: VersionRecord): string | undefined {
  if (v.stdout !== undefined && v.exitCode === 0) {
    // "Kubernetes v1.29.1", "containerd github.com/containerd/containerd v1.7.13 7c3a…": prefer a v-token.
    const tokens = v.stdout.split(/\s+/);
    const vToken = tokens.find((t) => /^v\d+\.\d+/.test(t));
    if (vToken !== undefined) return vToken.replace(/[,;]$/, '');
    const m = VERSION.exec(v.stdout);
    if (m) return m[0];
  }
  for (const candidate of [v.productVersion, v.fileVersion]) {
    const t = candidate?.trim();
    if (t !== undefined && t !== '' && /\d/.test(t)) return t;
  }
  return undefined;
}

/** Manifest `paths` entry: everything that is not a plainly collected file, and failures. */
function pathEntry(f: PathRecord): ManifestPathEntry | undefined {
  const error = f.error === undefined ? undefined : errorCode(f.error);
  switch (f.type) {
    case 'missing':
      return { type: 'missing' };
    case 'other':
      return error === undefined ? { type: 'other' } : { type: 'other', error };
    case 'dir': {
      const e: ManifestPathEntry = { type: 'dir' };
      if (f.entries !== undefined) e.entries = [...f.entries];
      if (error !== undefined) e.error = error;
      if (f.entriesTruncated === true) e.truncated = true;
      return e;
    }
    case 'file': {
      if (error !== undefined) return { type: 'file', error };
      if (f.content === undefined)
        return f.size === undefined ? { type: 'file' } : { type: 'file', size: f.size };
      if (f.truncated === true)
        return { type: 'file', truncated: true, ...(f.size !== undefined && { size: f.size }) };
      return undefined;
    }
  }
}

/**
 * Readers classify `error` by the POSIX-style code in it (bundle-host errorCode). Windows reports
 * HRESULTs and localised text, so the code is put in front: 0x80070005 access denied, 0x80070002/3
 * not found.
 */
function errorCode(message: string): string {
  if (/0x80070005\b/i.test(message)) return `EACCES: ${message}`;
  if (/0x8007000[23]\b/i.test(message)) return `ENOENT: ${message}`;
  if (/0x80070020\b|0x80070021\b/i.test(message)) return `EIO: ${message}`;
  return message;
}
