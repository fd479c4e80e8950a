/**
 * Builds the exact text a repair step hands to the shell: the same one-line payload as the
 * collection (build-script.ts), holding `{ cmdlet, params }` as base64 JSON, then repair-step.ps1
 * unchanged. Names, prefixes and IDs exist in the text only inside that single-quoted base64
 * literal, whose alphabet has no quote, so no value can end the literal and become code
 * (node-powershell's own interpolation does not escape: docs/knowledge/windows-node.md#node-powershell).
 */
import type { PowerShellCmdlet, PowerShellParam } from '../../../shared/model/repair';
import { PAYLOAD_LINE_PREFIX, PAYLOAD_LINE_SUFFIX } from './build-script';
import { validateRepairStep } from './repair-step-input';
import { REPAIR_STEP_PS1 } from './scripts/repair-step-ps1';

const TEMPLATE_MARK = '# cni-doctor: one allow-listed repair step';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function repairTemplate(): string {
  return REPAIR_STEP_PS1;
}

export function buildRepairScript(
  cmdlet: PowerShellCmdlet,
  params: Record<string, PowerShellParam>,
  template: string = repairTemplate(),
): string {
  const problems = validateRepairStep(cmdlet, params);
  if (problems.length > 0) throw new Error(`${cmdlet} refused: ${problems.join('; ')}`);
  const body = template.charCodeAt(0) === 0xfeff ? template.slice(1) : template;
  if (!body.startsWith(TEMPLATE_MARK)) throw new Error('not the repair-step.ps1 template');
  const b64 = Buffer.from(JSON.stringify({ cmdlet, params }), 'utf8').toString('base64');
  if (!BASE64.test(b64)) throw new Error('base64 encoding produced an unexpected character');
  return `${PAYLOAD_LINE_PREFIX}${b64}${PAYLOAD_LINE_SUFFIX}\n${body.replace(/\r\n/g, '\n')}`;
}

/** The JSON line repair-step.ps1 prints (what was done), or undefined when there is none. */
export function parseRepairOutput(stdout: string): Record<string, unknown> | undefined {
  for (const line of stdout.split(/\r?\n/).reverse()) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const v: unknown = JSON.parse(t);
      if (typeof v === 'object' && v !== null && !Array.isArray(v))
        return v as Record<string, unknown>;
    } catch {
      // not the result line
    }
  }
  return undefined;
}
