import { describe, expect, it } from 'vitest';
import { connectScript, PowerShellRemotingRunner } from './powershell-remoting';
import type { ShellLookup } from './remoting-shell';
import { MAX_SECRET_BYTES } from './credential-pipe';

function dataOf(script: string): Record<string, unknown> {
  const b64 = /FromBase64String\('([A-Za-z0-9+/=]+)'\)/.exec(script)?.[1] ?? '';
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Record<string, unknown>;
}

const windows: ShellLookup = {
  platform: 'win32',
  env: {},
  home: 'C:\\Users\\u',
  exists: () => true,
};

describe('the remote session script', () => {
  it('winrm: -ComputerName, and -Credential from USER and a SecureString read off the pipe (review L3)', () => {
    const cred = { pipe: '/tmp/x/s', nonce: 'ab12' };
    const s = connectScript({ kind: 'winrm', host: 'win-1', user: 'Administrator' }, {}, cred);
    expect(s).toMatch(/\$p\.ComputerName = /);
    expect(s).toMatch(/PSCredential \(\[string\]\$c\.user, \$secure\)/);
    expect(s).toMatch(/NamedPipeClientStream/);
    expect(s).toContain(`New-Object byte[] ${MAX_SECRET_BYTES}`);
    // Never plain text turned into a SecureString in the script (script block logging).
    expect(s).not.toMatch(/ConvertTo-SecureString|AsPlainText/);
    expect(s).not.toMatch(/HostName|KeyFilePath/);
    expect(dataOf(s)).toMatchObject({ kind: 'winrm', user: 'Administrator', cred });
    expect(dataOf(s)).not.toHaveProperty('password');
  });

  it('pssession: the SSH parameter set, marked as PowerShell 7 only; never a password', () => {
    const s = connectScript(
      { kind: 'pssession', host: 'win-1', user: 'admin' },
      {},
      { pipe: 'p', nonce: 'n' },
    );
    expect(s).toMatch(/# cni-doctor: PowerShell 7 only/);
    expect(s).toMatch(/\$p\.HostName = /);
    expect(s).not.toMatch(/ComputerName|Credential/);
    expect(dataOf(s)).not.toHaveProperty('password');
    expect(dataOf(s)).not.toHaveProperty('cred');
  });

  it("asks the node's language mode right after the session opens (review B5)", () => {
    const s = connectScript({ kind: 'winrm', host: 'win-1' });
    const open = s.indexOf('New-PSSession @p');
    const probe = s.indexOf('$ExecutionContext.SessionState.LanguageMode');
    expect(open).toBeGreaterThan(0);
    expect(probe).toBeGreaterThan(open);
    expect(s).toMatch(/throw \('cni-doctor-language=' \+ \$mode\)/);
  });
});

describe('PowerShellRemotingRunner', () => {
  it('winrm with USER@ and nobody to ask the password: one clear reason, nothing started', async () => {
    const r = new PowerShellRemotingRunner(
      { kind: 'winrm', host: 'win-1', user: 'Administrator' },
      { shellLookup: windows, executable: '/nonexistent/powershell' },
    );
    const c = await r.connect();
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.message).toMatch(/needs Administrator's password/);
    await r.dispose();
  });

  it('winrm with USER@: the password is asked once, with the user and host in the prompt', async () => {
    const prompts: string[] = [];
    const r = new PowerShellRemotingRunner(
      { kind: 'winrm', host: 'win-1', user: 'Administrator' },
      {
        shellLookup: windows,
        executable: '/nonexistent/powershell',
        password: (p) => {
          prompts.push(p);
          return Promise.resolve(undefined);
        },
      },
    );
    const c = await r.connect();
    expect(prompts).toEqual(['Password for Administrator@win-1: ']);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.message).toBe('no password given');
    await r.dispose();
  });

  it('winrm from Linux: refused before any shell starts', async () => {
    const r = new PowerShellRemotingRunner(
      { kind: 'winrm', host: 'win-1' },
      { shellLookup: { ...windows, platform: 'linux' } },
    );
    expect(r.refusal).toMatch(/no working WSMan client/);
    const c = await r.connect();
    expect(c.ok).toBe(false);
    await r.dispose();
  });
});
