import { afterEach, describe, expect, it, vi } from 'vitest';
import { allSignatures, signaturesFor } from './catalog';
import type { LogSignature } from './types';
import { scanLog } from './scanner';

// Log lines are untrusted. A backtracking RegExp can take quadratic time on crafted lines
// (long runs of backslashes after an escaped-quote construct, or a line repeating the start of
// an `A.*B` pattern). These lines must not make a scan crawl.
//
// No wall-clock bound: each signature's crafted long lines are timed against a baseline of the
// same lines cut short and repeated to the same number of bytes, in the same test. Linear work
// costs the same on both (the short lines even cost more: more heads, literals and RegExp
// calls); quadratic work costs LONG / SHORT times more on the long lines (128×).
const RUNS = ['\\', '"', ' ', 'a', '\\"'];
const LONG_RUN = 16 * 1024;
const SHORT_RUN = 128;
const MAX_CUTS = 16;
/** Far above linear (≤ 1×), far below quadratic (128×). */
const MAX_RATIO = 10;
/** A signature is flagged only when every one of these interleaved attempts is over the ratio. */
const ATTEMPTS = 3;

/**
 * For each signature: its example cut inside the part the pattern matches, after a quote,
 * backslash, space, bracket or colon; then a run of `runBytes` of one character; then the
 * literal (so the line is a candidate). This puts the run where the pattern's quantifiers are.
 */
function craftedLines(s: LogSignature, runBytes: number): Buffer[] {
  const example = s.example ?? s.literal;
  const m = new RegExp(s.pattern, 's').exec(example);
  const from = m?.index ?? 0;
  const to = m === null ? example.length : from + m[0].length;
  const cuts = [from];
  for (let i = from + 1; i <= to && cuts.length < MAX_CUTS; i++)
    if ('"\\ ([:'.includes(example[i - 1] as string)) cuts.push(i);
  const out: Buffer[] = [];
  for (const cut of cuts) {
    const head = example.slice(0, cut);
    const tail = head.includes(s.literal) ? '' : s.literal;
    for (const run of RUNS)
      out.push(Buffer.from(head + run.repeat(Math.ceil(runBytes / run.length)) + tail + '\n'));
  }
  out.push(Buffer.from(s.literal.repeat(Math.ceil(runBytes / s.literal.length)) + '\n'));
  return out;
}

/** The short lines repeated until they hold at least as many bytes as the long ones. */
function baselineLines(s: LogSignature, bytes: number): Buffer[] {
  const short = craftedLines(s, SHORT_RUN);
  const out: Buffer[] = [];
  let n = 0;
  while (n < bytes)
    for (const l of short) {
      out.push(l);
      n += l.length;
    }
  return out;
}

async function scanMs(lines: Buffer[], s: LogSignature): Promise<number> {
  async function* source(): AsyncGenerator<Uint8Array> {
    for (const l of lines) yield l;
  }
  const started = performance.now();
  const r = await scanLog(source(), 'x', [s]);
  const ms = performance.now() - started;
  expect(r.lines).toBe(lines.length);
  return ms;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('scanner on crafted lines', () => {
  it('scans every signature prefix followed by long runs as fast per byte as short ones', async () => {
    const slow: string[] = [];
    for (const s of allSignatures) {
      const long = craftedLines(s, LONG_RUN);
      const bytes = long.reduce((n, l) => n + l.length, 0);
      const short = baselineLines(s, bytes);
      const ratios: string[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const base = await scanMs(short, s);
        const ms = await scanMs(long, s);
        if (ms <= MAX_RATIO * base) break;
        ratios.push(`${ms.toFixed(1)} ms vs ${base.toFixed(1)} ms`);
      }
      if (ratios.length === ATTEMPTS) slow.push(`${s.id}: long lines ${ratios.join(', ')}`);
    }
    expect(slow).toEqual([]);
  });

  it('still matches a real line after many repeats of the literal', async () => {
    const piece = 'failed to destroy network for sandbox ';
    const longLine = piece.repeat(Math.floor(65536 / piece.length));
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 8; i++) yield Buffer.from(longLine + '\n');
      yield Buffer.from(piece.repeat(10) + 'cni plugin not initialized\n');
    }
    // Count the characters handed to the RegExps. A pattern `A.*B` costs V8 (occurrences of A)
    // x (line length) when B is absent; without the per-line hit cap every 64 KiB line went
    // whole to each signature that uses the literal (~0.2 s of backtracking apiece).
    const inputs: number[] = [];
    const test = RegExp.prototype.test;
    vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, text: string) {
      inputs.push(text.length);
      return test.call(this, text);
    });
    const r = await scanLog(source(), 'x', signaturesFor('linux'));
    vi.restoreAllMocks();
    expect(r.matches.map((m) => `${m.line}:${m.signatureId}`)).toEqual([
      '9:linux.cni.teardown-not-initialized',
    ]);
    expect(inputs.length).toBeGreaterThan(0);
    // Each crafted line reaches a RegExp only up to 2 KiB past its 17th hit.
    const perLine = 17 * piece.length + 2048;
    expect(Math.max(...inputs)).toBeLessThanOrEqual(perLine);
    expect(Math.max(...inputs)).toBeLessThan(longLine.length / 10);
  });
});
