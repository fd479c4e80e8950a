/**
 * powershell: one allow-listed cmdlet with typed parameters. Forward-only: HNS objects have no
 * backup, so a rollback reports the step instead of pretending to undo it.
 */
import type { PowerShellStep } from '../../../shared/model/repair';
import { assertPowerShellCall } from '../services/powershell';
import type { StepExecutor } from './types';

const show = (v: unknown): string => (Array.isArray(v) ? v.join(',') : String(v));

export const powershellExecutor: StepExecutor<PowerShellStep> = {
  describe: (s) => s.description ?? `Run ${s.cmdlet} ${Object.entries(s.params).map(([k, v]) => `-${k} ${show(v)}`).join(' ')}`,
  touches: () => [],
  precheck: async (s, ctx) => {
    assertPowerShellCall(s.cmdlet, s.params);
    if (!ctx.powershell) throw new Error('PowerShell is not available to this engine');
  },
  async run(s, ctx) {
    if (!ctx.powershell) throw new Error('PowerShell is not available to this engine');
    const r = await ctx.powershell.run(s.cmdlet, s.params);
    if (!r.ok) throw new Error(`${s.cmdlet} failed: ${r.error ?? r.output}`);
    return {};
  },
  revert: async (s) => ({ restored: [], conflicts: [], errors: [`${s.cmdlet} cannot be undone automatically`] }),
  changedSince: async () => null,
};
