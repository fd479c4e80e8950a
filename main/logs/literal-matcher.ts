// Finds every occurrence of a set of byte literals in a buffer range in a single pass.
//
// Why not Buffer.indexOf per literal: with ~60 literals that reads the data ~60 times (measured
// ~3 s for 200 MB). This is a Wu-Manber search: a window of m bytes slides over the text and a
// table keyed by the window's last 3 bytes says how far it may jump; only when the table says 0
// are the literals ending there compared byte by byte. With m around 14 it touches roughly one
// byte in ten.
//
// Literals shorter than 3 bytes cannot use the 3-byte table; they fall back to Buffer.indexOf.
//
// The tables (1.25 MiB, filled) take 1.3-2 ms to build, more than a small scan spends on all its
// logs: a matcher searches with Buffer.indexOf per literal until it has searched NAIVE_BYTES of
// text, and builds the tables at the first search past that. Both find the same occurrences.

const GRAM = 3;
const TABLE_BITS = 18;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** Longer windows give longer jumps but fewer choices of where to anchor; 64 is plenty. */
const MAX_WINDOW = 64;
/**
 * Text searched one literal at a time before the tables are built: 62 literals over 32 KiB take
 * about 0.45 ms of Buffer.indexOf, a third of building the tables. A real node's logs are far
 * more than this and pass it at their first chunk.
 */
export const NAIVE_BYTES = 32 * 1024;

function gramHash(b: Uint8Array, end: number): number {
  return (
    (((b[end - 2] as number) << 10) ^ ((b[end - 1] as number) << 5) ^ (b[end] as number)) &
    TABLE_MASK
  );
}

/**
 * Rough probability of a byte in log text. Used only to pick which part of a long literal to
 * key the table on (rare bytes mean fewer false candidates); results never depend on it.
 */
function byteWeight(c: number): number {
  if (c === 0x20) return 0.12;
  if (c >= 0x61 && c <= 0x7a) return 0.03;
  if (c >= 0x30 && c <= 0x39) return 0.01;
  if (
    c === 0x22 ||
    c === 0x3d ||
    c === 0x2e ||
    c === 0x3a ||
    c === 0x2d ||
    c === 0x2f ||
    c === 0x5f
  )
    return 0.015;
  if (c >= 0x41 && c <= 0x5a) return 0.004;
  return 0.002;
}

/** byteWeight of every byte, looked up (the matcher is built at start-up, before V8 warms up). */
const BYTE_WEIGHT = Float64Array.from({ length: 256 }, (_, c) => byteWeight(c));

function gramWeight(b: Uint8Array, end: number): number {
  return (
    (BYTE_WEIGHT[b[end - 2] as number] as number) *
    (BYTE_WEIGHT[b[end - 1] as number] as number) *
    (BYTE_WEIGHT[b[end] as number] as number)
  );
}

/** Building the tables takes a few ms; scans of many small files reuse them. */
const cache = new Map<string, LiteralMatcher>();
const CACHE_SIZE = 8;

export class LiteralMatcher {
  /** A shared matcher for this exact literal list (its results never change; its tables come later). */
  static for(literals: readonly string[]): LiteralMatcher {
    const key = JSON.stringify(literals);
    let m = cache.get(key);
    if (m === undefined) {
      m = new LiteralMatcher(literals);
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(key, m);
    }
    return m;
  }

  private readonly literals: Buffer[];
  private readonly shortIdx: number[] = [];
  /** The literals of GRAM bytes or more, searched through the tables once they are built. */
  private readonly longIdx: number[] = [];
  /** Bytes searched so far without the tables. */
  private naiveBytes = 0;
  private tables: Tables | undefined;

  /**
   * Empty literals are ignored (they would match everywhere; the caller handles that case).
   * `naiveBudget`: text searched without the tables (0: tables from the first search).
   */
  constructor(
    literals: readonly string[],
    private readonly naiveBudget = NAIVE_BYTES,
  ) {
    this.literals = literals.map((l) => Buffer.from(l, 'utf8'));
    this.literals.forEach((lit, i) => {
      if (lit.length >= GRAM) this.longIdx.push(i);
      else if (lit.length > 0) this.shortIdx.push(i);
    });
  }

  /** True once the Wu-Manber tables exist (past naiveBudget bytes of text). */
  get tablesBuilt(): boolean {
    return this.tables !== undefined;
  }

  private buildTables(): Tables {
    const { literals, longIdx } = this;
    const m = Math.min(MAX_WINDOW, ...longIdx.map((i) => (literals[i] as Uint8Array).length));
    const next = new Int32Array(longIdx.length);
    const entryLiteral = new Int32Array(longIdx.length);
    const windowStart = new Int32Array(literals.length);
    const maxShift = m - GRAM + 1;
    const shift = new Uint8Array(1 << TABLE_BITS).fill(maxShift);
    const heads = new Int32Array(1 << TABLE_BITS).fill(-1);
    longIdx.forEach((li, entry) => {
      const lit = literals[li] as Uint8Array;
      const k = this.pickWindow(lit, m, maxShift);
      windowStart[li] = k;
      for (let j = GRAM - 1; j < m; j++) {
        const h = gramHash(lit, k + j);
        const s = m - 1 - j;
        if (s < (shift[h] as number)) shift[h] = s;
      }
      const h = gramHash(lit, k + m - 1);
      entryLiteral[entry] = li;
      next[entry] = heads[h] as number;
      heads[h] = entry;
    });
    return { m, shift, heads, next, entryLiteral, windowStart };
  }

  /** Choose the m-byte slice of a literal whose 3-grams are least likely in ordinary log text. */
  private pickWindow(lit: Uint8Array, m: number, maxShift: number): number {
    // Each gram's weight once (the windows overlap), and each position's factor once: the same
    // products summed in the same order as weighing every window's grams afresh.
    const weights = new Float64Array(lit.length);
    for (let i = GRAM - 1; i < lit.length; i++) weights[i] = gramWeight(lit, i);
    const factors = new Float64Array(m);
    for (let j = GRAM - 1; j < m; j++) {
      const s = m - 1 - j;
      // A gram with a short jump slows every place it occurs; the last gram (jump 0) also
      // costs a literal comparison, weighted as ten probes.
      factors[j] = s === 0 ? 10 + maxShift : maxShift - s;
    }
    let best = 0;
    let bestCost = Infinity;
    for (let k = 0; k + m <= lit.length; k++) {
      let cost = 0;
      for (let j = GRAM - 1; j < m; j++)
        cost += (weights[k + j] as number) * (factors[j] as number);
      if (cost < bestCost) {
        bestCost = cost;
        best = k;
      }
    }
    return best;
  }

  literalLength(index: number): number {
    return (this.literals[index] as Uint8Array).length;
  }

  /**
   * Push (start, literalIndex) pairs for every occurrence lying entirely inside [from, to).
   * Pairs are not sorted.
   */
  search(buf: Buffer, from: number, to: number, out: number[]): void {
    if (to <= from) return;
    if (this.longIdx.length > 0) {
      if (this.tables === undefined && this.naiveBytes + (to - from) <= this.naiveBudget) {
        this.naiveBytes += to - from;
        eachOccurrence(buf, from, to, this.longIdx, this.literals, out);
      } else {
        this.tables ??= this.buildTables();
        this.searchLong(this.tables, buf, from, to, out);
      }
    }
    eachOccurrence(buf, from, to, this.shortIdx, this.literals, out);
  }

  private searchLong(tables: Tables, buf: Buffer, from: number, to: number, out: number[]): void {
    const { m, shift, heads, next, entryLiteral, windowStart } = tables;
    const literals = this.literals;
    let pos = from + m - 1;
    while (pos < to) {
      const h =
        ((buf[pos - 2] as number) << 10) ^ ((buf[pos - 1] as number) << 5) ^ (buf[pos] as number);
      const s = shift[h] as number;
      if (s !== 0) {
        pos += s;
        continue;
      }
      for (let e = heads[h] as number; e !== -1; e = next[e] as number) {
        const li = entryLiteral[e] as number;
        const lit = literals[li] as Uint8Array;
        const start = pos - m + 1 - (windowStart[li] as number);
        const len = lit.length;
        if (start < from || start + len > to) continue;
        let k = 0;
        while (k < len && buf[start + k] === lit[k]) k++;
        if (k === len) out.push(start, li);
      }
      pos++;
    }
  }
}

interface Tables {
  /** Window length: the shortest long literal, at most MAX_WINDOW. */
  m: number;
  shift: Uint8Array;
  heads: Int32Array;
  next: Int32Array;
  entryLiteral: Int32Array;
  /** Offset inside each literal where its m-byte window starts. */
  windowStart: Int32Array;
}

/** Push (start, i) for every occurrence in [from, to) of needles[i], i in `indices`. */
function eachOccurrence(
  buf: Buffer,
  from: number,
  to: number,
  indices: readonly number[],
  needles: readonly Buffer[],
  out: number[],
): void {
  if (indices.length === 0) return;
  const view = buf.subarray(from, to);
  for (let q = 0; q < indices.length; q++) {
    const li = indices[q] as number;
    const needle = needles[li] as Buffer;
    for (let i = view.indexOf(needle); i !== -1; i = view.indexOf(needle, i + 1))
      out.push(from + i, li);
  }
}
