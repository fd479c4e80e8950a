/**
 * `--root DIR` is for a node disk nobody changes while cni-doctor runs (docs/security.md "Known
 * limits"). A running process's root — a node container's /proc/PID/root, a path below it, or a
 * symlink to it — is the opposite: the container's root may swap any directory of its own for a
 * symlink at any moment, and this machine's kernel resolves that link against this machine's
 * root, so reads and writes "under the root" could land on this machine (red-team review B1).
 * Such a root is refused; `--target container:ENGINE/NAME` reaches the node with every file
 * operation run inside it.
 *
 * Two signs, either enough: the path is spelled through /proc/<pid>/{root,cwd}; or it is not the
 * directory its real path names — realpath(3) turns a /proc magic link into the path as the
 * other process sees it ("/"), so stat() of both differs, which no ordinary path or symlink does.
 */
import { promises as fsp } from 'node:fs';
import { resolve } from 'node:path';

const PROC_ROOT = /^\/proc\/(?:[0-9]+|self|thread-self)(?:\/task\/[0-9]+)?\/(?:root|cwd)(?:\/|$)/;

export async function liveProcessRootProblem(root: string): Promise<string | null> {
  const abs = resolve(root);
  let live = PROC_ROOT.test(abs);
  if (!live) {
    const real = await fsp.realpath(abs).catch(() => null);
    if (real !== null && real !== abs) {
      const [a, b] = await Promise.all([fsp.stat(abs), fsp.stat(real)]).catch(() => [null, null]);
      live = a !== null && b !== null && (a.dev !== b.dev || a.ino !== b.ino);
    }
  }
  return live
    ? `--root ${root} is the file system of a running process (a container's /proc/PID/root): its root can swap a directory for a symlink while cni-doctor works there, and this machine would follow it. Reach a running node container with --target container:ENGINE/NAME (its files are then touched only from inside it)`
    : null;
}
