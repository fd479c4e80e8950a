/**
 * Every node path a default Windows scan's probes ask for, taken from the probes' own constants,
 * so that ONE collection call answers a whole default scan (docs/knowledge/windows-node.md#scale: one HNS/PowerShell
 * round trip per object is what makes Windows tooling crawl). windows-host.test.ts proves it: a
 * default scan makes exactly one call.
 */
import { CONTAINERD_LOCATIONS } from '../../probes/containerd';
import { CRICTL_PATHS } from '../../probes/crictl';
import { WINDOWS_FLAG_FILES, WINDOWS_KUBELET_CONFIG } from '../../probes/kubelet';
import { LOG_FILES } from '../../probes/logs';
import { isCollectablePath } from './collect-input';
import { DEFAULT_KUBELET_SCRIPT } from '../../conventions/windows-launch';
import { normalizeNodePath } from '../../conventions/node-paths';
import {
  DISABLED_SUFFIXES,
  LOADABLE_EXTENSIONS,
  WELL_KNOWN_BIN_DIRS,
  WELL_KNOWN_CONF_DIRS,
} from '../../conventions/cni-files';

/** What one collection call is asked to read (collect-input.ts has the meaning of each list). */
export interface PathRequest {
  paths: string[];
  dirs: string[];
  readDirs: string[];
  tails: string[];
}

/** Names in a conf dir the probes parse: loadable configs and their disabled variants. */
export const CONF_FILE_SUFFIXES: readonly string[] = [...LOADABLE_EXTENSIONS, ...DISABLED_SUFFIXES];

export function defaultScanRequest(): PathRequest {
  return {
    paths: [
      ...CONTAINERD_LOCATIONS.windows.map((l) => l.config),
      ...WINDOWS_FLAG_FILES,
      WINDOWS_KUBELET_CONFIG,
      // Where the kubelet's command line lives when it is not running (the service's own script,
      // when it names another, comes with the collection: collect.ps1 Get-LaunchFiles).
      DEFAULT_KUBELET_SCRIPT,
      ...CRICTL_PATHS.windows,
    ],
    // Conf dirs come with their configs: the probes parse every one of them next.
    readDirs: [...WELL_KNOWN_CONF_DIRS.windows],
    // Bin dirs are only listed; their plugin binaries are never read.
    dirs: [...WELL_KNOWN_BIN_DIRS.windows],
    tails: [...LOG_FILES.windows],
  };
}

/**
 * The form collect.ps1 accepts (`C:\x\y`): configs name dirs as `c:/etc/cni/net.d`. Undefined for
 * what the collector never opens (pipes, shares, relative and Linux paths).
 */
export function collectablePath(p: string): string | undefined {
  if (!/^[A-Za-z]:[\\/]/.test(p)) return undefined;
  const n = normalizeNodePath('windows', p);
  return isCollectablePath(n) ? n : undefined;
}
