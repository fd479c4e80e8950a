/**
 * What each allow-listed repair step accepts (repair-step.ps1 checks the same again on the node).
 * A value that fails here never reaches a shell: the parameters are data either way, but a step
 * must not be asked to do something other than what its preview said (a wildcard service name,
 * an endpoint named by pattern, a network other than NAT).
 */
import type { PowerShellCmdlet, PowerShellParam } from '../../../shared/model/repair';
import { POWERSHELL_CMDLETS } from '../../../shared/model/repair';

export const GUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const SERVICE = /^[A-Za-z0-9][A-Za-z0-9@._-]{0,127}$/;
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
export const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);
export const IPV4_PREFIX = new RegExp(`^${OCTET}(\\.${OCTET}){3}/([0-9]|[12][0-9]|3[0-2])$`);
const MAX_ENDPOINTS = 10_000;

type Params = Record<string, PowerShellParam>;

const strings = (v: PowerShellParam | undefined): string[] | undefined =>
  v === undefined ? [] : typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;

function only(params: Params, allowed: readonly string[], problems: string[]): void {
  for (const k of Object.keys(params))
    if (!allowed.includes(k)) problems.push(`unexpected parameter -${k}`);
}

/** Problems with a step, empty when it may be sent. */
export function validateRepairStep(cmdlet: string, params: Params): string[] {
  const problems: string[] = [];
  if (!(POWERSHELL_CMDLETS as readonly string[]).includes(cmdlet))
    return [`"${cmdlet}" is not an allowed step`];
  switch (cmdlet as PowerShellCmdlet) {
    case 'New-HnsNetwork': {
      only(params, ['Type', 'Name', 'AddressPrefix', 'Gateway'], problems);
      if (params.Type !== 'NAT') problems.push('-Type must be NAT');
      const name = params.Name;
      // Any text a CNI config could name, quotes and newlines included: it travels as data. NUL
      // is the one character Windows strings cannot carry.
      if (typeof name !== 'string' || name.length === 0 || name.length > 128 || name.includes('\0'))
        problems.push('-Name must be 1-128 characters without NUL');
      const prefixes = strings(params.AddressPrefix);
      const gateways = strings(params.Gateway);
      if (!prefixes || prefixes.some((p) => !IPV4_PREFIX.test(p)))
        problems.push('-AddressPrefix must be IPv4 prefixes (a.b.c.d/n)');
      if (!gateways || gateways.some((g) => !IPV4.test(g)))
        problems.push('-Gateway must be IPv4 addresses');
      if (prefixes && gateways && gateways.length > prefixes.length)
        problems.push('a -Gateway needs an -AddressPrefix');
      break;
    }
    case 'Remove-HnsNetwork':
      only(params, ['Id', 'Name'], problems);
      if (typeof params.Id !== 'string' || !GUID.test(params.Id))
        problems.push('-Id must be one network ID (a GUID)');
      if (typeof params.Name !== 'string' || params.Name === '' || params.Name.includes('\0'))
        problems.push('-Name must name the network');
      break;
    case 'Remove-HnsEndpoint': {
      only(params, ['Id'], problems);
      const ids = params.Id;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_ENDPOINTS)
        problems.push(`-Id must list 1-${MAX_ENDPOINTS} endpoint IDs`);
      else if (ids.some((id) => !GUID.test(id)))
        problems.push('-Id must hold endpoint IDs (GUIDs) only, never names or patterns');
      else if (new Set(ids.map((id) => id.toLowerCase())).size !== ids.length)
        problems.push('-Id lists an endpoint twice');
      break;
    }
    case 'Start-Service':
    case 'Restart-Service':
      only(params, cmdlet === 'Restart-Service' ? ['Name', 'Force'] : ['Name'], problems);
      if (typeof params.Name !== 'string' || !SERVICE.test(params.Name))
        problems.push('-Name must be one service name (no wildcards)');
      if (params.Force !== undefined && typeof params.Force !== 'boolean')
        problems.push('-Force is a switch');
      break;
  }
  return problems;
}
