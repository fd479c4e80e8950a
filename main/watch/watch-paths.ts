/**
 * What a scan read that can change under it: every CNI conf dir it examined (a missing one too:
 * a folder that appears is a change) and the runtimes' and the kubelet's config files.
 */
import type { Snapshot } from '../../shared/model/snapshot';

export interface NodePathToWatch {
  path: string;
  kind: 'dir' | 'file';
}

/** Bounded: a node whose configs import hundreds of files is still watched by its first few. */
export const MAX_WATCHED_PATHS = 64;

export function pathsToWatch(s: Snapshot): NodePathToWatch[] {
  const out = new Map<string, NodePathToWatch>();
  const add = (path: string, kind: 'dir' | 'file'): void => {
    if (path !== '' && !out.has(path)) out.set(path, { path, kind });
  };
  for (const d of s.confDirs) add(d.path, 'dir');
  for (const rt of [s.containerd, s.crio])
    if (rt.known && rt.value) for (const f of rt.value.files) add(f.path, 'file');
  const kubelet = s.kubelet.known ? s.kubelet.value : null;
  if (kubelet?.configPath) add(kubelet.configPath, 'file');
  return [...out.values()].slice(0, MAX_WATCHED_PATHS);
}
