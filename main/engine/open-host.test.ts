import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openHost, UsageError } from './open-host';

describe('openHost --root', () => {
  // A missing root used to scan as an empty node: "No findings", exit 0.
  it('refuses a root that does not exist or is not a directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'open-host-'));
    try {
      writeFileSync(path.join(dir, 'file'), '');
      await expect(openHost({ root: path.join(dir, 'missing') })).rejects.toThrow(UsageError);
      await expect(openHost({ root: path.join(dir, 'file') })).rejects.toThrow(
        /is not a directory/,
      );
      await expect(openHost({ root: dir })).resolves.toMatchObject({ source: 'live' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
