import { describe, expect, it } from 'vitest';
import { ADMIN_CHECK_SCRIPT, isWindowsAdmin } from './elevation';
import { parsePowerShell } from './testing/ps-parser';

describe('isWindowsAdmin', () => {
  it('is true only when the shell says True', async () => {
    const answer = (stdout: string) => ({ run: async () => ({ ok: true as const, stdout }) });
    expect(await isWindowsAdmin(answer('True\r\n'))).toBe(true);
    expect(await isWindowsAdmin(answer('False\r\n'))).toBe(false);
    expect(
      await isWindowsAdmin({
        run: async () => ({ ok: false as const, kind: 'exit' as const, message: 'no shell' }),
      }),
    ).toBe(false);
  });

  it('asks with valid PowerShell', async () => {
    expect((await parsePowerShell(ADMIN_CHECK_SCRIPT)).problems).toEqual([]);
  });
});
