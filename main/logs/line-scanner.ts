// The byte-level core of the log scanner: splits UTF-8 bytes into lines, counts them, and runs a
// signature's RegExp only on lines that contain that signature's literal.
//
// Work is done on Buffers. Whole lines inside a chunk are never copied or decoded unless a
// literal hit lands on them; only the line that straddles two chunks is copied, into a carry
// buffer that never grows beyond maxLineBytes, so memory is bounded whatever the input.
import { LiteralMatcher } from './literal-matcher';
import { MatchStore } from './match-store';
import type { LogMatch, LogScanOptions, LogSignature } from './types';

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024;
export const DEFAULT_MAX_MATCHES_PER_SIGNATURE = 50;
const MAX_TEXT_CHARS = 2000;
/** Enough bytes to always decode to at least MAX_TEXT_CHARS UTF-16 units (<= 4 bytes each). */
const MAX_TEXT_BYTES = 4 * MAX_TEXT_CHARS;
const MAX_HITS_PER_LINE = 16;
const REGEX_TAIL_BYTES = 2048;
const NL = 0x0a;
const CR = 0x0d;

export interface LineScanTotals {
  matches: LogMatch[];
  lines: number;
  truncatedLines: number;
  droppedMatches: number;
}

function capText(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  // Do not cut a surrogate pair in half.
  const code = text.charCodeAt(MAX_TEXT_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? MAX_TEXT_CHARS - 1 : MAX_TEXT_CHARS;
  return text.slice(0, end);
}

function compile(pattern: string): RegExp | undefined {
  try {
    // 's': in grep -E '.' matches any character of the line; without the flag JS's '.' would
    // stop at a stray '\r' or U+2028 inside a line.
    return new RegExp(pattern, 's');
  } catch {
    // A caller-supplied pattern that does not compile never matches rather than aborting a scan.
    return undefined;
  }
}

export class LineScanner {
  private readonly path: string;
  private readonly maxLineBytes: number;
  private readonly regexes: (RegExp | undefined)[];
  private readonly signatureIds: string[];
  private readonly matcher: LiteralMatcher;
  /** For each distinct literal, the signatures (ascending catalog index) that use it. */
  private readonly sigsByLiteral: number[][];
  /** Signatures with an empty literal: every line is a candidate for them. */
  private readonly unfiltered: number[];
  private readonly store: MatchStore;

  private carry: Buffer = Buffer.alloc(256);
  private carryLen = 0;
  /** Bytes of the unfinished line seen so far, including any beyond maxLineBytes. */
  private partialBytes = 0;
  private partialLastByte = -1;
  private lines = 0;
  private truncated = 0;
  private readonly hits: number[] = [];
  /** Per signature: the line number it was last tested on, so a line is tested once per signature. */
  private readonly testedOn: Float64Array;

  constructor(signatures: readonly LogSignature[], path: string, opts: LogScanOptions = {}) {
    this.path = path;
    const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxLineBytes =
      Number.isFinite(maxLine) && maxLine >= 1 ? Math.floor(maxLine) : DEFAULT_MAX_LINE_BYTES;
    const limit = opts.maxMatchesPerSignature;
    this.store = new MatchStore(
      signatures.length,
      limit === undefined || Number.isNaN(limit) ? DEFAULT_MAX_MATCHES_PER_SIGNATURE : limit,
    );
    this.regexes = signatures.map((s) => compile(s.pattern));
    this.signatureIds = signatures.map((s) => s.id);
    this.testedOn = new Float64Array(signatures.length).fill(-1);

    const literalIndex = new Map<string, number>();
    this.sigsByLiteral = [];
    this.unfiltered = [];
    signatures.forEach((s, i) => {
      if (s.literal.length === 0) {
        this.unfiltered.push(i);
        return;
      }
      let li = literalIndex.get(s.literal);
      if (li === undefined) {
        li = literalIndex.size;
        literalIndex.set(s.literal, li);
        this.sigsByLiteral.push([]);
      }
      (this.sigsByLiteral[li] as number[]).push(i);
    });
    this.matcher = LiteralMatcher.for([...literalIndex.keys()]);
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const firstNl = buf.indexOf(NL);
    if (firstNl === -1) {
      this.appendCarry(buf, 0, buf.length);
      return;
    }
    let regionStart = 0;
    if (this.partialBytes > 0) {
      // The line that began in an earlier chunk ends here.
      this.appendCarry(buf, 0, firstNl);
      this.finishCarryLine();
      regionStart = firstNl + 1;
    }
    const lastNl = buf.lastIndexOf(NL);
    if (lastNl >= regionStart) this.scanRegion(buf, regionStart, lastNl + 1);
    if (lastNl + 1 < buf.length) this.appendCarry(buf, lastNl + 1, buf.length);
  }

  finish(): LineScanTotals {
    if (this.partialBytes > 0) this.finishCarryLine();
    return {
      matches: this.store.matches(),
      lines: this.lines,
      truncatedLines: this.truncated,
      droppedMatches: this.store.dropped,
    };
  }

  private appendCarry(buf: Buffer, from: number, to: number): void {
    if (to <= from) return;
    const take = Math.min(this.maxLineBytes - this.carryLen, to - from);
    if (take > 0) {
      if (this.carryLen + take > this.carry.length) {
        const grown = Buffer.alloc(
          Math.min(this.maxLineBytes, Math.max(this.carry.length * 2, this.carryLen + take)),
        );
        this.carry.copy(grown, 0, 0, this.carryLen);
        this.carry = grown;
      }
      buf.copy(this.carry, this.carryLen, from, from + take);
      this.carryLen += take;
    }
    this.partialBytes += to - from;
    this.partialLastByte = buf[to - 1] as number;
  }

  private finishCarryLine(): void {
    const lineNo = ++this.lines;
    const cr = this.partialLastByte === CR ? 1 : 0;
    if (this.partialBytes - cr > this.maxLineBytes) this.truncated++;
    // Drop the CR of a CRLF only when it is actually in the carried bytes (line not cut short).
    const len = this.carryLen === this.partialBytes ? this.carryLen - cr : this.carryLen;
    this.carryLen = 0;
    this.partialBytes = 0;
    this.hits.length = 0;
    this.matcher.search(this.carry, 0, len, this.hits);
    if (this.hits.length > 2) sortPairs(this.hits);
    if (this.hits.length > 0 || this.unfiltered.length > 0)
      this.testLine(this.carry, 0, len, lineNo, 0, this.hits.length);
  }

  /** [start, end) holds complete lines; buf[end - 1] is '\n'. */
  private scanRegion(buf: Buffer, start: number, end: number): void {
    const hits = this.hits;
    hits.length = 0;
    this.matcher.search(buf, start, end, hits);
    if (hits.length > 2) sortPairs(hits);
    this.walkLines(buf, start, end, hits.length > 0 || this.unfiltered.length > 0);
  }

  /**
   * Count every line in [start, end) and note over-long ones. While `test` is set, run the
   * RegExps on lines holding a literal hit (this.hits, sorted by position), or on every line
   * when some signature has no literal.
   */
  private walkLines(buf: Buffer, start: number, end: number, test: boolean): void {
    const hits = this.hits;
    const max = this.maxLineBytes;
    const everyLine = this.unfiltered.length > 0;
    let h = 0;
    let lineStart = start;
    while (lineStart < end) {
      // The region ends with '\n', so this always finds one inside it.
      const nl = buf.indexOf(NL, lineStart);
      const lineEnd = nl > lineStart && buf[nl - 1] === CR ? nl - 1 : nl;
      const lineNo = ++this.lines;
      if (lineEnd - lineStart > max) this.truncated++;
      if (test) {
        const firstHit = h;
        while (h < hits.length && (hits[h] as number) < nl) h += 2;
        if (h > firstHit || everyLine) this.testLine(buf, lineStart, lineEnd, lineNo, firstHit, h);
        else if (h >= hits.length) test = false; // nothing left to test: just count from here on
      }
      lineStart = nl + 1;
    }
  }

  /**
   * Run the RegExps of the signatures whose literals were found in this line (hits[from..to)),
   * or of every signature without a literal. Only the first maxLineBytes bytes of a line count.
   */
  private testLine(
    buf: Buffer,
    lineStart: number,
    lineEnd: number,
    lineNo: number,
    from: number,
    to: number,
  ): void {
    const cap = Math.min(lineEnd, lineStart + this.maxLineBytes);
    const candidates: number[] = [...this.unfiltered];
    for (let i = from; i < to; i += 2) {
      const pos = this.hits[i] as number;
      const li = this.hits[i + 1] as number;
      const sigs = this.sigsByLiteral[li] as number[];
      if (pos + this.matcher.literalLength(li) > cap) continue;
      for (const s of sigs) {
        if (this.testedOn[s] === lineNo) continue;
        this.testedOn[s] = lineNo;
        candidates.push(s);
      }
    }
    if (candidates.length === 0) return;
    candidates.sort((a, b) => a - b);
    const text = buf.toString('utf8', lineStart, this.regexEnd(cap, from, to));
    let kept: string | undefined;
    for (const s of candidates) {
      const re = this.regexes[s];
      if (re === undefined || !re.test(text)) continue;
      kept ??= capText(buf.toString('utf8', lineStart, Math.min(cap, lineStart + MAX_TEXT_BYTES)));
      this.store.add(s, {
        signatureId: this.signatureIds[s] as string,
        path: this.path,
        line: lineNo,
        text: kept,
      });
    }
  }

  /**
   * Where the RegExp input ends. A pattern like `A.*B` costs V8 (occurrences of A) x (line
   * length) when B is absent, so a crafted 64 KiB line repeating A could take ~0.25 s. Lines
   * with more than MAX_HITS_PER_LINE literal hits are matched only up to REGEX_TAIL_BYTES past
   * the hit after those; real log lines never come close.
   */
  private regexEnd(cap: number, from: number, to: number): number {
    if ((to - from) / 2 <= MAX_HITS_PER_LINE) return cap;
    return Math.min(cap, (this.hits[from + 2 * MAX_HITS_PER_LINE] as number) + REGEX_TAIL_BYTES);
  }
}

/** Sort (position, literal) pairs by position, in place. */
function sortPairs(pairs: number[]): void {
  const idx: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) idx.push(i);
  idx.sort((a, b) => (pairs[a] as number) - (pairs[b] as number));
  const copy = pairs.slice();
  idx.forEach((src, k) => {
    pairs[2 * k] = copy[src] as number;
    pairs[2 * k + 1] = copy[src + 1] as number;
  });
}
