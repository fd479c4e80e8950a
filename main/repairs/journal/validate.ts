/**
 * A journal entry is bound to its origin (docs/security.md "Journal"): recovery and undo act on
 * one only when it was recorded for the root the current invocation names, and when every path,
 * backup and step in it has the shape our own apply writes. The state dir is already checked to
 * be writable by root only; this is the second wall, for a journal copied from elsewhere, edited
 * by hand or damaged — such an entry is refused with the reason, never partly executed.
 */
import type { FileBackup, JournalEntry, JournalStep } from '../../../shared/model/repair';
import { POWERSHELL_CMDLETS } from '../../../shared/model/repair';
import { canonicalRoot } from '../state-dir';
import { executorFor } from '../steps/registry';
import { BACKUP_NAME, ENTRY_ID } from './store';

const SHA256 = /^[0-9a-f]{64}$/;
const STEP_KINDS = new Set([
  'rename',
  'write',
  'toml-set',
  'toml-remove',
  'toml-remove-element',
  'restart-service',
  'powershell',
]);
const SERVICE = /^[A-Za-z0-9][A-Za-z0-9@._:-]{0,254}$/;

/** An absolute node path with no `.`/`..` segment and no NUL (Linux, or a Windows drive path). */
export function isNodePath(p: unknown): p is string {
  if (typeof p !== 'string' || p.length === 0 || p.length > 4096 || p.includes('\0')) return false;
  const win = /^[A-Za-z]:\\/.test(p);
  if (!win && !p.startsWith('/')) return false;
  return !p.split(win ? /[\\/]/ : /\//).some((seg) => seg === '..' || seg === '.');
}

const isUint = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;

function backupProblem(b: FileBackup, touches: readonly string[]): string | null {
  if (!touches.includes(b.path))
    return `a backup names ${String(b.path)}, which its step does not touch`;
  if (b.file === null || b.sha256 === null) {
    return b.file === null && b.sha256 === null ? null : `the backup of ${b.path} is inconsistent`;
  }
  if (typeof b.file !== 'string' || !BACKUP_NAME.test(b.file))
    return `the backup of ${b.path} has an invalid file name`;
  if (typeof b.sha256 !== 'string' || !SHA256.test(b.sha256))
    return `the backup of ${b.path} has no valid hash`;
  if (b.mode !== undefined && !(isUint(b.mode) && b.mode <= 0o7777))
    return `the backup of ${b.path} has an invalid mode`;
  if ((b.uid !== undefined && !isUint(b.uid)) || (b.gid !== undefined && !isUint(b.gid)))
    return `the backup of ${b.path} has an invalid owner`;
  return null;
}

function stepProblem(js: JournalStep): string | null {
  const s = js.step as unknown as Record<string, unknown> | undefined;
  if (!s || typeof s.kind !== 'string' || !STEP_KINDS.has(s.kind))
    return `step ${js.index + 1} has an unknown kind`;
  const paths: unknown[] =
    s.kind === 'rename'
      ? [s.from, s.to]
      : s.kind === 'write'
        ? [s.path, ...(s.tempDir !== undefined ? [s.tempDir] : [])]
        : s.kind.startsWith('toml-')
          ? [s.path]
          : [];
  const bad = paths.find((p) => !isNodePath(p));
  if (bad !== undefined) return `step ${js.index + 1} names an invalid path ${JSON.stringify(bad)}`;
  if (s.kind === 'write' && typeof s.content !== 'string')
    return `step ${js.index + 1} has no content`;
  if (s.kind === 'restart-service' && !(typeof s.service === 'string' && SERVICE.test(s.service)))
    return `step ${js.index + 1} names an invalid service`;
  if (
    s.kind === 'powershell' &&
    !POWERSHELL_CMDLETS.includes(s.cmdlet as (typeof POWERSHELL_CMDLETS)[number])
  )
    return `step ${js.index + 1} runs a cmdlet that is not allowed`;
  if (!Array.isArray(js.backups)) return `step ${js.index + 1} has no backup list`;
  const touches = executorFor(js.step).touches(js.step);
  for (const b of js.backups) {
    const why = backupProblem(b, touches);
    if (why) return why;
  }
  return null;
}

/**
 * Why `entry` must not be acted on by an invocation on `root`, or null. The root comparison is
 * on real paths, so a root named through a symlink still matches.
 */
export function entryProblem(entry: JournalEntry, root: string): string | null {
  if (entry.schema !== 'cni-doctor.journal/v1' || !ENTRY_ID.test(String(entry.id)))
    return 'it is not a cni-doctor journal entry';
  if (typeof entry.root !== 'string' || entry.root === '')
    return 'it does not say which root it was made for';
  if (canonicalRoot(entry.root) !== canonicalRoot(root))
    return `it was made for root ${entry.root}, and this run names root ${root}`;
  if (!Array.isArray(entry.steps)) return 'it has no step list';
  for (const [k, js] of entry.steps.entries()) {
    if (!js || js.index !== k) return `step ${k + 1} is out of order`;
    const why = stepProblem(js);
    if (why) return why;
  }
  return null;
}
