/**
 * Operating-system errors in words. Node writes a failed file operation as
 * "EACCES: permission denied, mkdtemp '/tmp/cni-doctor-cri-proto-XXXXXX'": a newcomer reads the
 * code as a crash and the path as ours (newcomer review, journey 5). Every door passes what it
 * shows through `inWords`; places that know what the user can do add it themselves.
 */

const WORDS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the folder is not empty',
  EMFILE: 'too many open files',
  EBUSY: 'it is busy',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'it timed out',
  EPIPE: 'the other side closed the connection',
};

const VERBS: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  stat: 'look at',
  lstat: 'look at',
  scandir: 'list',
  opendir: 'list',
  mkdir: 'create the folder',
  mkdtemp: 'create a temporary folder in',
  rename: 'rename',
  unlink: 'remove',
  rmdir: 'remove the folder',
  rm: 'remove',
  copyfile: 'copy',
  readlink: 'read the link',
  chmod: 'change the mode of',
  connect: 'connect to',
  access: 'reach',
  spawn: 'start',
};

/** The words for an error's code (ENOENT → "no such file or folder"), if it has a known one. */
export function osErrorWords(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? WORDS[code] : undefined;
}

/** "ENOENT: no such file or directory, open '/x'" → "could not open /x: no such file or folder". */
const NODE_FS = /\b(E[A-Z]{2,15}): [^,']*?, (\w+) '([^']*)'(?: -> '([^']*)')?/g;
/** A bare code left in a message ("connect EACCES /run/x.sock", "… failed: ENOENT"). */
const BARE = /\b(E[A-Z]{2,15})\b/g;

export function inWords(message: string): string {
  const rewritten = message.replace(
    NODE_FS,
    (whole, code: string, syscall: string, p: string, dest: string | undefined) => {
      const words = WORDS[code];
      if (!words) return whole;
      // mkdtemp names its template (…-XXXXXX): the folder it was made in is what matters.
      const where = syscall === 'mkdtemp' ? p.replace(/[\\/][^\\/]*$/, '') || '/' : p;
      const verb = VERBS[syscall] ?? syscall;
      return `could not ${verb} ${where}${dest ? ` to ${dest}` : ''}: ${words}`;
    },
  );
  return rewritten.replace(BARE, (code: string) => {
    const words = WORDS[code];
    return words ? `(${words})` : code;
  });
}
