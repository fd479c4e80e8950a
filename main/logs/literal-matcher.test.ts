import { describe, expect, it } from 'vitest';
import { LiteralMatcher, NAIVE_BYTES } from './literal-matcher';

/** Reference: every (start, literal) occurrence found naively, as sorted "start:index" strings. */
function naive(text: Buffer, literals: string[], from: number, to: number): string[] {
  const out: string[] = [];
  literals.forEach((l, li) => {
    const needle = Buffer.from(l);
    if (needle.length === 0) return;
    for (let i = from; i + needle.length <= to; i++) {
      if (text.subarray(i, i + needle.length).equals(needle)) out.push(`${i}:${li}`);
    }
  });
  return out.sort();
}

function found(m: LiteralMatcher, text: Buffer, from: number, to: number): string[] {
  const pairs: number[] = [];
  m.search(text, from, to, pairs);
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push(`${pairs[i]}:${pairs[i + 1]}`);
  return out.sort();
}

// Deterministic PRNG so failures reproduce.
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

/** Every test below runs twice: tables from the first search, and indexOf per literal. */
describe.each([
  ['with tables', 0],
  ['without tables', NAIVE_BYTES],
])('LiteralMatcher %s', (_, budget) => {
  const make = (lits: string[]) => new LiteralMatcher(lits, budget);

  it('finds overlapping and adjacent occurrences, at the range edges', () => {
    const lits = ['abcabc', 'bcab', 'cabcab'];
    const text = Buffer.from('abcabcabcabc xx abcabc');
    const m = make(lits);
    expect(found(m, text, 0, text.length)).toEqual(naive(text, lits, 0, text.length));
    expect(found(m, text, 3, 12)).toEqual(naive(text, lits, 3, 12));
  });

  it('never reports an occurrence that crosses the range', () => {
    const m = make(['needle-long']);
    const text = Buffer.from('xxneedle-longyy');
    expect(found(m, text, 0, 12)).toEqual([]);
    expect(found(m, text, 3, 15)).toEqual([]);
    expect(found(m, text, 2, 13)).toEqual(['2:0']);
  });

  it('handles literals of one and two bytes and non-ASCII literals', () => {
    const lits = ['x', 'yz', 'über-long', '…end'];
    const text = Buffer.from('xyz über-long …end x');
    const m = make(lits);
    expect(found(m, text, 0, text.length)).toEqual(naive(text, lits, 0, text.length));
  });

  it('agrees with a naive search on random text and literals', () => {
    const rand = rng(42);
    const alphabet = 'ab c"=\n\\:';
    const pick = (n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const lits = Array.from({ length: 1 + Math.floor(rand() * 6) }, () =>
        pick(1 + Math.floor(rand() * 12)),
      );
      const text = Buffer.from(pick(Math.floor(rand() * 400)));
      const from = Math.floor(rand() * 20);
      const to = Math.max(from, text.length - Math.floor(rand() * 20));
      const m = make(lits);
      expect([round, found(m, text, from, to)]).toEqual([round, naive(text, lits, from, to)]);
    }
  });

  it('copes with no literals and with empty ranges', () => {
    const m = make([]);
    expect(found(m, Buffer.from('anything'), 0, 8)).toEqual([]);
    const m2 = make(['', 'abc']);
    expect(found(m2, Buffer.from('abc'), 0, 0)).toEqual([]);
    expect(found(m2, Buffer.from('abc'), 0, 3)).toEqual(['0:1']);
  });
});

describe('LiteralMatcher tables', () => {
  it('are built only once NAIVE_BYTES of text were searched, and find the same', () => {
    const lits = ['NetworkPluginNotReady', 'failed to load cni', 'cni0', 'xy'];
    const line = Buffer.from('E1205 kubelet NetworkPluginNotReady: failed to load cni xy cni0\n');
    const text = Buffer.concat(Array.from({ length: 800 }, () => line));
    const m = new LiteralMatcher(lits);
    expect(found(m, text, 0, line.length)).toEqual(naive(text, lits, 0, line.length));
    expect(m.tablesBuilt).toBe(false);
    let at = line.length;
    while (at + line.length <= text.length && !m.tablesBuilt) {
      expect(found(m, text, at, at + line.length)).toEqual(naive(text, lits, at, at + line.length));
      at += line.length;
    }
    expect(m.tablesBuilt).toBe(true);
    expect(at).toBeGreaterThan(NAIVE_BYTES - 2 * line.length);
    expect(at).toBeLessThanOrEqual(NAIVE_BYTES + line.length);
    expect(found(m, text, 0, text.length)).toEqual(naive(text, lits, 0, text.length));
  });

  it('a first search larger than NAIVE_BYTES builds them at once', () => {
    const text = Buffer.alloc(NAIVE_BYTES + 10, 'a');
    const m = new LiteralMatcher(['aaaa', 'b']);
    const pairs: number[] = [];
    m.search(text, 0, text.length, pairs);
    expect(m.tablesBuilt).toBe(true);
    expect(pairs.length / 2).toBe(text.length - 3);
  });
});
