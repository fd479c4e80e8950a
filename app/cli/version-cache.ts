/**
 * The CLI's remembered `--version` answers of nodes' plugins and kubelets (main/remote/version-cache.ts): a file in the user's cache
 * directory, shared by every scan of a node from this account. `CNI_DOCTOR_VERSION_CACHE=off`
 * asks every plugin again; no safe cache directory (sudo keeping a user's HOME, a directory others
 * may write) means the same.
 */
import { FileVersionCache, type VersionCache } from '../../main/remote/version-cache';
import { cacheDir, ownCacheDir } from './launch/cache-dir';

export function cliVersionCache(env: NodeJS.ProcessEnv = process.env): VersionCache | undefined {
  if (env.CNI_DOCTOR_VERSION_CACHE === 'off') return undefined;
  const base = cacheDir(env);
  const dir = base === undefined ? undefined : ownCacheDir(base);
  return dir === undefined ? undefined : new FileVersionCache(dir);
}
