/** toml-set / toml-remove / toml-remove-element: lowered to a write against the expected file. */
import { sha256 } from '../hash';
import { lowerTomlStep, type TomlStep } from './toml-lower';
import { checkExpected, runWrite, writeExecutor } from './write';
import { StepConflict, type StepExecutor } from './types';

export const tomlExecutor: StepExecutor<TomlStep> = {
  describe: (s) => `Edit ${s.keyPath.join('.')} in ${s.path}`,
  touches: (s) => [s.path],
  precheck: (s, ctx) => checkExpected(ctx.fs, s.path, s.expectedSha256),
  async run(s, ctx) {
    const cur = await ctx.fs.read(s.path);
    if (cur === null || sha256(cur) !== s.expectedSha256)
      throw new StepConflict(`${s.path} changed since the plan was made`);
    const lowered = lowerTomlStep(s, cur.toString('utf8'));
    if (!lowered.ok) throw new Error(lowered.reason);
    return { resultSha256: await runWrite(lowered.step, ctx) };
  },
  revert: (s, js, ctx) =>
    writeExecutor.revert(
      {
        kind: 'write',
        path: s.path,
        content: '',
        expectedSha256: s.expectedSha256,
        needsElevation: s.needsElevation,
      },
      js,
      ctx,
    ),
  async changedSince(s, js, fs) {
    const cur = await fs.read(s.path);
    return cur !== null && sha256(cur) === js.resultSha256
      ? null
      : `${s.path} changed since the repair wrote it`;
  },
};
