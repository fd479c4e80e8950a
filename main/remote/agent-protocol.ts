/**
 * The records the node agent (scripts/agent.sh) prints, parsed incrementally from its stdout.
 * The stream is node data: a malformed record fails the session with a clear message, never a
 * crash, and memory is bounded — every answer by what its question asked for (answer-limits.ts),
 * the whole session by a budget, and nothing the node sends is kept beyond what was asked.
 */
import type { AnswerLimits } from './answer-limits';

export interface AgentAnswer {
  op: string;
  type?: 'file' | 'dir' | 'socket' | 'other' | 'missing';
  error?: { code: string; message: string };
  executable?: boolean;
  size?: number;
  /**
   * An executable's inode, mtime and ctime (seconds), as the agent's stat(1) printed them: what a
   * plugin's `--version` answer is remembered under (version-cache.ts). Absent when unknown.
   */
  identity?: string;
  /**
   * Decoded B/H blocks, in order, each as the pieces it was decoded in (a 64 MiB log tail is never
   * joined into one buffer beside its pieces: see blockOf).
   */
  chunks: Buffer[][];
  names: string[];
  values: number[];
  /** Why the agent could not answer (no systemd, no journal, …). */
  unavailable?: string;
}

/** Block `i` of an answer as one buffer; joined once, then kept joined (no second copy). */
export function blockOf(a: AgentAnswer, i: number): Buffer | undefined {
  const parts = a.chunks[i];
  if (parts === undefined) return undefined;
  if (parts.length === 1) return parts[0];
  const joined = Buffer.concat(parts);
  a.chunks[i] = [joined];
  return joined;
}

const TYPES = new Set(['file', 'dir', 'socket', 'other', 'missing']);
const IDENTITY = /^\d{1,20} \d{1,20} \d{1,20}$/;
const MAX_LINE = 64 * 1024;
/**
 * Base64/hex text decoded at a time: pieces of ~192 KiB, each its own allocation — above malloc's
 * mmap threshold, so a piece let go is given back to the system, not left in a fragmented heap.
 */
const DECODE_CHARS = 256 * 1024;
/** A block ends at a line holding only `.`. */
const BLOCK_END = Buffer.from('\n.\n');

export class AgentProtocolError extends Error {}

/** Bytes a whole session may receive (decoded blocks and names); shared by its parser. */
export interface SessionBudget {
  readonly limit: number;
  used: number;
}

interface OpenBlock {
  enc: 'B' | 'H';
  /** Undecoded text (whole lines, newlines kept), about DECODE_CHARS bytes at most. */
  text: Buffer[];
  textChars: number;
  pieces: Buffer[];
  bytes: number;
}

export class AgentParser {
  private buf: Buffer = Buffer.alloc(0);
  private current: { a: AgentAnswer; limits: AnswerLimits; bytes: number } | undefined;
  private block: OpenBlock | undefined;
  private pendingName: number | undefined;
  /** After `@ relay`: every later byte is the relayed socket's, handed on as it comes. */
  private raw: ((chunk: Buffer) => void) | undefined;
  greeted = false;

  /**
   * `begin(op)` is asked when an answer starts: the limits of the question it answers, or it
   * throws (an answer nobody asked for, or to another question).
   */
  constructor(
    private readonly onAnswer: (a: AgentAnswer) => void,
    private readonly onBye: () => void = () => undefined,
    private readonly begin: (op: string) => AnswerLimits = () => UNLIMITED,
    private readonly budget: SessionBudget = { limit: Infinity, used: 0 },
    /**
     * Asked at `@ relay` (the agent handed its run to socat): where the bytes after it go. It
     * throws when nobody asked for a relay; without it, `@ relay` is a protocol error.
     */
    private readonly onRelay?: () => (chunk: Buffer) => void,
  ) {}

  /** Bytes of node output held by the parser now (undecoded text, pieces of an open block). */
  get heldBytes(): number {
    return this.buf.length + (this.block ? this.block.textChars + this.block.bytes : 0);
  }

  push(chunk: Buffer): void {
    if (this.raw) {
      this.raw(chunk);
      return;
    }
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      if (this.pendingName !== undefined) {
        // A name of exactly n bytes, then a newline.
        if (this.buf.length < this.pendingName + 1) return;
        const name = this.buf.subarray(0, this.pendingName).toString('utf8');
        if (this.buf[this.pendingName] !== 0x0a)
          throw new AgentProtocolError('a name record was not terminated');
        this.buf = this.buf.subarray(this.pendingName + 1);
        this.pendingName = undefined;
        this.answer().names.push(name);
        continue;
      }
      if (this.block) {
        if (!this.blockText()) return;
        continue;
      }
      const nl = this.buf.indexOf(0x0a);
      if (nl < 0 || nl > MAX_LINE) {
        if (this.buf.length > MAX_LINE)
          throw new AgentProtocolError('a line from the node agent is too long');
        return;
      }
      const line = this.buf.subarray(0, nl).toString('latin1');
      this.buf = this.buf.subarray(nl + 1);
      const raw = this.line(line);
      if (raw) {
        // The socket's first bytes may have come in the same chunk as `@ relay`.
        const rest = this.buf;
        this.buf = Buffer.alloc(0);
        if (rest.length > 0) raw(rest);
        return;
      }
    }
  }

  /**
   * Inside a block: takes every whole line up to the block's end (a line holding only `.`) in one
   * piece rather than line by line — a 64 MiB log tail is over a million base64 lines, and one
   * string and one call per line held decoding to ~150 MiB/s of text. The buffer starts at a
   * line's start here. True when the block ended.
   */
  private blockText(): boolean {
    const buf = this.buf;
    let end = -1;
    let after = -1;
    if (buf.length >= 2 && buf[0] === 0x2e && buf[1] === 0x0a) [end, after] = [0, 2];
    else {
      const i = buf.indexOf(BLOCK_END);
      if (i >= 0) [end, after] = [i + 1, i + BLOCK_END.length];
    }
    if (end < 0) {
      // No end yet: the whole lines there are; a last partial line may be the end, so it waits.
      const nl = buf.lastIndexOf(0x0a);
      if (nl < 0) {
        if (buf.length > MAX_LINE)
          throw new AgentProtocolError('a line from the node agent is too long');
        return false;
      }
      this.blockLines(buf.subarray(0, nl + 1));
      this.buf = buf.subarray(nl + 1);
      return false;
    }
    this.blockLines(buf.subarray(0, end));
    this.buf = buf.subarray(after);
    this.decode(true);
    const b = this.block as OpenBlock;
    this.block = undefined;
    this.answer().chunks.push(b.pieces);
    return true;
  }

  /** Block text (whole lines, newlines kept: decode drops them), decoded ~DECODE_CHARS at a time. */
  private blockLines(bytes: Buffer): void {
    const b = this.block as OpenBlock;
    let at = 0;
    while (at < bytes.length) {
      // Up to DECODE_CHARS held at a time, cut at a line's end: each decoded piece stays its own
      // ~192 KiB allocation however much text one chunk brought.
      let end = bytes.length;
      if (b.textChars + (end - at) > DECODE_CHARS) {
        const room = at + Math.max(0, DECODE_CHARS - b.textChars);
        const nl = bytes.lastIndexOf(0x0a, room);
        end = nl >= at ? nl + 1 : bytes.indexOf(0x0a, room) + 1 || bytes.length;
      }
      b.text.push(bytes.subarray(at, end));
      b.textChars += end - at;
      at = end;
      if (b.textChars >= DECODE_CHARS || at < bytes.length) this.decode(false);
    }
  }

  private answer(): AgentAnswer {
    if (!this.current) throw new AgentProtocolError('a record arrived outside an answer');
    return this.current.a;
  }

  /** Counts `n` more bytes against the answer's limit and the session's. */
  private count(n: number, what: string): void {
    const c = this.current;
    if (!c) throw new AgentProtocolError('a record arrived outside an answer');
    c.bytes += n;
    if (c.bytes > c.limits.maxBytes)
      throw new AgentProtocolError(
        `the node sent more than asked for (${c.limits.what}: at most ${c.limits.maxBytes} bytes, ${what} went past it)`,
      );
    this.budget.used += n;
    if (this.budget.used > this.budget.limit)
      throw new AgentProtocolError(
        `the node sent more than ${mib(this.budget.limit)} in one session (the cap on what one command reads from a node)`,
      );
  }

  /** Handles one record; at `@ relay`, returns where the bytes after it go. */
  private line(line: string): ((chunk: Buffer) => void) | undefined {
    if (!this.greeted) {
      // The shell may print a login banner first (ssh): skip until the agent's greeting.
      if (line.startsWith('@ cni-doctor-agent 1 ')) this.greeted = true;
      return;
    }
    const tag = line[0];
    const rest = line.slice(2);
    if (line === '@ bye' && !this.current) {
      this.onBye();
      return;
    }
    if (line === '@ relay' && !this.current) {
      if (!this.onRelay) throw new AgentProtocolError('a relay nobody asked for');
      this.raw = this.onRelay();
      return this.raw;
    }
    switch (tag) {
      case '>':
        if (this.current) throw new AgentProtocolError('an answer started inside another');
        this.current = {
          a: { op: rest, chunks: [], names: [], values: [] },
          limits: this.begin(rest),
          bytes: 0,
        };
        return;
      case '<': {
        const a = this.answer();
        this.current = undefined;
        this.onAnswer(a);
        return;
      }
      case 'T':
        if (!TYPES.has(rest))
          throw new AgentProtocolError(`unknown type ${JSON.stringify(rest.slice(0, 20))}`);
        this.answer().type = rest as AgentAnswer['type'];
        return;
      case 'E': {
        const sp = rest.indexOf(' ');
        this.answer().error = {
          code: sp < 0 ? rest : rest.slice(0, sp),
          message: sp < 0 ? '' : rest.slice(sp + 1, sp + 1 + 1024),
        };
        return;
      }
      case 'X':
        this.answer().executable = rest === '1';
        return;
      case 'I':
        // Three numbers or nothing: an identity the node garbled only means no cached version.
        if (IDENTITY.test(rest)) this.answer().identity = rest;
        return;
      case 'S':
      case 'V': {
        const n = /^\s*([0-9]{1,15})\s*$/.exec(rest);
        if (tag === 'S') {
          if (n) this.answer().size = Number(n[1]);
        } else if (n) {
          const a = this.answer();
          if (a.values.length >= (this.current as { limits: AnswerLimits }).limits.maxValues)
            throw new AgentProtocolError('more numbers in an answer than its question has');
          a.values.push(Number(n[1]));
        }
        return;
      }
      case 'B':
      case 'H': {
        const a = this.answer();
        if (a.chunks.length >= (this.current as { limits: AnswerLimits }).limits.maxBlocks)
          throw new AgentProtocolError('more blocks in an answer than its question has');
        this.block = { enc: tag, text: [], textChars: 0, pieces: [], bytes: 0 };
        return;
      }
      case 'N': {
        const m = /^([0-9]{1,6}) $/.exec(line.slice(2, line.indexOf(' ', 2) + 1));
        if (!m) throw new AgentProtocolError('a malformed name record');
        const len = Number(m[1]);
        const c = this.current;
        if (!c) throw new AgentProtocolError('a record arrived outside an answer');
        if (c.a.names.length >= c.limits.maxNames)
          throw new AgentProtocolError(
            `more names than asked for (${c.limits.what}: at most ${c.limits.maxNames})`,
          );
        if (len > c.limits.maxNameBytes)
          throw new AgentProtocolError(`a name longer than ${c.limits.maxNameBytes} bytes`);
        this.count(len, 'a name');
        // The name's bytes started after "N len " on this line; put them back and read exactly len.
        const start = 2 + (m[1] as string).length + 1;
        const already = Buffer.from(line.slice(start), 'latin1');
        this.buf = Buffer.concat([already, Buffer.from([0x0a]), this.buf]);
        this.pendingName = len;
        return;
      }
      case 'U':
        this.answer().unavailable = rest.slice(0, 1024);
        return;
      default:
        throw new AgentProtocolError(
          `unexpected output from the node agent: ${JSON.stringify(line.slice(0, 60))}`,
        );
    }
  }

  /**
   * Decodes the open block's text: whole base64 quanta (hex pairs) now, the rest at its end.
   *
   * base64 is decoded with its newlines in: Node's decoder skips them, and a pass to remove them
   * cost as much as the decoding (a 64 MiB log tail is 1.1 million lines). The cut keeps the last
   * incomplete 4-character group (it may span a line break) for the next piece. The agent's
   * `base64` writes only the alphabet and newlines; other bytes from a node that sends them are
   * skipped by the decoder too, and may shift a group (its bytes are garbage, as it sent).
   */
  private decode(end: boolean): void {
    const b = this.block as OpenBlock;
    const raw = b.text.length === 1 ? (b.text[0] as Buffer) : Buffer.concat(b.text);
    let body: string;
    let chars: number;
    let rest: Buffer;
    if (b.enc === 'B') {
      let newlines = 0;
      for (let i = raw.indexOf(0x0a); i >= 0; i = raw.indexOf(0x0a, i + 1)) newlines++;
      let keep = end ? 0 : (raw.length - newlines) % 4;
      chars = raw.length - newlines - keep;
      let cut = raw.length;
      while (keep > 0 && cut > 0) if (raw[--cut] !== 0x0a) keep--;
      body = raw.toString('latin1', 0, cut);
      rest = raw.subarray(cut);
    } else {
      // od's hex comes with spaces, and Node's hex decoder stops at the first one.
      const text = raw.toString('latin1').replace(/[^0-9a-f]/g, '');
      chars = end ? text.length : text.length - (text.length % 2);
      body = text.slice(0, chars);
      rest = Buffer.from(text.slice(chars), 'latin1');
    }
    // What is kept is copied: a view would hold the whole chunk it arrived in.
    b.text = rest.length > 0 ? [Buffer.from(rest)] : [];
    b.textChars = rest.length;
    if (chars === 0) return;
    // Refused before decoding when even the smallest piece this text decodes to is too much.
    const least = b.enc === 'B' ? Math.ceil(chars / 4) * 3 - 2 : chars / 2;
    const c = this.current as { bytes: number; limits: AnswerLimits };
    if (c.bytes + least > c.limits.maxBytes) this.count(least, 'a block');
    const piece = Buffer.from(body, b.enc === 'B' ? 'base64' : 'hex');
    this.count(piece.length, 'a block');
    b.bytes += piece.length;
    if (piece.length > 0) b.pieces.push(piece);
  }
}

const UNLIMITED: AnswerLimits = {
  what: 'an answer',
  maxBlocks: Infinity,
  maxBytes: Infinity,
  maxNames: Infinity,
  maxNameBytes: 999_999,
  maxValues: Infinity,
};

function mib(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MiB`;
}
