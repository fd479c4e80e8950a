/** The file system and service manager an existing journal entry must be handled with. */
import type { JournalEntry } from '../../shared/model/repair';
import type { RepairEnvironment } from './environment';
import type { NodeFs } from './node-fs';
import { canonicalRoot } from './state-dir';
import type { ServiceManager } from './services/types';

export class ForeignEntry extends Error {}

/**
 * Always the current invocation's own file system: an entry is only ever acted on through the
 * root this run names (docs/security.md "Journal"). An entry made for another root is refused
 * with both roots named, never silently followed to the root it records.
 */
export function depsForEntry(
  env: Pick<RepairEnvironment, 'fs' | 'services'>,
  entry: JournalEntry,
): { fs: NodeFs; services: ServiceManager } {
  if (canonicalRoot(entry.root) !== canonicalRoot(env.fs.root))
    throw new ForeignEntry(
      `journal entry ${entry.id} was made for root ${entry.root}, but this run names root ${env.fs.root}; nothing was done. Run it again with ${/^(?:\/|[A-Za-z]:[\\/])/.test(entry.root) ? '--root' : '--target'} ${entry.root} to act on it`,
    );
  return { fs: env.fs, services: env.services };
}
