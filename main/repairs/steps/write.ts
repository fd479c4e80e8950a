/** write: atomic replace/create, checked against the hash the plan was computed from. */
import type { WriteStep } from '../../../shared/model/repair';
import { sha256 } from '../hash';
import { restoreFile } from './restore';
import { backupFor, noRevert, StepConflict, type StepContext, type StepExecutor } from './types';
import type { NodeFs } from '../node-fs';

export async function checkExpected(
  fs: NodeFs,
  path: string,
  expected: string | null,
): Promise<void> {
  const cur = await fs.read(path);
  if (expected === null && cur !== null)
    throw new StepConflict(`${path} appeared since the plan was made`);
  if (expected !== null && (cur === null || sha256(cur) !== expected))
    throw new StepConflict(`${path} changed since the plan was made`);
}

export async function runWrite(
  step: Pick<WriteStep, 'path' | 'content' | 'mode' | 'tempDir'>,
  ctx: StepContext,
): Promise<string> {
  const st = await ctx.fs.stat(step.path, true);
  await ctx.fs.writeAtomic(step.path, step.content, {
    mode: st?.mode ?? step.mode ?? 0o644,
    // Keep the owner of the file being replaced (a rename gives the temp file's owner).
    ...(st && { uid: st.uid, gid: st.gid }),
    ...(step.tempDir !== undefined && { tempDir: step.tempDir }),
    beforeRename: () => ctx.boundary('temp-written'),
  });
  return sha256(step.content);
}

export const writeExecutor: StepExecutor<WriteStep> = {
  describe: (s) =>
    s.expectedSha256 === null
      ? `Create ${s.path}`
      : `Edit ${s.path} (atomic replace; every other byte unchanged)`,
  touches: (s) => [s.path],
  precheck: (s, ctx) => checkExpected(ctx.fs, s.path, s.expectedSha256),
  async run(s, ctx) {
    return { resultSha256: await runWrite(s, ctx) };
  },
  async revert(s, js, ctx) {
    const b = backupFor(js, s.path);
    return b ? restoreFile(b, js.resultSha256 ?? sha256(s.content), ctx) : noRevert();
  },
  async changedSince(s, js, fs) {
    const cur = await fs.read(s.path);
    const want = js.resultSha256 ?? sha256(s.content);
    return cur !== null && sha256(cur) === want
      ? null
      : `${s.path} changed since the repair wrote it`;
  },
};
