/**
 * The only way a repair runs PowerShell: one allow-listed cmdlet, parameters passed as data
 * (base64 JSON, main/host/windows/build-repair-script.ts), never interpolated into script text. Runs on any script runner with
 * the shape of main/host/windows' PowerShellSession.
 */
import {
  POWERSHELL_CMDLETS,
  type PowerShellCmdlet,
  type PowerShellParam,
} from '../../../shared/model/repair';
import { buildRepairScript } from '../../host/windows/build-repair-script';

export interface PowerShellResult {
  ok: boolean;
  output: string;
  error?: string;
}

export interface PowerShellRunner {
  run(cmdlet: PowerShellCmdlet, params: Record<string, PowerShellParam>): Promise<PowerShellResult>;
  /** A Windows service's Status ('Running', 'Stopped', …); undefined when it does not exist. */
  serviceStatus(name: string): Promise<string | undefined>;
}

/** Structural twin of main/host/windows ScriptRunner (kept local: no dependency on its internals). */
export interface ScriptRunnerLike {
  run(
    script: string,
    opts: { deadlineMs: number },
  ): Promise<{ ok: true; stdout: string } | { ok: false; message: string }>;
}

export function assertPowerShellCall(
  cmdlet: string,
  params: Record<string, unknown>,
): asserts cmdlet is PowerShellCmdlet {
  if (!(POWERSHELL_CMDLETS as readonly string[]).includes(cmdlet))
    throw new Error(`"${cmdlet}" is not an allowed cmdlet`);
  for (const [k, v] of Object.entries(params)) {
    if (!/^[A-Za-z][A-Za-z0-9]{0,63}$/.test(k)) throw new Error(`invalid parameter name "${k}"`);
    const ok =
      typeof v === 'string' ||
      typeof v === 'number' ||
      typeof v === 'boolean' ||
      (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!ok) throw new Error(`parameter ${k} has an unsupported type`);
  }
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v), 'utf8').toString('base64');

/**
 * The step's script: repair-step.ps1 with `{ cmdlet, params }` as its base64 payload. Each
 * cmdlet is a fixed branch there (built-in Remove-HnsEndpoint takes objects, not IDs, and there
 * is no built-in New-HnsNetwork, so a splat onto the cmdlet name could not do these steps).
 */
export function cmdletScript(
  cmdlet: PowerShellCmdlet,
  params: Record<string, PowerShellParam>,
): string {
  assertPowerShellCall(cmdlet, params);
  return buildRepairScript(cmdlet, params);
}

export function scriptPowerShellRunner(
  runner: ScriptRunnerLike,
  deadlineMs = 120_000,
): PowerShellRunner {
  return {
    async run(cmdlet, params) {
      const r = await runner.run(cmdletScript(cmdlet, params), { deadlineMs });
      return r.ok ? { ok: true, output: r.stdout } : { ok: false, output: '', error: r.message };
    },
    async serviceStatus(name) {
      // -Name takes wildcards and also matches a display name: only the service of exactly this
      // name counts (as repair-step.ps1's Get-ExactService).
      const script = `$n = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${b64(name)}')) | ConvertFrom-Json\n$s = @(Get-Service -Name $n -ErrorAction SilentlyContinue | Where-Object { $_.Name -ieq $n })\nif ($s.Count -eq 1) { [string]$s[0].Status }`;
      const r = await runner.run(script, { deadlineMs: 30_000 });
      const out = r.ok ? r.stdout.trim() : '';
      return out === '' ? undefined : out;
    },
  };
}
