/**
 * The file-system calls a Linux host makes, in two flavours with identical answers.
 *
 * `threadPoolIo` hands every call to libuv's thread pool: the event loop stays free, which a
 * long-running process (serve, the desktop app) needs while it also answers requests.
 *
 * `blockingIo` makes the same calls synchronously. A one-shot CLI run has nothing else for its
 * event loop to do, and a scan makes five calls per config file: on a node with 2,000 conflists
 * the thread-pool hand-offs (a futex wake, an epoll wake-up and a promise per call) cost more
 * than the reads themselves. Files are still opened with O_NONBLOCK and checked to be regular
 * before a byte is read, so a FIFO cannot stall the process either way.
 */
import { constants, promises as fsp, type Stats } from 'node:fs';
import * as fs from 'node:fs';

export interface FileRead {
  data: Buffer;
  /** The size the file reports (for /proc and /sys files: the bytes read). */
  size: number;
  /** When the path is not a regular file: what it is instead. */
  notRegular?: 'dir' | 'other';
}

export interface FileIo {
  lstat(real: string): Promise<Stats>;
  stat(real: string): Promise<Stats>;
  readlink(real: string): Promise<string>;
  readdir(real: string): Promise<string[]>;
  /**
   * A regular file's first `maxBytes` bytes; nothing is read from anything else. `noFollow`:
   * `real` was resolved inside a root, so its last part must not be a symlink now (one planted
   * since would point wherever its author likes): the open fails with ELOOP instead.
   */
  readRegular(real: string, maxBytes: number, opts?: OpenOptions): Promise<FileRead>;
  /**
   * Bytes [start, end) of `real` in chunks. With `into`, read straight into it (views of it are
   * yielded, so no chunk is allocated and left for the collector); what does not fit comes as
   * chunks of its own. Stops early when the file shrinks (a log rotated by truncation).
   */
  readRange(
    real: string,
    start: number,
    end: number,
    into?: Buffer,
    opts?: RangeOptions,
  ): AsyncIterable<Uint8Array>;
}

export interface OpenOptions {
  noFollow?: boolean;
}

export interface RangeOptions extends OpenOptions {
  /** Without `into`: every chunk is read into one buffer, valid until the next is asked for. */
  reuse?: boolean;
}

const CHUNK = 1024 * 1024;

/**
 * Where the next chunk goes: into the caller's buffer while it has room, else into `scratch`
 * (a reused buffer, when the caller allows it), else a new one.
 */
function nextTarget(
  into: Buffer | undefined,
  at: number,
  left: number,
  scratch?: Buffer,
): { target: Buffer; offset: number; want: number } {
  if (into && at < into.length)
    return { target: into, offset: at, want: Math.min(CHUNK, left, into.length - at) };
  const want = Math.min(CHUNK, left);
  return { target: scratch ?? Buffer.allocUnsafe(want), offset: 0, want };
}

/**
 * One buffer for every chunk of a reused read: a 64 MiB log tail was 64 fresh 1 MiB buffers,
 * each faulted in by the kernel and left to the collector. Only when there is no `into`.
 */
const scratchFor = (into: Buffer | undefined, o: RangeOptions | undefined, size: number) =>
  o?.reuse && !into ? Buffer.allocUnsafeSlow(Math.min(CHUNK, size)) : undefined;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const openFlags = (o: OpenOptions | undefined): number =>
  OPEN_FLAGS | (o?.noFollow ? constants.O_NOFOLLOW : 0);
/** /proc and /sys files report size 0 but have content: read them up to this much. */
const PSEUDO_FILE_CAP = 64 * 1024;

function wantBytes(st: Stats, maxBytes: number): { want: number; pseudo: boolean } {
  const pseudo = st.size === 0;
  return {
    want: pseudo ? Math.min(maxBytes, PSEUDO_FILE_CAP) : Math.min(st.size, maxBytes),
    pseudo,
  };
}

const kindOf = (st: Stats): FileRead['notRegular'] =>
  st.isDirectory() ? 'dir' : st.isFile() ? undefined : 'other';

export const threadPoolIo: FileIo = {
  lstat: (real) => fsp.lstat(real),
  stat: (real) => fsp.stat(real),
  readlink: (real) => fsp.readlink(real),
  readdir: (real) => fsp.readdir(real),
  async readRegular(real, maxBytes, o) {
    const handle = await fsp.open(real, openFlags(o));
    try {
      const st = await handle.stat();
      const notRegular = kindOf(st);
      if (notRegular) return { data: Buffer.alloc(0), size: st.size, notRegular };
      const { want, pseudo } = wantBytes(st, maxBytes);
      const buf = Buffer.alloc(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buf, got, want - got, got);
        if (bytesRead === 0) break; // shrank while we read (a file changing mid-scan)
        got += bytesRead;
      }
      return { data: buf.subarray(0, got), size: pseudo ? got : st.size };
    } finally {
      await handle.close().catch(() => undefined);
    }
  },
  async *readRange(real, start, end, into, o) {
    const handle = await fsp.open(real, openFlags(o));
    try {
      let at = 0;
      const scratch = scratchFor(into, o, end - start);
      for (let pos = start; pos < end;) {
        const { target, offset, want } = nextTarget(into, at, end - pos, scratch);
        const { bytesRead } = await handle.read(target, offset, want, pos);
        if (bytesRead === 0) return;
        yield target.subarray(offset, offset + bytesRead);
        pos += bytesRead;
        if (target === into) at += bytesRead;
      }
    } finally {
      await handle.close().catch(() => undefined);
    }
  },
};

/**
 * Blocking calls resolve as microtasks, so a chain of them never lets the event loop turn: zlib
 * (compressing a bundle on its thread) and child processes would wait until the whole scan is
 * done. Every few milliseconds of blocking work, one turn of the loop is let through.
 */
const TURN_EVERY_MS = 4;
let lastTurn = performance.now();
async function letTheLoopTurn(): Promise<void> {
  const now = performance.now();
  if (now - lastTurn < TURN_EVERY_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastTurn = performance.now();
}

export const blockingIo: FileIo = {
  lstat: async (real) => fs.lstatSync(real),
  stat: async (real) => fs.statSync(real),
  readlink: async (real) => fs.readlinkSync(real),
  readdir: async (real) => fs.readdirSync(real),
  async readRegular(real, maxBytes, o) {
    await letTheLoopTurn();
    const fd = fs.openSync(real, openFlags(o));
    try {
      const st = fs.fstatSync(fd);
      const notRegular = kindOf(st);
      if (notRegular) return { data: Buffer.alloc(0), size: st.size, notRegular };
      const { want, pseudo } = wantBytes(st, maxBytes);
      // Unzeroed (small ones share Node's pool, no allocation per file): only the `got` bytes
      // actually read are ever handed out.
      const buf = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const bytesRead = fs.readSync(fd, buf, got, want - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return { data: buf.subarray(0, got), size: pseudo ? got : st.size };
    } finally {
      closeQuietly(fd);
    }
  },
  async *readRange(real, start, end, into, o) {
    const fd = fs.openSync(real, openFlags(o));
    try {
      let at = 0;
      const scratch = scratchFor(into, o, end - start);
      for (let pos = start; pos < end;) {
        const { target, offset, want } = nextTarget(into, at, end - pos, scratch);
        const bytesRead = fs.readSync(fd, target, offset, want, pos);
        if (bytesRead === 0) return;
        yield target.subarray(offset, offset + bytesRead);
        pos += bytesRead;
        if (target === into) at += bytesRead;
      }
    } finally {
      closeQuietly(fd);
    }
  },
};

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // closing a descriptor we opened cannot lose anything we read
  }
}
