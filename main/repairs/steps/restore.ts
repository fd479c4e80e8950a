/** Put a file back to its backed-up bytes (or absence), keeping anything unexpected first. */
import type { FileBackup } from '../../../shared/model/repair';
import { sha256 } from '../hash';
import type { RevertContext, RevertOutcome } from './types';

/**
 * Mode and owner for a restored file. Set-uid, set-gid and sticky bits never come back from a
 * journal: the files a repair touches are configuration, which has no use for them, and a
 * journal that asks for them (with or without an owner) is the shape of an attack, not of our own
 * backup (docs/security.md "Journal"). Ownership is restored only when it was recorded.
 */
export function restoredMode(b: FileBackup): { mode: number; uid?: number; gid?: number } {
  const owned = b.uid !== undefined && b.gid !== undefined;
  return {
    mode: (b.mode ?? 0o644) & 0o777,
    ...(owned && { uid: b.uid as number, gid: b.gid as number }),
  };
}

/**
 * `written` is the hash the repair left there: content equal to it (or already equal to the
 * backup) is ours to replace; anything else is someone else's and is saved before the restore.
 */
export async function restoreFile(
  b: FileBackup,
  written: string | null | undefined,
  ctx: RevertContext,
): Promise<RevertOutcome> {
  const out: RevertOutcome = { restored: [], conflicts: [], errors: [] };
  const cur = await ctx.fs.read(b.path);
  const curSha = cur === null ? null : sha256(cur);
  if (curSha === b.sha256) return out;
  if (cur !== null && curSha !== written)
    out.conflicts.push({ path: b.path, savedAs: await ctx.saveConflict(b.path, cur) });
  if (b.sha256 === null || b.file === null) {
    await ctx.fs.remove(b.path);
  } else {
    const data = await ctx.readBackup(b.file);
    if (sha256(data) !== b.sha256) {
      out.errors.push(`backup of ${b.path} is damaged (hash mismatch); left the file as it is`);
      return out;
    }
    await ctx.fs.writeAtomic(b.path, data, restoredMode(b));
  }
  out.restored.push(b.path);
  return out;
}
