/** rename: one rename(2) plus directory fsync; reverted by renaming back. */
import type { RenameStep } from '../../../shared/model/repair';
import { basenameNode, dirnameNode } from '../../host/paths';
import { sha256 } from '../hash';
import { restoreFile } from './restore';
import { backupFor, StepConflict, type RevertOutcome, type StepExecutor } from './types';

const sameDir = (a: string, b: string): boolean =>
  dirnameNode('linux', a.replace(/\\/g, '/')) === dirnameNode('linux', b.replace(/\\/g, '/'));

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
