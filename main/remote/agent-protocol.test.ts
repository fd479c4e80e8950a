import { describe, expect, it } from 'vitest';
import { AgentParser, AgentProtocolError, type AgentAnswer } from './agent-protocol';

function parse(text: string | Buffer): AgentAnswer[] {
  const out: AgentAnswer[] = [];
  const p = new AgentParser((a) => out.push(a));
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  // Byte by byte: records split anywhere must parse the same.
  for (let i = 0; i < buf.length; i++) p.push(buf.subarray(i, i + 1));
  return out;
}

describe('node agent records', () => {
  it('skips a login banner, reads names with newlines, base64 and hex blocks', () => {
    const a = parse(
      'Welcome to node1\n@ cni-doctor-agent 1 B\n> list\nT dir\nN 7 a\nb c.d\nN 3 x y\n<\n> read\nT file\nS 3\nB\nYWJj\n.\n<\n> read\nH\n 61 62\n.\n<\n',
    );
    expect(a[0]).toMatchObject({ op: 'list', type: 'dir', names: ['a\nb c.d', 'x y'] });
    expect(a[1]?.blocks[0]?.toString()).toBe('abc');
    expect(a[1]?.size).toBe(3);
    expect(a[2]?.blocks[0]?.toString()).toBe('ab');
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
