import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** Counts the JavaScript CRC-32's calls (it stays the fallback before Node 20.15). */
const jsCrc = vi.hoisted(() => ({ calls: 0 }));
vi.mock('./crc32', async (load) => {
  const real = await load<typeof import('./crc32')>();
  return {
    crc32: (d: Uint8Array): number => {
      jsCrc.calls++;
      return real.crc32(d);
    },
  };
});

const { readCache, writeCache } = await import('./code-cache');
const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-crc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('code cache checksum', () => {
  it.skipIf(!('crc32' in zlib))(
    'is zlib’s native CRC-32: a start hashes no cache in JavaScript',
    () => {
      const payload = Buffer.alloc(1024 * 1024, 7);
      writeCache(dir, 'cli-0123456789abcdef-test-scan.v8cache', payload);
      expect(readCache(join(dir, 'cli-0123456789abcdef-test-scan.v8cache'))?.equals(payload)).toBe(
        true,
      );
      expect(jsCrc.calls).toBe(0);
    },
  );
});
