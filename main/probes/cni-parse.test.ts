import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCniConfig, wantsFolder } from './cni-parse';

const CONFLIST = JSON.stringify({
  cniVersion: '1.0.0',
  name: 'net',
  plugins: [
    { type: 'bridge', ipam: { type: 'host-local', ranges: [[{ subnet: '10.1.0.0/16' }]] } },
    { type: 'portmap', capabilities: { portMappings: true } },
  ],
});

afterEach(() => vi.restoreAllMocks());

describe('parseCniConfig of one text under every libcni generation', () => {
  it('decodes the text once, and each generation gets its own answer', () => {
    const fresh = (['1.1', '1.2', '1.3'] as const).map((gen) =>
      parseCniConfig(CONFLIST, '.conflist', {
        gen,
        folder: { ok: true, plugins: [] },
      }),
    );
    const parse = vi.spyOn(JSON, 'parse');
    const text = `${CONFLIST}\n`;
    expect(wantsFolder(text)).toBe('net');
    const got = (['1.1', '1.2', '1.3'] as const).map((gen) =>
      parseCniConfig(text, '.conflist', { gen, folder: { ok: true, plugins: [] } }),
    );
    // wantsFolder and the three generations read the same bytes: one JSON.parse.
    expect(parse).toHaveBeenCalledTimes(1);
    expect(got).toEqual(fresh);
    // Answers share no objects: a caller changing one cannot change another.
    const [a, b] = got;
    if (!a?.ok || !b?.ok) throw new Error('expected valid parses');
    expect(a.plugins[0]).not.toBe(b.plugins[0]);
  });
});
