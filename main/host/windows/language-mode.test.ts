/**
 * The language-mode probe (review B5): a node in ConstrainedLanguage is refused with one reason
 * before any shell starts (stand-in shell), and the real PowerShell 7 shows why the probe must be
 * plain text: in ConstrainedLanguage it answers, while the one-line transport every script uses is
 * refused.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGE_PROBE, languageModeFrom } from './language-mode';
import { PowerShellSession } from './powershell-session';
import { toShellCommand } from './shell-command';
import { pwshPath } from './testing/pwsh';

const FAKE = fileURLToPath(new URL('./testing/fake-pwsh.mjs', import.meta.url));
const saved = process.env.FAKE_PWSH_LANGUAGE;
/**
 * Ceilings for a shell to start and answer, not measures: a second here, but a real-pwsh case
 * timed out at load 25 with its old 60 s, and CI runs the unit tests beside the lab and the UI.
 */
const CEILING_MS = 60_000;
afterEach(() => {
  if (saved === undefined) delete process.env.FAKE_PWSH_LANGUAGE;
  else process.env.FAKE_PWSH_LANGUAGE = saved;
});

describe('language mode', () => {
  it(
    'a ConstrainedLanguage node: one clear reason, and no shell was started',
    async () => {
      chmodSync(FAKE, 0o755);
      process.env.FAKE_PWSH_LANGUAGE = 'ConstrainedLanguage';
      const s = new PowerShellSession({
        executable: FAKE,
        startDeadlineMs: CEILING_MS,
        languageProbe: 'This Windows node',
      });
      try {
        const r = await s.run("Write-Output 'hello'", { deadlineMs: CEILING_MS });
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.message).toMatch(
            /^This Windows node runs PowerShell in ConstrainedLanguage mode/,
          );
          expect(r.message).toMatch(/AppLocker or WDAC/);
          expect(r.message).toMatch(/Nothing was run/);
        }
        expect(s.shellsStarted).toBe(0);
      } finally {
        await s.dispose();
      }
    },
    3 * CEILING_MS,
  );

  it(
    'a FullLanguage node runs as before (the probe is asked once)',
    async () => {
      chmodSync(FAKE, 0o755);
      process.env.FAKE_PWSH_LANGUAGE = 'FullLanguage';
      const s = new PowerShellSession({
        executable: FAKE,
        startDeadlineMs: CEILING_MS,
        languageProbe: 'This Windows node',
      });
      try {
        expect(await s.run("Write-Output 'hello'", { deadlineMs: CEILING_MS })).toMatchObject({
          ok: true,
          stdout: 'hello',
        });
        expect(s.shellsStarted).toBe(1);
      } finally {
        await s.dispose();
      }
    },
    3 * CEILING_MS,
  );

  it(
    'real pwsh in ConstrainedLanguage: the probe answers, the transport line is refused',
    () => {
      const transport = toShellCommand("[Console]::Out.Write('ran')");
      const q = (t: string): string => `'${t.replace(/'/g, "''")}'`;
      const script = [
        "$ExecutionContext.SessionState.LanguageMode = 'ConstrainedLanguage'",
        `Invoke-Expression ${q(LANGUAGE_PROBE)}`,
        `try { Invoke-Expression ${q(transport)} } catch { 'refused: ' + $_ }`,
      ].join('\n');
      const out = execFileSync(
        pwshPath(),
        ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', script],
        {
          encoding: 'utf8',
          env: { ...process.env, TERM: 'dumb', NO_COLOR: '1' },
          timeout: 4 * CEILING_MS,
        },
      );
      expect(languageModeFrom(out)).toBe('ConstrainedLanguage');
      expect(out).toMatch(/refused: .*(language mode|core types)/);
      expect(out).not.toMatch(/\bran\b/);
    },
    5 * CEILING_MS,
  );
});
