import { describe, expect, it } from 'vitest';
import { SESSION_INIT_SCRIPT } from './session-init';

describe('the session init script', () => {
  it("puts PowerShell 7's module folder on the path only in PowerShell 7 (review C6)", () => {
    const line = SESSION_INIT_SCRIPT.split('\n').find((l) => l.startsWith('$env:PSModulePath = '));
    expect(line).toBeDefined();
    expect(line).toMatch(
      /if \(\$PSVersionTable\.PSEdition -eq 'Core'\) \{ "\$env:ProgramFiles\\PowerShell\\Modules" \}/,
    );
    // Windows PowerShell's own folders stay, after $PSHOME.
    expect(line).toMatch(/^\$env:PSModulePath = @\(@\("\$PSHOME\\Modules"\)/);
    expect(line).toContain('"$env:SystemRoot\\System32\\WindowsPowerShell\\v1.0\\Modules"');
  });
});
