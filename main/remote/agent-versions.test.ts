import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockOf, type AgentAnswer } from './agent-protocol';
import { AgentSession, encodeBatch, VERSIONS_MAX, type AgentRequest } from './agent-session';
import { LocalShellTransport } from './testing/local-transport';
import { NODE_SHELLS } from './testing/shells';

const dir = mkdtempSync(join(tmpdir(), 'cnd-agent-versions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const program = (name: string, body: string): string => {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
};
// Deterministic programs: a version line, nothing, more than the 4096 bytes kept, stderr only.
const plain = [
  program('one', 'echo "one v1.2.3"'),
  program('silent', ':'),
  program(
    'chatty',
    'i=0; while [ $i -lt 600 ]; do echo "line $i of a long --version"; i=$((i+1)); done',
  ),
  program('stderr', 'echo "to stderr" >&2; exit 3'),
  join(dir, 'missing'),
];
// Two programs that each wait (at most 2 s) for the other to have started: one after the
// other, the first gives up alone; side by side, each sees the other.
const waitFor = (me: string, other: string): string =>
  program(
    me,
    `touch ${dir}/${me}.started; i=0; while [ ! -e ${dir}/${other}.started ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done; [ -e ${dir}/${other}.started ] && echo "${me} saw ${other}" || echo "${me} alone"`,
  );
const pair = [waitFor('left', 'right'), waitFor('right', 'left')];

const shells = NODE_SHELLS;

const text = (a: AgentAnswer | undefined): string | undefined =>
  a?.type === 'file' ? (blockOf(a, 0)?.toString() ?? '') : undefined;

describe.each(shells)('versions asked together (%s)', (_name, shell) => {
  it('answer exactly as one at a time, in the order asked', async () => {
    const one = new AgentSession(new LocalShellTransport(shell));
    const t = new LocalShellTransport(shell);
    const many = new AgentSession(t);
    try {
      const alone: (string | undefined)[] = [];
      for (const path of plain) alone.push(text(await one.ask({ op: 'version', path })));
      const together = await Promise.all(plain.map((path) => many.ask({ op: 'version', path })));
      expect(together.map(text)).toEqual(alone);
      expect(alone[0]).toBe('one v1.2.3\n');
      expect(alone[2]?.length).toBe(4096);
      expect(alone[3]).toBe('to stderr\n');
      expect(alone[4]).toBeUndefined();
      expect((t.written[0] ?? []).join('')).toMatch(/^versions\n5\n/);
    } finally {
      await one.close();
      await many.close();
    }
  });

  it('run side by side on the node', async () => {
    for (const p of ['left', 'right']) rmSync(join(dir, `${p}.started`), { force: true });
    const s = new AgentSession(new LocalShellTransport(shell));
    try {
      const answers = await Promise.all(pair.map((path) => s.ask({ op: 'version', path })));
      expect(answers.map(text)).toEqual(['left saw right\n', 'right saw left\n']);
    } finally {
      await s.close();
    }
  });
});

describe('versions in a batch', () => {
  const version = (path: string): AgentRequest => ({ op: 'version', path });
  it(`go as one request of at most ${VERSIONS_MAX}, in place; a lone one as itself`, () => {
    const reqs = Array.from({ length: VERSIONS_MAX + 1 }, (_, i) => version(`/v${i}`));
    expect(encodeBatch([version('/a'), { op: 'node' }, ...reqs])).toBe(
      `version\n/a\nnode\nversions\n${VERSIONS_MAX}\n${reqs
        .slice(0, VERSIONS_MAX)
        .map((r) => (r as { path: string }).path)
        .join('\n')}\nversion\n/v${VERSIONS_MAX}\n`,
    );
  });
});

describe('versions wait until no other answer is due', () => {
  const one = plain[0] as string;
  const silent = plain[1] as string;

  it('file questions asked with them go first; the versions follow together', async () => {
    const t = new LocalShellTransport();
    const s = new AgentSession(t);
    try {
      const [a, st, b] = await Promise.all([
        s.ask({ op: 'version', path: one }),
        s.ask({ op: 'stat', path: '/' }),
        s.ask({ op: 'version', path: silent }),
      ]);
      expect(st.type).toBe('dir');
      expect([text(a), text(b)]).toEqual(['one v1.2.3\n', '']);
      expect(t.written[0]).toEqual(['stat\n/\n', `versions\n2\n${one}\n${silent}\n`]);
    } finally {
      await s.close();
    }
  });

  it('one asked while an answer is due waits for it, and goes with those its answer leads to', async () => {
    const t = new LocalShellTransport();
    const s = new AgentSession(t);
    try {
      const st = s.ask({ op: 'stat', path: '/' });
      await new Promise((r) => setImmediate(r)); // the stat is sent
      const a = s.ask({ op: 'version', path: one });
      // What a conf file's answer leads to (the plugins it names): asked as the answer is read.
      const b = st.then(() => s.ask({ op: 'version', path: silent }));
      expect([text(await a), text(await b)]).toEqual(['one v1.2.3\n', '']);
      expect(t.written[0]).toEqual(['stat\n/\n', `versions\n2\n${one}\n${silent}\n`]);
    } finally {
      await s.close();
    }
  });

  it('a relay takes them with it, before itself (nothing may follow a relay)', async () => {
    // A node that reads and never answers: only what was written is looked at.
    const t = new LocalShellTransport([
      'sh',
      '-c',
      "echo '@ cni-doctor-agent 1 B'; exec sleep 100",
      'mute',
    ]);
    const s = new AgentSession(t, { answerMs: 60_000 });
    const asked = [
      s.ask({ op: 'stat', path: '/' }),
      s.ask({ op: 'version', path: one }),
      s.ask({ op: 'relay', path: '/run/x.sock' }),
    ];
    for (const p of asked) p.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(t.written[0]).toEqual([`stat\n/\nversion\n${one}\nrelay\n/run/x.sock\n`]);
    s.abort('test over');
    await s.close();
  });

  it('a session that fails fails the held ones too: nothing waits for ever', async () => {
    // Answers the first question with something that is not an answer.
    const t = new LocalShellTransport([
      'sh',
      '-c',
      "echo '@ cni-doctor-agent 1 B'; read -r op; echo garbage; exec sleep 100",
      'broken',
    ]);
    const s = new AgentSession(t);
    const st = s.ask({ op: 'stat', path: '/' });
    await new Promise((r) => setImmediate(r));
    const v = s.ask({ op: 'version', path: one });
    await expect(st).rejects.toThrow(/could not be read/);
    await expect(v).rejects.toThrow(/could not be read/);
    expect(t.written[0]).toEqual(['stat\n/\n']);
    await s.close();
  });
});
