import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';

const zlibCrc = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;

describe('crc32', () => {
  it('is the standard CRC-32 (check value of "123456789")', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });

  it.skipIf(!zlibCrc)('agrees with zlib.crc32 on random data of every small length', () => {
    for (let n = 0; n < 300; n++) {
      const d = randomBytes(n * 37);
      expect(crc32(d)).toBe(zlibCrc?.(d));
    }
  });
});
