import { describe, expect, it } from 'vitest';
import { allSignatures, signaturesFor } from './catalog';
import type { LogSignature } from './types';
import { scanLog } from './scanner';

// Log lines are untrusted. A backtracking RegExp can take quadratic time on crafted lines
// (long runs of backslashes after an escaped-quote construct, or a line repeating the start of
// an `A.*B` pattern). These lines must not make a scan crawl.
const RUNS = ['\\', '"', ' ', 'a', '\\"'];
const LINE_BYTES = 16 * 1024;
const MAX_CUTS = 16;

/**
 * For each signature: its example cut inside the part the pattern matches, after a quote,
 * backslash, space, bracket or colon; then a long run of one character; then the literal (so
 * the line is a candidate). This puts the run where the pattern's quantifiers are.
 */
function craftedLines(s: LogSignature): Buffer[] {
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
      out.push(Buffer.from(head + run.repeat(Math.ceil(LINE_BYTES / run.length)) + tail + '\n'));
  }
  out.push(Buffer.from(s.literal.repeat(Math.ceil(LINE_BYTES / s.literal.length)) + '\n'));
  return out;
}

describe('scanner on crafted lines', () => {
  it('scans every signature prefix followed by long runs in bounded time', async () => {
    const slow: string[] = [];
    for (const s of allSignatures) {
      const lines = craftedLines(s);
      async function* source(): AsyncGenerator<Uint8Array> {
        for (const l of lines) yield l;
      }
      const started = performance.now();
      const r = await scanLog(source(), 'x', [s]);
      const ms = performance.now() - started;
      expect(r.lines).toBe(lines.length);
      // Linear work here is a few ms; one quadratic line of 16 KiB alone takes over 100 ms.
      if (ms > 250) slow.push(`${s.id}: ${ms.toFixed(0)} ms`);
    }
    expect(slow).toEqual([]);
  });

  it('still matches a real line after many repeats of the literal', async () => {
    const piece = 'failed to destroy network for sandbox ';
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 8; i++)
        yield Buffer.from(piece.repeat(Math.floor(65536 / piece.length)) + '\n');
      yield Buffer.from(piece.repeat(10) + 'cni plugin not initialized\n');
    }
    const started = performance.now();
    const r = await scanLog(source(), 'x', signaturesFor('linux'));
    // Without the per-line hit cap each of these 64 KiB lines costs ~0.2 s of backtracking.
    expect(performance.now() - started).toBeLessThan(600);
    expect(r.matches.map((m) => `${m.line}:${m.signatureId}`)).toEqual([
      '9:linux.cni.teardown-not-initialized',
    ]);
  });
});
