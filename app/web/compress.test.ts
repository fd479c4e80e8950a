import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encode, pickEncoding } from './compress';

describe('pickEncoding', () => {
  it('prefers br, then gzip, and honours q=0 refusals', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
  });
});

describe('encode', () => {
  it('round-trips large bodies and leaves small ones alone', async () => {
    const big = Buffer.from(JSON.stringify({ rows: Array.from({ length: 5000 }, (_, i) => i) }));
    const br = await encode(big, 'br');
    expect(br.length).toBeLessThan(big.length);
    expect(brotliDecompressSync(br).equals(big)).toBe(true);
    expect(gunzipSync(await encode(big, 'gzip')).equals(big)).toBe(true);
    const small = Buffer.from('{"ok":true}');
    expect(await encode(small, 'br')).toBe(small);
  });
});
