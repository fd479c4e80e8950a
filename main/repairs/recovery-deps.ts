/** The file system and service manager an existing journal entry must be handled with. */
import type { JournalEntry } from '../../shared/model/repair';
import type { RepairEnvironment } from './environment';
import { LocalNodeFs, type NodeFs } from './node-fs';
import { OfflineServiceManager } from './services/offline';
import { SystemdServiceManager } from './services/systemd';
import type { ServiceManager } from './services/types';

export function depsForEntry(
  env: Pick<RepairEnvironment, 'fs' | 'services'>,
  entry: JournalEntry,
): { fs: NodeFs; services: ServiceManager } {
  if (entry.root === env.fs.root) return { fs: env.fs, services: env.services };
  // An entry recorded for another root (a node disk, or this node while we look at a disk).
  const fs = new LocalNodeFs(entry.root);
  return {
    fs,
    services:
      fs.live && process.platform === 'linux'
        ? new SystemdServiceManager()
        : new OfflineServiceManager(),
  };
}
