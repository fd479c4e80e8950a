import { describe, expect, it } from 'vitest';
import { Header } from 'tar';
import { plainUstarHeader } from './ustar-header';

function tarLib(
  path: string,
  type: 'File' | 'Directory',
  size: number,
  mode: number,
  mtime: Date,
): Buffer {
  const h = new Header({ path, mode, size, mtime, type });
  expect(h.encode(), `${path} needs a PAX record`).toBe(false);
  if (!h.block) throw new Error('no block');
  return h.block;
}

describe('plainUstarHeader', () => {
  it('writes what the tar package writes, for every path length, size and both types', () => {
    // Two times, and the types in turn: headers share their fields through a template.
    for (const mtime of [new Date(1_733_200_000_123), new Date(1_200_000_000_999)])
      for (let len = 1; len <= 99; len++) {
        const path = `files/${'abcdefghij-_.'.repeat(10)}`.slice(0, len);
        for (const size of [0, 1, 511, 512, 300_123, 67_108_864, 8 ** 10 - 1]) {
          for (const [type, mode] of [
            ['File', 0o600],
            ['Directory', 0o700],
          ] as const) {
            const p = type === 'Directory' && len < 99 ? `${path}/` : path;
            const mine = plainUstarHeader(p, type, size, mode, mtime);
            expect(mine?.equals(tarLib(p, type, size, mode, mtime)), `${p} ${size}`).toBe(true);
          }
        }
      }
  });

  it('leaves long, non-ASCII and oversized entries to the tar package', () => {
    const mtime = new Date();
    expect(plainUstarHeader('x'.repeat(100), 'File', 1, 0o600, mtime)).toBeUndefined();
    expect(plainUstarHeader('files/ünï', 'File', 1, 0o600, mtime)).toBeUndefined();
    expect(plainUstarHeader('files/a\nb', 'File', 1, 0o600, mtime)).toBeUndefined();
    expect(plainUstarHeader('files/a', 'File', 8 ** 10, 0o600, mtime)).toBeUndefined();
  });
});
