/**
 * The Windows form of a secure state dir (docs/security.md "State dir"): no component is a
 * reparse point (symlink or junction), and the directory's ACL lets only Administrators and
 * SYSTEM (plus CREATOR OWNER and TrustedInstaller, which Windows adds itself) write. A directory
 * we create gets exactly that ACL with inheritance cut (`icacls /inheritance:r`), the equivalent
 * of root-owned 0700. Parents such as C:\ProgramData let Users create folders but not change
 * other users' folders, which is what a sticky /tmp gives on Linux, so only the chain of reparse
 * points is checked above the leaf.
 *
 * Tools are run by absolute path from %SystemRoot% (never a bare name found on PATH).
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { UnsafeStateDir } from './errors';

const run = promisify(execFile);

const ADMINISTRATORS = 'S-1-5-32-544';
const SYSTEM = 'S-1-5-18';
/** SIDs allowed to write the state dir: Administrators, SYSTEM, CREATOR OWNER, TrustedInstaller. */
export const TRUSTED_SIDS = new Set([
  ADMINISTRATORS,
  SYSTEM,
  'S-1-3-0',
  'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464',
]);

/**
 * Access-mask bits that let a trustee change the directory or what is in it. Checked on the number,
 * not on FileSystemRights' names: .NET's enum has no Generic* members, so an ACE holding
 * GENERIC_WRITE or GENERIC_ALL (usual on inherit-only ACEs, e.g. (OI)(CI)(IO) on a directory that
 * existed before) prints as a bare number and would pass a check on names.
 */
export const WRITE_MASK =
  0x00000002 | // FILE_WRITE_DATA / FILE_ADD_FILE
  0x00000004 | // FILE_APPEND_DATA / FILE_ADD_SUBDIRECTORY
  0x00000010 | // FILE_WRITE_EA
  0x00000040 | // FILE_DELETE_CHILD
  0x00000100 | // FILE_WRITE_ATTRIBUTES
  0x00010000 | // DELETE
  0x00040000 | // WRITE_DAC
  0x00080000 | // WRITE_OWNER
  0x02000000 | // MAXIMUM_ALLOWED
  0x10000000 | // GENERIC_ALL
  0x40000000; //  GENERIC_WRITE

/** Names, for an ACL line whose rights are not a number (older output). */
const WRITE_RIGHTS =
  /FullControl|Modify|Write|CreateFiles|AppendData|Delete|ChangePermissions|TakeOwnership/;

/** Whether a rights column (the numeric mask, or names) allows writing. */
function allowsWrite(rights: string): boolean {
  if (/^-?\d+$/.test(rights)) return ((Number(rights) >>> 0) & WRITE_MASK) !== 0;
  return WRITE_RIGHTS.test(rights) || /\b\d+\b/.test(rights);
}

const systemRoot = (): string => process.env.SystemRoot ?? 'C:\\Windows';
const powershellExe = (): string =>
  path.win32.join(systemRoot(), 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');

/** `SID<TAB>mask<TAB>Allow|Deny` lines and the owner SID, as PowerShell's Get-Acl sees them. */
export const ACL_SCRIPT = `$a = Get-Acl -LiteralPath $env:CNID_DIR
$o = $a.GetOwner([Security.Principal.SecurityIdentifier]).Value
"owner\`t$o"
foreach ($r in $a.GetAccessRules($true, $true, [Security.Principal.SecurityIdentifier])) {
  "$($r.IdentityReference.Value)\`t$([int]$r.FileSystemRights)\`t$($r.AccessControlType)"
}`;

/** Why the ACL lines (from ACL_SCRIPT) let someone untrusted write, or null. */
export function aclProblem(lines: string): string | null {
  for (const line of lines.split(/\r?\n/)) {
    const [sid, rights, type] = line.trim().split('\t');
    if (!sid || rights === undefined) continue;
    if (sid === 'owner') {
      if (rights !== ADMINISTRATORS && rights !== SYSTEM) return `it is owned by ${rights}`;
      continue;
    }
    if (type === 'Allow' && !TRUSTED_SIDS.has(sid) && allowsWrite(rights))
      return `${sid} may write it (access mask 0x${(Number(rights) >>> 0).toString(16).padStart(8, '0')})`;
  }
  return null;
}

export async function windowsSecureDir(
  dir: string,
  create: boolean,
  what = 'state dir',
): Promise<string | null> {
  const abs = path.win32.resolve(dir);
  const refuse = (why: string): never => {
    throw new UnsafeStateDir(
      `refusing the ${what} ${abs}: ${why}; only Administrators and SYSTEM may write it. Nothing was done`,
    );
  };
  // Walk from the drive down: a junction anywhere could redirect the state dir.
  const parts = abs.split('\\').filter((s) => s !== '');
  let cur = `${parts.shift() ?? 'C:'}\\`;
  let created = false;
  for (const seg of parts) {
    cur = path.win32.join(cur, seg);
    const st = await fsp.lstat(cur).catch(() => null);
    if (st === null) {
      if (!create) return null;
      await fsp.mkdir(cur);
      created = true;
      continue;
    }
    if (st.isSymbolicLink()) refuse(`${cur} is a symlink or junction`);
    if (!st.isDirectory()) refuse(`${cur} is not a directory`);
  }
  if (created) {
    await run(path.win32.join(systemRoot(), 'System32', 'icacls.exe'), [
      abs,
      '/inheritance:r',
      '/grant:r',
      `*${ADMINISTRATORS}:(OI)(CI)F`,
      '/grant:r',
      `*${SYSTEM}:(OI)(CI)F`,
      '/setowner',
      `*${ADMINISTRATORS}`,
    ]);
  }
  const { stdout } = await run(
    powershellExe(),
    ['-NoProfile', '-NonInteractive', '-Command', ACL_SCRIPT],
    { env: { ...process.env, CNID_DIR: abs } },
  );
  const why = aclProblem(stdout);
  if (why) refuse(why);
  return abs;
}
