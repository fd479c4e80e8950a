/**
 * The repair engine's NodeFs on a node reached through a transport with no local view of its file
 * system (ssh, a kubectl debug pod): every operation runs on the node (node-files.ts), so temp
 * files, fsync and rename(2) happen on the node's own file system — atomic there, as locally.
 * Paths are node paths: the node's `/` is the root, symlinks resolve on the node.
 *
 * `root` is the target (`ssh:admin@node1`): journal entries record it, and an entry recorded
 * through a target is handled only through that target.
 */
import { tempName, type NodeFs, type NodeStat, type WriteOptions } from '../repairs/node-fs';
import { isTempName } from '../repairs/node-fs';
import { NodeFiles } from './node-files';

export class TransportNodeFs implements NodeFs {
  readonly live = true;

  constructor(
    readonly root: string,
    readonly files: NodeFiles,
  ) {}

  realPath(nodePath: string, followLast = true): Promise<string> {
    return this.files.realPath(nodePath, followLast);
  }

  async read(nodePath: string): Promise<Buffer | null> {
    return (await this.files.read(nodePath, false))?.data ?? null;
  }

  stat(nodePath: string, follow = false): Promise<NodeStat | null> {
    return this.files.stat(nodePath, follow);
  }

  list(nodePath: string): Promise<string[] | null> {
    return this.files.list(nodePath);
  }

  async writeAtomic(nodePath: string, data: Buffer | string, opts: WriteOptions): Promise<void> {
    // The node's script resolves a symlink at the name (config.toml → its target) and renames
    // the temp file over the target, like LocalNodeFs.
    const real = await this.files.realPath(nodePath, true);
    const tempDir = (opts.tempDir ?? real.slice(0, real.lastIndexOf('/'))) || '/';
    opts.beforeRename?.();
    await this.files.replace(real, data, {
      tempDir,
      tempName: tempName(),
      mode: opts.mode,
      ...(opts.uid !== undefined && opts.gid !== undefined && { uid: opts.uid, gid: opts.gid }),
    });
  }

  rename(from: string, to: string): Promise<void> {
    return this.files.rename(from, to);
  }

  remove(nodePath: string): Promise<void> {
    return this.files.remove(nodePath);
  }

  canWrite(nodePath: string): Promise<boolean> {
    return this.files.canWrite(nodePath);
  }

  async removeStaleTemps(dirNodePath: string): Promise<string[]> {
    const names = await this.list(dirNodePath);
    if (!names) return [];
    const removed: string[] = [];
    for (const n of names.filter(isTempName)) {
      const p = `${dirNodePath.replace(/\/+$/, '')}/${n}`;
      await this.remove(p);
      removed.push(p);
    }
    return removed;
  }
}
