/**
 * The user's own cache directory (the CLI's code cache, plugins' remembered versions): where it
 * is on each system, and whether it is safely this user's to read and write.
 */
import { existsSync, lstatSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/** Where the user's caches go: $XDG_CACHE_HOME, ~/.cache, %LOCALAPPDATA%, ~/Library/Caches. */
export function cacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string | undefined {
  const abs = (p: string | undefined): string | undefined => (p && isAbsolute(p) ? p : undefined);
  if (platform === 'win32') {
    const base = abs(env.LOCALAPPDATA);
    return base && join(base, 'cni-doctor', 'Cache');
  }
  if (platform === 'darwin') return abs(home) && join(home, 'Library', 'Caches', 'cni-doctor');
  const base = abs(env.XDG_CACHE_HOME) ?? (abs(home) && join(home, '.cache'));
  return base && join(base, 'cni-doctor');
}

export const mine = (st: Stats): boolean =>
  process.platform === 'win32' || st.uid === process.getuid?.();

/**
 * Creates the directory if needed; undefined unless it is safely ours. It is only created under
 * a directory this user owns: `sudo` keeping the user's HOME must not leave a root-owned cache
 * directory in it (the user could not use it afterwards).
 */
export function ownCacheDir(dir: string): string | undefined {
  try {
    if (!existsSync(dir)) {
      let up = dirname(dir);
      while (!existsSync(up) && dirname(up) !== up) up = dirname(up);
      if (!mine(statSync(up))) return undefined;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    const st = lstatSync(dir);
    if (!st.isDirectory() || !mine(st)) return undefined;
    if (process.platform !== 'win32' && (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
