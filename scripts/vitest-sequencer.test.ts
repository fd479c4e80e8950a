import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST, longestFirst } from './vitest-sequencer';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('longest-first test order', () => {
  it('names only test files that exist (a renamed file would silently lose its place)', () => {
    const missing = LONGEST_FIRST.filter((f) => !existsSync(path.join(ROOT, f)));
    expect(missing).toEqual([]);
  });

  it('starts the named files first in the listed order and keeps the others as given', () => {
    const given = [
      '/repo/shared/a.test.ts',
      `/repo/${LONGEST_FIRST[2]}`,
      '/repo/main/b.test.ts',
      `/repo/${LONGEST_FIRST[0]}`,
      '/repo/main/c.test.ts',
    ];
    expect(longestFirst(given, (f) => f)).toEqual([
      `/repo/${LONGEST_FIRST[0]}`,
      `/repo/${LONGEST_FIRST[2]}`,
      '/repo/shared/a.test.ts',
      '/repo/main/b.test.ts',
      '/repo/main/c.test.ts',
    ]);
  });

  it('does not mistake a file whose name only ends the same for a named one', () => {
    const lookalike = `/repo/x${LONGEST_FIRST[0]}`;
    expect(longestFirst(['/repo/a.test.ts', lookalike], (f) => f)).toEqual([
      '/repo/a.test.ts',
      lookalike,
    ]);
  });
});
