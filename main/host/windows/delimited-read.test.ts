import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readDelimited, trimLineSpace } from './delimited-read';

const D = 'AbCdEfGhIjKlMnOp'; // 16 characters, like child-shell's delimiters

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readDelimited', () => {
  it('returns what lies between the two delimiters, trimmed, when both arrive in one read', async () => {
    const s = new PassThrough();
    const out = readDelimited(s, D);
    s.write(`${D}\n  hello\r\n${D}\n`);
    expect((await out).toString()).toBe('hello');
  });

  it('an empty answer (both delimiter lines in one read, CRLF) completes', async () => {
    const s = new PassThrough();
    const out = readDelimited(s, D);
    s.write(`${D}\r\n${D}\r\n`);
    expect((await out).length).toBe(0);
  });

  it('finds delimiters split across reads at every byte', async () => {
    const whole = Buffer.from(`${D}\nx${D.slice(0, 5)}y\n${D}\n`);
    for (let cut = 1; cut < whole.length; cut++) {
      const s = new PassThrough();
      const out = readDelimited(s, D);
      s.write(whole.subarray(0, cut));
      s.write(whole.subarray(cut));
      expect((await out).toString(), `cut at ${cut}`).toBe(`x${D.slice(0, 5)}y`);
    }
    const s = new PassThrough();
    const out = readDelimited(s, D);
    for (const b of whole) s.write(Buffer.from([b]));
    expect((await out).toString()).toBe(`x${D.slice(0, 5)}y`);
  });

  it('leaves the next call’s output in the stream for the next reader', async () => {
    const s = new PassThrough();
    const first = readDelimited(s, D);
    s.write(`${D}\none\n${D}\n`);
    expect((await first).toString()).toBe('one');
    const E = 'QrStUvWxYz012345';
    s.write(`${E}\ntwo\n${E}\n`);
    expect((await readDelimited(s, E)).toString()).toBe('two');
  });

  it('copies a large answer a bounded number of times, not once per read (linear, not quadratic)', async () => {
    // child-shell's accumulator joined the whole buffer again on every 64 KiB read: for this
    // 32 MiB answer that is ~8 GiB through Buffer.concat. Counted, not timed.
    const concat = vi.spyOn(Buffer, 'concat');
    const s = new PassThrough({ highWaterMark: 64 * 1024 });
    const out = readDelimited(s, D);
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const pieces = 512;
    s.write(`${D}\n`);
    for (let i = 0; i < pieces; i++) {
      if (!s.write(piece)) await new Promise((r) => s.once('drain', r));
    }
    s.write(`\n${D}\n`);
    const answer = await out;
    expect(answer.length).toBe(pieces * piece.length);
    const copied = concat.mock.calls.reduce(
      (n, [list]) => n + list.reduce((m, b) => m + b.length, 0),
      0,
    );
    expect(copied).toBeLessThan(3 * pieces * piece.length);
  });
});

describe('trimLineSpace', () => {
  it('trims spaces, CR and LF but not tabs, at both ends', () => {
    expect(trimLineSpace(Buffer.from(' \r\n\ta b\t\n ')).toString()).toBe('\ta b\t');
    expect(trimLineSpace(Buffer.from(' \r\n ')).length).toBe(0);
  });
});
