import { describe, expect, it } from 'vitest';
import { AgentParser, AgentProtocolError, blockOf, type AgentAnswer } from './agent-protocol';
import type { AgentRequest } from './agent-session';
import { answerLimits } from './answer-limits';

function parse(text: string | Buffer): AgentAnswer[] {
  const out: AgentAnswer[] = [];
  const p = new AgentParser((a) => out.push(a));
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  // Byte by byte: records split anywhere must parse the same.
  for (let i = 0; i < buf.length; i++) p.push(buf.subarray(i, i + 1));
  return out;
}

describe('a relay: the run handed to the CRI socket', () => {
  const greet = '@ cni-doctor-agent 1 B\n';
  function relayed(cut: number) {
    const out: AgentAnswer[] = [];
    const raw: Buffer[] = [];
    const p = new AgentParser(
      (a) => out.push(a),
      undefined,
      undefined,
      undefined,
      () => (b) => raw.push(b),
    );
    // The socket's own bytes are binary, newlines and agent-like records included.
    const socket = Buffer.from([
      0, 0, 0x12, 4, 0, 10, 0x3e, 0x20, 0x72, 0x65, 0x61, 0x64, 10, 60, 10,
    ]);
    const text = Buffer.concat([Buffer.from(`${greet}> which\nN 4 /x/y\n<\n@ relay\n`), socket]);
    p.push(text.subarray(0, cut));
    p.push(text.subarray(cut));
    return { out, raw: Buffer.concat(raw), socket };
  }

  it('hands every byte after `@ relay` on as it is, however the stream is cut', () => {
    const whole = Buffer.byteLength(`${greet}> which\nN 4 /x/y\n<\n@ relay\n`) + 15;
    for (let cut = 0; cut <= whole; cut++) {
      const { out, raw, socket } = relayed(cut);
      expect(out.map((a) => a.op)).toEqual(['which']);
      expect(raw.equals(socket)).toBe(true);
    }
  });

  it('refuses `@ relay` nobody asked for, and one inside an answer', () => {
    const p = new AgentParser(() => undefined);
    p.push(Buffer.from(greet));
    expect(() => p.push(Buffer.from('@ relay\n'))).toThrow(/relay nobody asked for/);
    const q = new AgentParser(
      () => undefined,
      undefined,
      undefined,
      undefined,
      () => () => undefined,
    );
    q.push(Buffer.from(`${greet}> stat\n`));
    expect(() => q.push(Buffer.from('@ relay\n'))).toThrow(AgentProtocolError);
  });
});

describe('node agent records', () => {
  it('skips a login banner, reads names with newlines, base64 and hex blocks', () => {
    const a = parse(
      'Welcome to node1\n@ cni-doctor-agent 1 B\n> list\nT dir\nN 7 a\nb c.d\nN 3 x y\n<\n> read\nT file\nS 3\nB\nYWJj\n.\n<\n> read\nH\n 61 62\n.\n<\n',
    );
    expect(a[0]).toMatchObject({ op: 'list', type: 'dir', names: ['a\nb c.d', 'x y'] });
    expect(blockOf(a[1] as AgentAnswer, 0)?.toString()).toBe('abc');
    expect(a[1]?.size).toBe(3);
    expect(blockOf(a[2] as AgentAnswer, 0)?.toString()).toBe('ab');
  });

  it('decodes blocks however they are wrapped and however the stream is cut', () => {
    // Seeded: the same cases every run. Wraps that are not a multiple of 4 put base64 groups
    // across line breaks; chunks cut lines, the end marker and `\n.\n` anywhere.
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) + 0;
    for (let round = 0; round < 40; round++) {
      const data = Buffer.from(Array.from({ length: rand(700_000) }, () => rand(256)));
      const width = 1 + rand(120);
      const b64 = data.toString('base64').replace(new RegExp(`(.{${width}})`, 'g'), '$1\n');
      const hex = data
        .subarray(0, 5000)
        .toString('hex')
        .replace(/(..)/g, ' $1')
        .replace(/(.{48})/g, '$1\n');
      const text = Buffer.from(
        `@ cni-doctor-agent 1 B\n> tail\nT file\nB\n${b64}\n.\n<\n> read\nH\n${hex}\n.\n<\n`,
        'latin1',
      );
      const out: AgentAnswer[] = [];
      const p = new AgentParser((a) => out.push(a));
      for (let i = 0; i < text.length;) {
        const n = 1 + rand(rand(4) === 0 ? 8 : 200_000);
        p.push(text.subarray(i, i + n));
        i += n;
      }
      expect(out.map((a) => a.op)).toEqual(['tail', 'read']);
      expect(
        blockOf(out[0] as AgentAnswer, 0)?.equals(data) ?? data.length === 0,
        `width ${width}`,
      ).toBe(true);
      expect(
        blockOf(out[1] as AgentAnswer, 0)?.equals(data.subarray(0, 5000)) ?? data.length === 0,
      ).toBe(true);
    }
  });

  it("hears the agent's goodbye only between answers", () => {
    let byes = 0;
    const out: AgentAnswer[] = [];
    const p = new AgentParser(
      (a) => out.push(a),
      () => byes++,
    );
    p.push(Buffer.from('@ bye\n@ cni-doctor-agent 1 B\n> stat\nT file\n<\n@ bye\n'));
    expect(byes).toBe(1); // the first "@ bye" came before the greeting: banner text, ignored
    expect(out).toHaveLength(1);
    expect(() => p.push(Buffer.from('> stat\n@ bye\n'))).toThrow(AgentProtocolError);
  });

  it.each([
    ['a record outside an answer', '@ cni-doctor-agent 1 B\nT file\n'],
    ['an unknown type', '@ cni-doctor-agent 1 B\n> stat\nT fifo\n'],
    ['an unterminated name', '@ cni-doctor-agent 1 B\n> list\nN 2 abc\n'],
    ['an unknown record', '@ cni-doctor-agent 1 B\n> stat\n\u001b[2J\n'],
    ['a nested answer', '@ cni-doctor-agent 1 B\n> stat\n> stat\n'],
  ])('refuses %s', (_why, text) => {
    expect(() => parse(text)).toThrow(AgentProtocolError);
  });

  it('refuses an endless line instead of buffering it', () => {
    expect(() => parse(`@ cni-doctor-agent 1 B\n> read\n${'x'.repeat(70_000)}`)).toThrow(
      /too long/,
    );
  });
});

describe('a hostile node cannot make the parser hold more than was asked (red-team B2)', () => {
  const greet = '@ cni-doctor-agent 1 B\n';
  /** A parser answering `reqs` in order, as the session sets it up. */
  function session(reqs: AgentRequest[], limit = Infinity) {
    const out: AgentAnswer[] = [];
    const budget = { limit, used: 0 };
    let i = 0;
    const p = new AgentParser(
      (a) => out.push(a),
      () => undefined,
      (op) => {
        const r = reqs[i++];
        if (!r || r.op !== op) throw new AgentProtocolError('an answer nobody asked for');
        return answerLimits(r);
      },
      budget,
    );
    p.push(Buffer.from(greet));
    return { p, out, budget };
  }
  const b64line = Buffer.alloc(45_000, 7).toString('base64'); // 60,000 characters

  it('caps a read at max+1 bytes: a well-framed 45 MB answer to a 4 MiB read is refused early', () => {
    const { p, budget } = session([{ op: 'read', path: '/etc/cni/net.d/a.conf', max: 4 << 20 }]);
    p.push(Buffer.from('> read\nT file\nX 0\nB\n'));
    let sent = 0;
    const line = Buffer.from(`${b64line}\n`);
    expect(() => {
      for (; sent < 1000; sent++) p.push(line);
    }).toThrow(
      /more than asked for \(a read of \/etc\/cni\/net\.d\/a\.conf: at most 4194305 bytes/,
    );
    // Refused within one decoding step of the cap, never the 45 MB the node would send.
    expect(sent * 45_000).toBeLessThan((4 << 20) + 512 * 1024);
    expect(budget.used).toBeLessThanOrEqual((4 << 20) + 1 + 64 * 1024);
    expect(p.heldBytes).toBeLessThan((4 << 20) + 512 * 1024);
  });

  it('accepts exactly max+1 bytes (a file cut short), in any split', () => {
    const data = Buffer.alloc(1001, 3);
    const { p, out } = session([{ op: 'read', path: '/x', max: 1000 }]);
    const text = `> read\nT file\nB\n${data.toString('base64').replace(/(.{76})/g, '$1\n')}\n.\n<\n`;
    for (const c of Buffer.from(text)) p.push(Buffer.from([c]));
    expect(blockOf(out[0] as AgentAnswer, 0)).toEqual(data);
  });

  it('refuses endless blocks in one answer after the one a read has (H1)', () => {
    const { p } = session([{ op: 'read', path: '/x', max: 4 << 20 }]);
    p.push(Buffer.from(`> read\nT file\nB\n${b64line}\n.\n`));
    expect(() => p.push(Buffer.from(`B\n${b64line}\n.\n`))).toThrow(/more blocks/);
  });

  it('refuses endless name records past the listing cap, and any name in a read (H2)', () => {
    const { p } = session([{ op: 'list', path: '/etc/cni/net.d', max: 3 }]);
    p.push(Buffer.from('> list\nT dir\nN 3 abc\nN 3 def\nN 3 ghi\n'));
    expect(() => p.push(Buffer.from('N 3 jkl\n'))).toThrow(/more names than asked for/);
    const r = session([{ op: 'read', path: '/x', max: 10 }]);
    expect(() => r.p.push(Buffer.from(`> read\nN 60000 ${'x'.repeat(100)}\n`))).toThrow(/names/);
    const n = session([{ op: 'node' }]);
    expect(() => n.p.push(Buffer.from(`> node\nN 60000 ${'x'.repeat(100)}\n`))).toThrow(
      /longer than 4096/,
    );
  });

  it('refuses an answer nobody asked for, and an answer to another question', () => {
    const { p } = session([{ op: 'stat', path: '/x' }]);
    p.push(Buffer.from('> stat\nT file\n<\n'));
    expect(() => p.push(Buffer.from('> stat\n'))).toThrow(/nobody asked/);
    expect(() => session([{ op: 'stat', path: '/x' }]).p.push(Buffer.from('> read\n'))).toThrow();
  });

  it("caps a session's total: well-framed answers within their own caps stop at the budget (H3)", () => {
    const reqs: AgentRequest[] = Array.from({ length: 3000 }, (_, i) => ({
      op: 'read',
      path: `/etc/cni/net.d/${i}.conf`,
      max: 64 * 1024,
    }));
    const { p, out, budget } = session(reqs, 1 << 20);
    const answer = Buffer.from(
      `> read\nT file\nB\n${Buffer.alloc(60 * 1024, 1)
        .toString('base64')
        .replace(/(.{76})/g, '$1\n')}\n.\n<\n`,
    );
    expect(() => {
      for (let i = 0; i < 3000; i++) p.push(answer);
    }).toThrow(/more than 1 MiB in one session/);
    expect(out.length).toBeLessThan(18); // 1 MiB / 60 KiB
    expect(budget.used).toBeLessThanOrEqual((1 << 20) + 64 * 1024);
  });

  it('decodes a block into its own pieces: none pins the chunk it arrived in', () => {
    const { p, out } = session([{ op: 'tail', path: '/var/log/x.log', bytes: 1 << 20 }]);
    const data = Buffer.alloc(300_000, 9);
    const wrapped = data.toString('base64').replace(/(.{76})/g, '$1\n');
    p.push(Buffer.from(`> tail\nT file\nB\n${wrapped}\n.\n<\n`));
    const a = out[0] as AgentAnswer;
    const pieces = a.chunks[0] as Buffer[];
    expect(pieces.length).toBeGreaterThan(1);
    // Each piece its own allocation, far smaller than the 400 KB chunk the text came in.
    for (const piece of pieces) expect(piece.buffer.byteLength).toBeLessThanOrEqual(256 * 1024);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
  });
});
