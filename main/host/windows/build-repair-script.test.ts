/**
 * The exact text a repair step hands to the shell: every value only inside the one base64
 * literal, and the whole text valid PowerShell (tree-sitter-powershell; no PowerShell here).
 */
import { describe, expect, it } from 'vitest';
import type { PowerShellCmdlet, PowerShellParam } from '../../../shared/model/repair';
import { PAYLOAD_LINE_PREFIX, PAYLOAD_LINE_SUFFIX } from './build-script';
import { buildRepairScript, parseRepairOutput, repairTemplate } from './build-repair-script';
import { toShellCommand, fromShellCommand } from './shell-command';
import { parsePowerShell, stringLiterals } from './testing/ps-parser';

const HOSTILE_NAMES = [
  "nat'; Remove-Item -Recurse C:\\ ; '",
  'nat"; Stop-Computer; "',
  'na`t`$x `n',
  'nat$(Stop-Computer)',
  'nat; Remove-Item x',
  'nat\nRemove-Item x\r\nStop-Computer',
  "'); Stop-Computer; ('",
  '@"\nhere\n"@',
  'ünïcødé ☃ 筛选平台 🚀',
];

const ID_A = '5e6298c2-4638-494e-be6b-ff6fef942c06';
const ID_B = 'C9385412-BDEF-49F5-88B0-C9D484EF6716';

const STEPS: [PowerShellCmdlet, Record<string, PowerShellParam>][] = [
  ...HOSTILE_NAMES.map((Name): [PowerShellCmdlet, Record<string, PowerShellParam>] => [
    'New-HnsNetwork',
    { Type: 'NAT', Name, AddressPrefix: '172.29.144.0/20', Gateway: '172.29.144.1' },
  ]),
  ...HOSTILE_NAMES.map((Name): [PowerShellCmdlet, Record<string, PowerShellParam>] => [
    'Remove-HnsNetwork',
    { Id: ID_A, Name },
  ]),
  ['Remove-HnsEndpoint', { Id: [ID_A, ID_B] }],
  ['Start-Service', { Name: 'ovs-vswitchd' }],
  ['Restart-Service', { Name: 'antrea-agent', Force: true }],
];

function payloadOf(script: string): string {
  const first = script.slice(0, script.indexOf('\n'));
  expect(first.startsWith(PAYLOAD_LINE_PREFIX) && first.endsWith(PAYLOAD_LINE_SUFFIX)).toBe(true);
  return first.slice(PAYLOAD_LINE_PREFIX.length, -PAYLOAD_LINE_SUFFIX.length);
}

describe('the exact repair-step text handed to the shell', () => {
  it.each(STEPS.map(([c, p]) => [`${c} ${JSON.stringify(p)}`, c, p] as const))(
    '%s: values only inside the base64 literal',
    async (_label, cmdlet, params) => {
      const script = buildRepairScript(cmdlet, params);
      const b64 = payloadOf(script);
      expect(b64).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      expect(JSON.parse(Buffer.from(b64, 'base64').toString('utf8'))).toEqual({ cmdlet, params });

      // The rest of the text is the template, byte for byte: no value was spliced into it.
      expect(script.slice(script.indexOf('\n') + 1)).toBe(repairTemplate());
      const rest = script.replace(b64, '');
      for (const v of Object.values(params).flat()) {
        if (typeof v !== 'string' || ['NAT', 'ovs-vswitchd', 'antrea-agent'].includes(v)) continue;
        expect(rest.includes(v), `${JSON.stringify(v)} outside the literal`).toBe(false);
      }
      expect(rest).not.toMatch(/Stop-Computer|Remove-Item/);

      // The first line holds exactly one string literal, the base64 text.
      const { root } = await parsePowerShell(script.slice(0, script.indexOf('\n')));
      expect(stringLiterals(root).map((n) => n.text)).toEqual([`'${b64}'`]);
    },
  );

  it('parses without error nodes, as built and as the one line the session sends', async () => {
    for (const [cmdlet, params] of STEPS) {
      const script = buildRepairScript(cmdlet, params);
      expect((await parsePowerShell(script)).problems).toEqual([]);
      const line = toShellCommand(script);
      expect(line).toMatch(/^[\x20-\x7e]+$/);
      const parsed = await parsePowerShell(line);
      expect(parsed.problems).toEqual([]);
      expect(stringLiterals(parsed.root)).toHaveLength(1);
      expect(fromShellCommand(line)).toBe(script);
    }
  });

  it('refuses steps that would do something other than what the preview said', () => {
    const refused: [string, Record<string, PowerShellParam>][] = [
      ['New-HnsNetwork', { Type: 'Transparent', Name: 'x' }],
      ['New-HnsNetwork', { Type: 'NAT', Name: '' }],
      ['New-HnsNetwork', { Type: 'NAT', Name: 'a\0b' }],
      ['New-HnsNetwork', { Type: 'NAT', Name: 'nat', AddressPrefix: '10.0.0.0/33' }],
      ['New-HnsNetwork', { Type: 'NAT', Name: 'nat', AddressPrefix: '$(x)' }],
      ['New-HnsNetwork', { Type: 'NAT', Name: 'nat', Gateway: '10.0.0.1' }],
      ['New-HnsNetwork', { Type: 'NAT', Name: 'nat', AdapterName: 'Ethernet' }],
      ['Remove-HnsEndpoint', { Id: [] }],
      ['Remove-HnsEndpoint', { Id: ['*_nat'] }],
      ['Remove-HnsEndpoint', { Id: ID_A }],
      ['Remove-HnsEndpoint', { Id: [ID_A, ID_A.toUpperCase()] }],
      ['Remove-HnsNetwork', { Id: 'nat', Name: 'nat' }],
      ['Start-Service', { Name: 'antrea*' }],
      ['Restart-Service', { Name: "x'; Stop-Computer" }],
      ['Invoke-Expression', { Command: 'x' }],
    ];
    for (const [cmdlet, params] of refused)
      expect(
        () => buildRepairScript(cmdlet as PowerShellCmdlet, params),
        `${cmdlet} ${JSON.stringify(params)}`,
      ).toThrow(/refused|allowed/);
  });

  it('reads the result line the script prints', () => {
    expect(
      parseRepairOutput('WARNING: x\n{"step":"New-HnsNetwork","id":"1","name":"nat"}\r\n'),
    ).toEqual({ step: 'New-HnsNetwork', id: '1', name: 'nat' });
    expect(parseRepairOutput('nothing')).toBeUndefined();
  });
});
