/**
 * The file system of a RUNNING node seen from this machine at a directory (a node container's
 * /proc/PID/root): repairs write there with the local engine's primitives — temp file in the same
 * directory, fsync, rename — so they are atomic on the node's own file system. Node paths resolve
 * inside that root (symlinks included, resolveUnderRoot), never on this machine.
 *
 * `root` is the target (stable across container restarts, unlike a PID): journal entries record
 * it, and an entry recorded through a target is handled only through that target.
 */
import { resolveUnderRoot } from '../host/rooted-fs';
import { LocalNodeFs } from '../repairs/node-fs';

export class NodeRootFs extends LocalNodeFs {
  override readonly live = true;
  override readonly root: string;

  constructor(
    target: string,
    readonly base: string,
  ) {
    super(base);
    this.root = target;
  }

  override realPath(nodePath: string, followLast = true): Promise<string> {
    return resolveUnderRoot(this.base, nodePath, followLast);
  }
}
