/**
 * One log tail made ready for a bundle archive: read, redacted and gzipped as a member of its
 * own, off the thread that reads the rest of the node (tail-worker.ts). A bundle's bytes are
 * mostly log tails; doing them on a second core is what lets `collect` keep up with
 * `tar czf` (docs/architecture.md, "collect").
 *
 * Only what the byte path of free-text.ts redacts exactly like the string path is done here: a
 * tail that might be structured (JSON, TOML, YAML) or that holds a PEM key block comes back
 * `handled: false`, and the caller records it the ordinary way. Light on imports on purpose:
 * the worker compiles this at every collect, without a code cache.
 */
import { constants, fstatSync, openSync, readSync, closeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { HEAD_BYTES, freeTextOnly } from '../redaction/free-text-gate';
import { encodingOf, redactFreeTextPart } from '../redaction/free-text';
import type { Redaction } from '../redaction';
import { GZIP_OPTIONS, padding } from '../tar-blocks';

export interface TailJob {
  /** The file on this machine (already resolved inside the node's root). */
  real: string;
  /** The node's path: what redactions name and what the redaction rules judge by. */
  nodePath: string;
  /** Bytes [start, end) are the tail; fewer when the file shrank meanwhile. */
  start: number;
  end: number;
  redact: boolean;
  /** `real` was resolved inside a root: its last part must not have become a symlink. */
  noFollow?: boolean;
}

export type TailOutcome =
  | {
      handled: true;
      /** Bytes of the file's data in the archive (after redaction). */
      length: number;
      /** gzip member(s) holding exactly the data and its zero padding to a 512-byte block. */
      member: Uint8Array;
      redactions: Redaction[];
    }
  | { handled: false; why: string };

/** Bytes read per part; a line longer than this makes its part longer (to the line's end). */
const PART = 1024 * 1024;
const NL = 0x0a;

function countLines(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(NL); i !== -1; i = b.indexOf(NL, i + 1)) n++;
  return n;
}

/** Newlines in bytes [from, to) of the file, read again in parts of their own. */
function countLinesInFile(fd: number, from: number, to: number): number {
  const buf = Buffer.allocUnsafe(Math.min(PART, Math.max(1, to - from)));
  let n = 0;
  for (let pos = from; pos < to;) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
    if (got === 0) break;
    n += countLines(buf.subarray(0, got));
    pos += got;
  }
  return n;
}

/**
 * The tail, part by part, each ending after a newline (or at the tail's end): a part is what
 * the redaction looks at at once, so no line is ever split, and no 64 MiB buffer is held (the
 * parts reuse one buffer, which also saves the page faults of touching 64 MiB of new memory).
 */
function* parts(fd: number, start: number, end: number): Generator<{ part: Buffer; at: number }> {
  let buf = Buffer.allocUnsafeSlow(PART);
  let held = 0; // bytes of an unfinished line carried over from the last part
  let pos = start;
  for (;;) {
    if (held === buf.length) {
      const bigger = Buffer.allocUnsafeSlow(buf.length * 2);
      buf.copy(bigger, 0, 0, held);
      buf = bigger;
    }
    const n = pos < end ? readSync(fd, buf, held, Math.min(buf.length - held, end - pos), pos) : 0;
    pos += n;
    const filled = held + n;
    // Where this part begins in the file: before the bytes just read, the carried-over ones.
    const at = pos - filled;
    if (n === 0) {
      // The tail's end (or the file shrank under us): the rest is the last part.
      if (filled > 0) yield { part: buf.subarray(0, filled), at };
      return;
    }
    const lastNl = buf.lastIndexOf(NL, filled - 1);
    if (lastNl === -1) {
      held = filled; // no line ends here yet: read on into the same part
      continue;
    }
    yield { part: buf.subarray(0, lastNl + 1), at };
    held = filled - lastNl - 1;
    buf.copy(buf, 0, lastNl + 1, filled);
  }
}

type Encoding = 'utf8' | 'latin1';

/** Undefined: the tail holds a PEM key block, or (`encoding` utf8) turned out not to be UTF-8. */
function record(
  fd: number,
  job: TailJob,
  encoding: Encoding,
): { members: Buffer[]; length: number; redactions: Redaction[] } | 'not-utf8' | undefined {
  const members: Buffer[] = [];
  const redactions: Redaction[] = [];
  let length = 0;
  // Lines are counted only when a part has something to hide: `line` is the number of the line
  // at file offset `countedTo`. Most tails hide nothing, and counting 64 MiB of newlines was a
  // tenth of the worker's time.
  let line = 1;
  let countedTo = job.start;
  for (const { part, at } of parts(fd, job.start, job.end)) {
    let out: Buffer = part;
    if (job.redact) {
      if (encoding === 'utf8' && encodingOf(part) !== 'utf8') return 'not-utf8';
      let counted = false;
      const firstLine = (): number => {
        line += countLinesInFile(fd, countedTo, at);
        countedTo = at;
        counted = true;
        return line;
      };
      const r = redactFreeTextPart(job.nodePath, part, encoding, firstLine);
      if (!r) return undefined;
      out = r.data;
      redactions.push(...r.redactions);
      if (counted) {
        line += countLines(part);
        countedTo = at + part.length;
      }
    }
    length += out.length;
    // One member per part: concatenated members are one gzip stream to every reader.
    members.push(gzipSync(out, GZIP_OPTIONS));
  }
  const pad = padding(length);
  if (pad) members.push(gzipSync(Buffer.alloc(pad), GZIP_OPTIONS));
  return { members, length, redactions };
}

export function runTailJob(job: TailJob): TailOutcome {
  let fd: number;
  try {
    fd = openSync(
      job.real,
      constants.O_RDONLY | constants.O_NONBLOCK | (job.noFollow ? constants.O_NOFOLLOW : 0),
    );
  } catch (e) {
    return { handled: false, why: (e as Error).message };
  }
  try {
    if (!fstatSync(fd).isFile()) return { handled: false, why: 'not a regular file' };
    if (job.redact) {
      // The structure check looks at the first bytes only (free-text-gate.ts).
      const head = Buffer.alloc(Math.min(HEAD_BYTES, Math.max(0, job.end - job.start)));
      const got = readSync(fd, head, 0, head.length, job.start);
      const seen = head.subarray(0, got);
      // All white space so far: what comes first after it decides, so leave it to the caller.
      const blank = got < job.end - job.start && !/\S/.test(seen.toString('latin1'));
      if (blank || !freeTextOnly(job.nodePath, seen))
        return { handled: false, why: 'might be structured text' };
    }
    // UTF-8 unless a part says otherwise; then again from the start as latin1 (what the whole
    // text's decoding would have chosen: bytes stay as they were).
    let done = record(fd, job, 'utf8');
    if (done === 'not-utf8') done = record(fd, job, 'latin1');
    if (done === undefined || done === 'not-utf8')
      return { handled: false, why: 'holds a PEM key block' };
    return {
      handled: true,
      length: done.length,
      member: Buffer.concat(done.members),
      redactions: done.redactions,
    };
  } catch (e) {
    return { handled: false, why: (e as Error).message };
  } finally {
    closeSync(fd);
  }
}
