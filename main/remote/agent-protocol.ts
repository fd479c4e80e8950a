/**
 * The records the node agent (scripts/agent.sh) prints, parsed incrementally from its stdout.
 * The stream is node data: a malformed record fails the session with a clear message, never a
 * crash, and sizes are bounded.
 */
export interface AgentAnswer {
  op: string;
  type?: 'file' | 'dir' | 'socket' | 'other' | 'missing';
  error?: { code: string; message: string };
  executable?: boolean;
  size?: number;
  /** Decoded B/H blocks, in order. */
  blocks: Buffer[];
  names: string[];
  values: number[];
  /** Why the agent could not answer (no systemd, no journal, …). */
  unavailable?: string;
}

const TYPES = new Set(['file', 'dir', 'socket', 'other', 'missing']);
const MAX_LINE = 64 * 1024;
// A 64 MiB log tail is ~90 MB as base64 lines; anything beyond that is not an answer we asked for.
const MAX_BLOCK = 100 * 1024 * 1024;

export class AgentProtocolError extends Error {}

export class AgentParser {
  private buf: Buffer = Buffer.alloc(0);
  private current: AgentAnswer | undefined;
  private block: { enc: 'B' | 'H'; parts: string[]; size: number } | undefined;
  private pendingName: number | undefined;
  greeted = false;

  constructor(
    private readonly onAnswer: (a: AgentAnswer) => void,
    private readonly onBye: () => void = () => undefined,
  ) {}

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
      if (nl < 0) {
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
    return this.current;
  }

  private line(line: string): void {
    if (this.block) {
      if (line === '.') {
        const b = this.block;
        this.block = undefined;
        const text = b.parts.join('');
        this.answer().blocks.push(
          b.enc === 'B'
            ? Buffer.from(text, 'base64')
            : Buffer.from(text.replace(/[^0-9a-f]/g, ''), 'hex'),
        );
        return;
      }
      b_push(this.block, line);
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
        this.current = { op: rest, blocks: [], names: [], values: [] };
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
          message: sp < 0 ? '' : rest.slice(sp + 1),
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
        } else if (n) this.answer().values.push(Number(n[1]));
        return;
      }
      case 'B':
      case 'H':
        this.answer();
        this.block = { enc: tag, parts: [], size: 0 };
        return;
      case 'N': {
        const m = /^([0-9]{1,6}) $/.exec(line.slice(2, line.indexOf(' ', 2) + 1));
        if (!m) throw new AgentProtocolError('a malformed name record');
        const len = Number(m[1]);
        // The name's bytes started after "N len " on this line; put them back and read exactly len.
        const start = 2 + (m[1] as string).length + 1;
        const already = Buffer.from(line.slice(start), 'latin1');
        this.buf = Buffer.concat([already, Buffer.from([0x0a]), this.buf]);
        this.pendingName = len;
        return;
      }
      case 'U':
        this.answer().unavailable = rest;
        return;
      default:
        throw new AgentProtocolError(
          `unexpected output from the node agent: ${JSON.stringify(line.slice(0, 60))}`,
        );
    }
  }
}

function b_push(b: { parts: string[]; size: number }, line: string): void {
  b.size += line.length;
  if (b.size > MAX_BLOCK) throw new AgentProtocolError('a block from the node agent is too large');
  b.parts.push(line);
}
