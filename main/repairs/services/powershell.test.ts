import { describe, expect, it } from 'vitest';
import { cmdletScript, scriptPowerShellRunner } from './powershell';
import type { PowerShellCmdlet } from '../../../shared/model/repair';

describe('allow-listed PowerShell', () => {
  it('passes parameters as base64 JSON data, never as script text', () => {
    const s = cmdletScript('New-HnsNetwork', {
      Type: 'NAT',
      Name: "nat'; Remove-Item C:\\ -Recurse; '",
      AddressPrefix: '10.0.0.0/24',
    });
    expect(s).not.toContain('Remove-Item');
    expect(s).toMatch(
      /^\$in = \[Text\.Encoding\]::UTF8\.GetString\(\[Convert\]::FromBase64String\('[A-Za-z0-9+/=]+'\)\) \| ConvertFrom-Json$/m,
    );
    expect(s).toContain("if ($step -ceq 'New-HnsNetwork')");
    const b64 = /FromBase64String\('([^']+)'\)/.exec(s)?.[1] as string;
    expect(JSON.parse(Buffer.from(b64, 'base64').toString('utf8'))).toMatchObject({
      cmdlet: 'New-HnsNetwork',
      params: { Type: 'NAT', AddressPrefix: '10.0.0.0/24' },
    });
  });

  it('refuses cmdlets and parameter names outside the allow-list', () => {
    expect(() => cmdletScript('Invoke-Expression' as PowerShellCmdlet, {})).toThrow(
      /not an allowed cmdlet/,
    );
    expect(() => cmdletScript('Restart-Service', { 'Name; rm': 'x' })).toThrow(
      /invalid parameter name/,
    );
  });

  it('runs through a script runner and reports failures', async () => {
    const seen: string[] = [];
    const ps = scriptPowerShellRunner({
      run: async (script) => {
        seen.push(script);
        return script.includes('# cni-doctor: one allow-listed repair step')
          ? { ok: false, message: 'Access is denied' }
          : { ok: true, stdout: 'Running\n' };
      },
    });
    expect(await ps.run('Restart-Service', { Name: 'containerd', Force: true })).toEqual({
      ok: false,
      output: '',
      error: 'Access is denied',
    });
    expect(await ps.serviceStatus('containerd')).toBe('Running');
    expect(seen[1]).not.toContain('containerd');
  });
});
