/**
 * powershell: one allow-listed cmdlet with typed parameters. HNS objects have no backup, so
 * each cmdlet says what undoing it means:
 * - New-HnsNetwork: the step records the ID of the network it created; undo removes exactly that
 *   network (Remove-HnsNetwork by ID, refused on the node if its name changed).
 * - Start-Service / Restart-Service: nothing to put back (the rollback restarts services itself).
 * - Remove-HnsEndpoint (and Remove-HnsNetwork): cannot be undone — HNS keeps no copy of a removed
 *   object — and the revert says so instead of pretending.
 */
import type { PowerShellStep } from '../../../shared/model/repair';
import { parseRepairOutput } from '../../host/windows/build-repair-script';
import { GUID } from '../../host/windows/repair-step-input';
import { assertPowerShellCall } from '../services/powershell';
import { noRevert, type RevertOutcome, type StepExecutor } from './types';

const show = (v: unknown): string => (Array.isArray(v) ? v.join(',') : String(v));
const failed = (error: string): RevertOutcome => ({ restored: [], conflicts: [], errors: [error] });

export const powershellExecutor: StepExecutor<PowerShellStep> = {
  describe: (s) =>
    s.description ??
    `Run ${s.cmdlet} ${Object.entries(s.params)
      .map(([k, v]) => `-${k} ${show(v)}`)
      .join(' ')}`,
  touches: () => [],
  precheck: async (s, ctx) => {
    assertPowerShellCall(s.cmdlet, s.params);
    if (!ctx.powershell) throw new Error('PowerShell is not available to this engine');
  },
  async run(s, ctx) {
    if (!ctx.powershell) throw new Error('PowerShell is not available to this engine');
    const r = await ctx.powershell.run(s.cmdlet, s.params);
    if (!r.ok) throw new Error(`${s.cmdlet} failed: ${r.error ?? r.output}`);
    if (s.cmdlet !== 'New-HnsNetwork') return {};
    const id = parseRepairOutput(r.output)?.id;
    return typeof id === 'string' && GUID.test(id) ? { resultSha256: id } : {};
  },
  async revert(s, js, ctx) {
    switch (s.cmdlet) {
      case 'Start-Service':
      case 'Restart-Service':
        return noRevert();
      case 'New-HnsNetwork': {
        const name = String(s.params.Name);
        const id = js.resultSha256;
        if (typeof id !== 'string') {
          // A step that failed created nothing (repair-step.ps1 throws before or at the POST);
          // one interrupted mid-way may have: that is for a person to check, not to guess.
          return js.error !== undefined
            ? noRevert()
            : failed(
                `the HNS network "${name}" may have been created before the interruption; check Get-HnsNetwork and remove it by hand if it is not wanted`,
              );
        }
        if (!ctx.powershell)
          return failed(`PowerShell is not available to remove the HNS network "${name}" (${id})`);
        const r = await ctx.powershell.run('Remove-HnsNetwork', { Id: id, Name: name });
        return r.ok
          ? noRevert()
          : failed(`removing the HNS network "${name}" (${id}) failed: ${r.error ?? r.output}`);
      }
      default:
        return failed(`${s.cmdlet} cannot be undone: HNS keeps no copy of what it removed`);
    }
  },
  changedSince: async () => null,
};
