/**
 * winrm:USER@HOST's password, main side, with the real local pwsh 7. There is no WinRM client on
 * Linux, and the product refuses winrm: here before anything starts (remoting-shell.ts; tested in
 * open-windows-target.test.ts), so this tests the layer below that refusal: the runner is told
 * the workstation is Windows and given pwsh as its shell, and a stand-in New-PSSession (run in
 * the local shell, as New-PSSession would be) reports what -Credential carried.
 *
 * The shell is started through a wrapper that records its arguments, its environment and every
 * byte written to its stdin: the password must be in none of them, in no error, and it must reach
 * New-PSSession as a read-only SecureString of exactly the typed characters.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pwshPath, psQuote } from '../../host/windows/testing/pwsh';
import { PowerShellRemotingRunner } from './powershell-remoting';
import type { ShellLookup } from './remoting-shell';
import { STAND_IN_NEW_PSSESSION } from './testing/stand-in-winrm';

const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-cred-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const windows: ShellLookup = {
  platform: 'win32',
  env: {},
  home: 'C:\\Users\\u',
  exists: () => true,
};

/** pwsh behind a wrapper that keeps a copy of its argv, environment and stdin. */
function recordingShell(name: string): { exe: string; seen: () => string } {
  const exe = join(dir, `${name}.sh`);
  const log = join(dir, `${name}.log`);
  writeFileSync(
    exe,
    `#!/bin/sh\nprintf '%s\\n' "$@" >> ${psQuote(log)}\nenv >> ${psQuote(log)}\ntee -a ${psQuote(log)} | exec ${psQuote(pwshPath())} "$@"\n`,
  );
  chmodSync(exe, 0o755);
  return { exe, seen: () => readFileSync(log, 'utf8') };
}

/** The text and every base64 literal inside it, decoded again and again (scripts nest). */
function unwrapped(text: string, depth = 3): string {
  if (depth === 0) return text;
  const inner = [...text.matchAll(/'([A-Za-z0-9+/]{16,}={0,2})'/g)].map((m) =>
    unwrapped(Buffer.from(m[1] ?? '', 'base64').toString('utf8'), depth - 1),
  );
  return [text, ...inner].join('\n');
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

describe('winrm:USER@HOST: the password reaches New-PSSession as a SecureString, and only there', () => {
  it.each([
    ['ascii', 'Tr0ub4dor&3'],
    ['non-ASCII, quotes, spaces', `pä'ss "wörd" €$x`],
  ])(
    '%s',
    async (name, password) => {
      const shell = recordingShell(name.replace(/\W/g, ''));
      const prompts: string[] = [];
      const r = new PowerShellRemotingRunner(
        { kind: 'winrm', host: 'win-node-1', user: 'Administrator' },
        {
          shellLookup: windows,
          executable: shell.exe,
          localInit: STAND_IN_NEW_PSSESSION,
          // A ceiling for the local pwsh's start under CI's load, not a measure (30 s by default).
          startDeadlineMs: 180_000,
          password: (p) => {
            prompts.push(p);
            return Promise.resolve(password);
          },
        },
      );
      try {
        const c = await r.connect();
        expect(prompts).toEqual(['Password for Administrator@win-node-1: ']);
        expect(c.ok).toBe(false);
        const message = c.ok ? '' : c.message;
        expect(message).toContain('stand-in New-PSSession: ComputerName=win-node-1');
        expect(message).toContain('user=Administrator');
        expect(message).toContain('type=System.Security.SecureString readonly=True');
        expect(message).toContain(`sha256=${sha256(password)}`);
        expect(message).not.toContain(password);
        const seen = shell.seen();
        // The recording saw the session's traffic (the scripts travel as base64 lines).
        expect(seen).toContain('FromBase64String');
        expect(unwrapped(seen)).not.toContain(password);
        // The unwrapping works: the connect script's own data is found in it.
        expect(unwrapped(seen)).toContain('"host":"win-node-1"');
        for (const enc of ['base64', 'hex'] as const)
          expect(seen).not.toContain(Buffer.from(password, 'utf8').toString(enc));
      } finally {
        await r.dispose();
      }
    },
    400_000,
  );
});
