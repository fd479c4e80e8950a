/**
 * One call's output from a shell stream, framed the way child-shell 5.0.0 frames it: the bytes
 * between the first two occurrences of the call's random delimiter, trimmed of spaces, CR and LF
 * at both ends (child-shell's readBulkFromOutput + trimBuffer, read from node_modules).
 *
 * Why not child-shell's own: it accumulates through accumulate-stream, which copies the whole
 * buffer into a new one on every pipe read (Buffer.concat per 64 KiB chunk), so an answer of N
 * bytes costs ~N²/128 KiB of copying: a 50 MB HNS endpoint list copied ~20 GB, 51 s of CPU for the
 * accumulator alone on the 2-core CI machine (the real-pwsh test of that answer took 98 s). This
 * keeps the chunks and joins them once, searching each new chunk together with the few bytes
 * before it, so a delimiter split across two reads is still found.
 */
import { Writable, type Readable } from 'node:stream';

export function readDelimited(stream: Readable, delimiter: string): Promise<Buffer> {
  const delim = Buffer.from(delimiter, 'utf8');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    // The last delim.length - 1 bytes already read: a delimiter may start there.
    let carry = Buffer.alloc(0);
    let first = -1;
    let done = false;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if (done) return callback();
        const windowStart = total - carry.length;
        const window = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
        chunks.push(chunk);
        total += chunk.length;
        if (first === -1) {
          const at = window.indexOf(delim);
          if (at !== -1) first = windowStart + at;
        }
        if (first !== -1) {
          const from = Math.max(0, first + delim.length - windowStart);
          const at = window.indexOf(delim, from);
          if (at !== -1) {
            done = true;
            stream.unpipe(sink);
            sink.end();
            const all = Buffer.concat(chunks, total);
            resolve(trimLineSpace(all.subarray(first + delim.length, windowStart + at)));
            return callback();
          }
        }
        carry = Buffer.from(window.subarray(Math.max(0, window.length - (delim.length - 1))));
        callback();
      },
    });
    stream.pipe(sink);
  });
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

function isLineSpace(b: number | undefined): boolean {
  return b === LF || b === CR || b === SPACE;
}

/** trim-buffer's trimBuffer: spaces, CR and LF only (not tabs), at both ends. */
export function trimLineSpace(b: Buffer): Buffer {
  let start = 0;
  let end = b.length;
  while (start < end && isLineSpace(b[start])) start++;
  while (end > start && isLineSpace(b[end - 1])) end--;
  return b.subarray(start, end);
}
