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
const MAX_LINE = 64 * 1024;
/**
 * Base64/hex text decoded at a time: pieces of ~192 KiB, each its own allocation — above malloc's
 * mmap threshold, so a piece let go is given back to the system, not left in a fragmented heap.
 */
const DECODE_CHARS = 256 * 1024;

export class AgentProtocolError extends Error {}

/** Bytes a whole session may receive (decoded blocks and names); shared by its parser. */
export interface SessionBudget {
  readonly limit: number;
  used: number;
}

interface OpenBlock {
  enc: 'B' | 'H';
  /** Undecoded text, fewer than DECODE_CHARS characters. */
  text: string[];
  textChars: number;
  pieces: Buffer[];
  bytes: number;
}

export class AgentParser {
  private buf: Buffer = Buffer.alloc(0);
  private current: { a: AgentAnswer; limits: AnswerLimits; bytes: number } | undefined;
  private block: OpenBlock | undefined;
  private pendingName: number | undefined;
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
  ) {}

  /** Bytes of node output held by the parser now (undecoded text, pieces of an open block). */
  get heldBytes(): number {
    return this.buf.length + (this.block ? this.block.textChars + this.block.bytes : 0);
  }

  push(chunk: Buffer): void {
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
      const nl = this.buf.indexOf(0x0a);
      if (nl < 0 || nl > MAX_LINE) {
        if (this.buf.length > MAX_LINE)
          throw new AgentProtocolError('a line from the node agent is too long');
        return;
      }
      const line = this.buf.subarray(0, nl).toString('latin1');
      this.buf = this.buf.subarray(nl + 1);
      this.line(line);
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

  private line(line: string): void {
    if (this.block) {
      if (line === '.') {
        this.decode(true);
        const b = this.block;
        this.block = undefined;
        this.answer().chunks.push(b.pieces);
        return;
      }
      this.block.text.push(line);
      this.block.textChars += line.length;
      if (this.block.textChars >= DECODE_CHARS) this.decode(false);
      return;
    }
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

  /** Decodes the open block's text: whole base64 quanta (hex pairs) now, the rest at its end. */
  private decode(end: boolean): void {
    const b = this.block as OpenBlock;
    let text = b.text.join('');
    text = b.enc === 'B' ? text.replace(/[^A-Za-z0-9+/=]/g, '') : text.replace(/[^0-9a-f]/g, '');
    const quantum = b.enc === 'B' ? 4 : 2;
    const whole = end ? text.length : text.length - (text.length % quantum);
    const rest = text.slice(whole);
    b.text = rest ? [rest] : [];
    b.textChars = rest.length;
    if (whole === 0) return;
    // Refused before decoding when even the smallest piece this text decodes to is too much.
    const least = b.enc === 'B' ? Math.ceil(whole / 4) * 3 - 2 : whole / 2;
    const c = this.current as { bytes: number; limits: AnswerLimits };
    if (c.bytes + least > c.limits.maxBytes) this.count(least, 'a block');
    const piece = Buffer.from(text.slice(0, whole), b.enc === 'B' ? 'base64' : 'hex');
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
