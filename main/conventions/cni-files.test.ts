import { afterEach, describe, expect, it, vi } from 'vitest';
import { byteOrder } from './cni-files';

const encoded = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// Units on both sides of every boundary that matters: ASCII, two- and three-byte UTF-8, the
// private use area above the surrogates, a pair (four bytes) and lone surrogates (U+FFFD).
const UNITS = [
  'a',
  'b',
  '-',
  '0',
  'é',
  'ÿ',
  '\u0800',
  '\ud7ff',
  '\ue000',
  '\uffff',
  '\ud83d\ude00',
  '\ud800',
  '\udc00',
];

function randomName(next: () => number): string {
  let s = '';
  const len = Math.floor(next() * 5);
  for (let i = 0; i < len; i++) s += UNITS[Math.floor(next() * UNITS.length)];
  return s;
}

afterEach(() => vi.restoreAllMocks());

describe('byteOrder', () => {
  it("orders names as Go's sort.Strings orders their UTF-8 bytes", () => {
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20000; i++) {
      const a = randomName(next);
      const b = next() < 0.3 ? a + randomName(next) : randomName(next);
      expect(byteOrder(a, b), JSON.stringify([a, b])).toBe(encoded(a, b));
      expect(byteOrder(b, a), JSON.stringify([b, a])).toBe(encoded(b, a));
    }
    // U+E000 sorts before a pair in UTF-8 (EE < F0), after it in UTF-16 (E000 > D83D).
    expect(['\ud83d\ude00', '\ue000'].sort(byteOrder)).toEqual(['\ue000', '\ud83d\ude00']);
  });

  it('sorts a conf dir of plain names without encoding any of them', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `${(i * 7919) % 2000}-net.conflist`);
    const from = vi.spyOn(Buffer, 'from');
    const sorted = [...names].sort(byteOrder);
    expect(from).not.toHaveBeenCalled();
    from.mockRestore();
    expect(sorted).toEqual([...names].sort(encoded));
  });
});
