/**
 * Where the journal and backups live, and where they must never live: inside a directory a
 * runtime loads files from. A backup `10-calico.conflist.bak` is harmless in /var/lib but a CRI-O
 * drop-in if it sits in crio.conf.d (CRI-O applies every file there, docs/knowledge/cri-o.md#the-crionetwork-table), and anything
 * under a CNI conf dir or a containerd `imports` glob dir is one rename away from being loaded.
 */
import { createHash } from 'node:crypto';
import { lstatSync, promises as fsp, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Snapshot } from '../../shared/model/snapshot';
import { parseToml } from '../config/toml';
import { dirnameNode, resolveNode } from '../conventions/node-paths';
import type { NodeFs } from './node-fs';

/** The root as this machine names it: realpath, so `/mnt/node` and a link to it share state. */
export function canonicalRoot(root: string): string {
  // A node reached through a transport is named by its target (container:podman/n): the same
  // string from any working directory, never resolved as a path of this machine.
  if (!/^(?:\/|[A-Za-z]:[\\/]|\.)/.test(root)) return root;
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/** `roots/<hash>`: the state of one examined node disk, keyed by its real path. */
export function rootKey(root: string): string {
  return createHash('sha256').update(canonicalRoot(root)).digest('hex').slice(0, 24);
}

/**
 * The default state dir. Under --root it is on the invoking machine, keyed by the root — never on
 * the examined disk: whoever wrote that disk could have planted a journal there, and its
 * symlinks (`var/lib` → anywhere) would carry our backups out of it (docs/security.md).
 */
export function defaultStateDir(os: 'linux' | 'windows', root?: string): string {
  if (os === 'windows')
    return path.win32.join(process.env.ProgramData ?? 'C:\\ProgramData', 'cni-doctor');
  const base =
    (process.geteuid?.() ?? 0) === 0
      ? '/var/lib/cni-doctor'
      : path.join(process.env.XDG_STATE_HOME ?? path.join(homedir(), '.local/state'), 'cni-doctor');
  if (!root || canonicalRoot(root) === '/') return base;
  return path.join(base, 'roots', rootKey(root));
}

/** The journal a node disk carries for its own runs: seen, reported, never read or executed. */
export function examinedDiskJournal(root: string): string | null {
  // Only a disk mounted here has one; a remote target's root is a label, not a path.
  const real = canonicalRoot(root);
  if (real === '/' || !path.isAbsolute(real)) return null;
  const p = path.join(root, 'var/lib/cni-doctor/journal');
  try {
    lstatSync(p);
  } catch {
    return null;
  }
  return `the examined disk holds a cni-doctor journal (${p}); it belongs to that node and is never read or executed from here — run cni-doctor on that node to see or undo its repairs`;
}

const SYSTEMD_KUBELET_DROPINS = [
  '/etc/systemd/system/kubelet.service.d',
  '/usr/lib/systemd/system/kubelet.service.d',
  '/lib/systemd/system/kubelet.service.d',
];

/** Node directories whose files a runtime loads (conf dirs, import globs, drop-in dirs). */
export function loadedDirs(s: Snapshot): string[] {
  const os = s.node.os;
  const dirs = new Set<string>(s.confDirs.map((d) => d.path));
  if (s.containerd.known && s.containerd.value) {
    const c = s.containerd.value;
    dirs.add(c.cni.confDir.value);
    if (os === 'linux') dirs.add('/etc/containerd/conf.d');
    for (const f of c.files) {
      if (!f.file.known) continue;
      const doc = parseToml(f.file.value.text);
      const imports = doc.ok && Array.isArray(doc.value.imports) ? doc.value.imports : [];
      for (const imp of imports) {
        if (typeof imp !== 'string') continue;
        const abs = resolveNode(os, dirnameNode(os, f.path), imp);
        // A glob loads its directory's matches; a plain import names one file in its dir.
        dirs.add(dirnameNode(os, abs));
      }
    }
  }
  if (s.crio.known && s.crio.value) {
    dirs.add(s.crio.value.dropInDir);
    dirs.add(s.crio.value.cni.confDir.value);
  }
  if (os === 'linux') for (const d of SYSTEMD_KUBELET_DROPINS) dirs.add(d);
  return [...dirs];
}

/** The real path of a possibly not-yet-existing directory: realpath of its nearest ancestor. */
async function realish(p: string): Promise<string> {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return path.join(await fsp.realpath(cur), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return abs;
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}

const inside = (child: string, dir: string, sep: string): boolean =>
  child === dir || child.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** null when the state dir is safe; otherwise why not. */
export async function stateDirProblem(
  stateDir: string,
  s: Snapshot,
  fs: NodeFs,
): Promise<string | null> {
  const state = await realish(stateDir);
  const sep = s.node.os === 'windows' && process.platform === 'win32' ? '\\' : '/';
  const cmp = (x: string): string => (s.node.os === 'windows' ? x.toLowerCase() : x);
  for (const d of loadedDirs(s)) {
    const real = await realish(await fs.realPath(d, true).catch(() => d));
    if (inside(cmp(state), cmp(real), sep))
      return `the state dir ${stateDir} is inside ${d}, which a runtime loads files from; backups there could be loaded as configuration. Use --state-dir elsewhere`;
  }
  return null;
}
