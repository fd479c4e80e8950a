/** rename: one rename(2) plus directory fsync; reverted by renaming back. */
import type { JournalStep, RenameStep } from '../../../shared/model/repair';
import { basenameNode, dirnameNode } from '../../conventions/node-paths';
import { sha256 } from '../hash';
import { restoreFile } from './restore';
import {
  backupFor,
  StepConflict,
  type RevertContext,
  type RevertOutcome,
  type StepExecutor,
} from './types';

const sameDir = (a: string, b: string): boolean =>
  dirnameNode('linux', a.replace(/\\/g, '/')) === dirnameNode('linux', b.replace(/\\/g, '/'));

/** Why the file now at `to` is not the one this entry's rename put there, or null. */
async function notOurs(s: RenameStep, js: JournalStep, ctx: RevertContext): Promise<string | null> {
  const bFrom = backupFor(js, s.from);
  const bTo = backupFor(js, s.to);
  if (!bFrom || !bTo) return 'the journal has no record of both names before the rename';
  if (bTo.file !== null) return `${s.to} existed before the repair`;
  const cur = await ctx.fs.read(s.to).catch(() => null);
  const curSha = cur === null ? null : sha256(cur);
  if (js.resultSha256 != null && curSha !== js.resultSha256)
    return `${s.to} is not the file the repair renamed (its content differs)`;
  if (bFrom.sha256 !== null && curSha !== bFrom.sha256)
    return `${s.to} does not hold what ${s.from} held before the repair`;
  return null;
}

export const renameExecutor: StepExecutor<RenameStep> = {
  describe: (s) =>
    sameDir(s.from, s.to)
      ? `Rename ${s.from} to ${basenameNode('linux', s.to.replace(/\\/g, '/'))}`
      : `Move ${s.from} to ${s.to}`,
  touches: (s) => [s.from, s.to],
  async precheck(s, ctx) {
    if ((await ctx.fs.stat(s.from)) === null) throw new StepConflict(`${s.from} no longer exists`);
    if ((await ctx.fs.stat(s.to)) !== null)
      throw new StepConflict(`${s.to} exists now; a repair never overwrites a file`);
  },
  async run(s, ctx) {
    await ctx.fs.rename(s.from, s.to);
    const moved = await ctx.fs.read(s.to);
    return { resultSha256: moved === null ? null : sha256(moved) };
  },
  async revert(s, js, ctx): Promise<RevertOutcome> {
    const out: RevertOutcome = { restored: [], conflicts: [], errors: [] };
    const fromThere = (await ctx.fs.stat(s.from)) !== null;
    const toThere = (await ctx.fs.stat(s.to)) !== null;
    if (fromThere && !toThere) return out; // never renamed, or already back
    if (!fromThere && toThere) {
      // Only undo a rename this entry made: `to` did not exist before it (its backup says so)
      // and holds what `from` held. Anything else is someone else's file, left where it is.
      const why = await notOurs(s, js, ctx);
      if (why) return { ...out, errors: [`not renaming ${s.to} back to ${s.from}: ${why}`] };
      await ctx.fs.rename(s.to, s.from);
      out.restored.push(s.from);
      return out;
    }
    if (!fromThere && !toThere) {
      // Both gone (someone removed the renamed file): bring the original back from the backup.
      const b = backupFor(js, s.from);
      return b
        ? restoreFile(b, null, ctx)
        : { ...out, errors: [`${s.from} and ${s.to} are both gone and no backup exists`] };
    }
    out.errors.push(`both ${s.from} and ${s.to} exist; not renaming back over ${s.from}`);
    return out;
  },
  async changedSince(s, js, fs) {
    if ((await fs.stat(s.from)) !== null) return `${s.from} exists again`;
    const cur = await fs.read(s.to);
    if (cur === null) return `${s.to} no longer exists`;
    return js.resultSha256 && sha256(cur) !== js.resultSha256
      ? `${s.to} changed since the repair renamed it`
      : null;
  },
};
