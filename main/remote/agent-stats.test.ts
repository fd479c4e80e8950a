import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockOf, type AgentAnswer } from './agent-protocol';
import {
  AgentSession,
  encodeBatch,
  STATS_MAX,
  statsTogether,
  type AgentRequest,
} from './agent-session';
import { LocalShellTransport } from './testing/local-transport';
import { NODE_SHELLS } from './testing/shells';

const dir = mkdtempSync(join(tmpdir(), 'cnd-agent-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every kind of entry a plugin folder or a conf dir may hold, names wc might print differently.
const names: Record<string, (p: string) => void> = {
  plain: (p) => writeFileSync(p, 'x'.repeat(1234)),
  empty: (p) => writeFileSync(p, ''),
  exec: (p) => {
    writeFileSync(p, '#!/bin/sh\n');
    chmodSync(p, 0o755);
  },
  'trailing space ': (p) => writeFileSync(p, 'ab'),
  '  leading spaces': (p) => writeFileSync(p, 'abc'),
  'back\\slash': (p) => writeFileSync(p, 'abcd'),
  'tab\there': (p) => writeFileSync(p, 'abcde'),
  ünï: (p) => writeFileSync(p, 'abcdef'),
  total: (p) => writeFileSync(p, 'seven!!'),
  folder: (p) => mkdirSync(p),
  dangling: (p) => symlinkSync(join(dir, 'nowhere'), p),
  loop: (p) => symlinkSync(p, p),
  'link-to-plain': (p) => symlinkSync(join(dir, 'plain'), p),
  fifo: (p) => execFileSync('mkfifo', [p]),
};
for (const [n, make] of Object.entries(names)) make(join(dir, n));
const paths = [
  ...Object.keys(names).map((n) => join(dir, n)),
  join(dir, 'missing'),
  join(dir, 'plain'), // the same path twice
  '/proc/version', // a file wc -c must read to size (its st_size is 0)
];

const shells = NODE_SHELLS;

/** Answers as the parser gives them, without what only says how they were framed. */
const plain = (a: AgentAnswer): unknown => ({ ...a, blocks: undefined });

describe.each(shells)('stats asked together (%s)', (_name, shell) => {
  it('answer exactly as the same stats asked one at a time', async () => {
    const one = new AgentSession(new LocalShellTransport(shell));
    const together = new LocalShellTransport(shell);
    const many = new AgentSession(together);
    try {
      const alone: unknown[] = [];
      for (const path of paths) alone.push(plain(await one.ask({ op: 'stat', path })));
      const batch = await Promise.all(paths.map((path) => many.ask({ op: 'stat', path })));
      expect(batch.map(plain)).toEqual(alone);
      // One exchange, one stats request: the folder was sized in one go.
      const sent = together.written[0]?.join('') ?? '';
      expect(sent.match(/^stats$/gm)).toHaveLength(1);
      expect(sent).not.toMatch(/^stat$/m);
      // What the answers say, for the record (proc files are sized by reading them).
      const byName = new Map(paths.map((p, i) => [p, batch[i]]));
      expect(byName.get(join(dir, 'plain'))).toMatchObject({ type: 'file', size: 1234 });
      expect(byName.get(join(dir, 'trailing space '))).toMatchObject({ type: 'file', size: 2 });
      expect(byName.get(join(dir, 'total'))).toMatchObject({ type: 'file', size: 7 });
      expect(byName.get(join(dir, 'exec'))).toMatchObject({ executable: true });
      // An executable's identity (what a plugin's version is remembered under): inode, mtime
      // and ctime in seconds, as this machine's own stat gives them; none for other files.
      const st = statSync(join(dir, 'exec'));
      const secs = (ms: number) => Math.floor(ms / 1000);
      expect(byName.get(join(dir, 'exec'))?.identity).toBe(
        `${st.ino} ${secs(st.mtimeMs)} ${secs(st.ctimeMs)}`,
      );
      expect(byName.get(join(dir, 'plain'))?.identity).toBeUndefined();
      expect(byName.get(join(dir, 'folder'))).toMatchObject({ type: 'dir' });
      expect(byName.get(join(dir, 'fifo'))).toMatchObject({ type: 'other' });
      expect(byName.get(join(dir, 'dangling'))?.error?.code).toBe('ENOENT');
      expect((byName.get('/proc/version')?.size ?? 0) > 0).toBe(true);
    } finally {
      await one.close();
      await many.close();
    }
  });
});

describe('a batch of requests as the agent reads it', () => {
  const stat = (path: string): AgentRequest => ({ op: 'stat', path });
  it('sends a run of stats as one request, in place, and a lone stat as itself', () => {
    expect(
      encodeBatch([
        stat('/a'),
        { op: 'node' },
        stat('/b'),
        stat('/c'),
        { op: 'version', path: '/x' },
      ]),
    ).toBe('stat\n/a\nnode\nstats\n2\n/b\n/c\nversion\n/x\n');
  });

  it(`splits a longer run every ${STATS_MAX} paths`, () => {
    const reqs = Array.from({ length: STATS_MAX * 2 + 1 }, (_, i) => stat(`/f${i}`));
    const text = encodeBatch(reqs);
    expect(text.match(/^stats\n\d+$/gm)).toEqual([`stats\n${STATS_MAX}`, `stats\n${STATS_MAX}`]);
    expect(text.endsWith(`stat\n/f${STATS_MAX * 2}\n`)).toBe(true);
  });
});

describe('the stats of a batch go together, at the place of the first', () => {
  const w = (req: AgentRequest): { req: AgentRequest } => ({ req });
  it('moves later stats up to the first one; the rest keep their order', () => {
    const batch = [
      w({ op: 'node' }),
      w({ op: 'stat', path: '/a' }),
      w({ op: 'read', path: '/a', max: 9 }),
      w({ op: 'stat', path: '/b' }),
      w({ op: 'read', path: '/b', max: 9 }),
      w({ op: 'relay', path: '/s' }),
    ];
    expect(statsTogether(batch).map((x) => x.req)).toEqual([
      { op: 'node' },
      { op: 'stat', path: '/a' },
      { op: 'stat', path: '/b' },
      { op: 'read', path: '/a', max: 9 },
      { op: 'read', path: '/b', max: 9 },
      { op: 'relay', path: '/s' },
    ]);
    expect(statsTogether([w({ op: 'node' })]).map((x) => x.req)).toEqual([{ op: 'node' }]);
  });

  it('a conf read ahead as stat, read, stat, read is one stats request; each gets its own answer', async () => {
    const d = mkdtempSync(join(tmpdir(), 'cnd-stats-order-'));
    try {
      writeFileSync(join(d, '10-a.conf'), 'aaa');
      writeFileSync(join(d, '20-b.conflist'), 'bbbbbb');
      const t = new LocalShellTransport();
      const s = new AgentSession(t);
      const [sa, ra, sb, rb] = await Promise.all([
        s.ask({ op: 'stat', path: join(d, '10-a.conf') }),
        s.ask({ op: 'read', path: join(d, '10-a.conf'), max: 100 }),
        s.ask({ op: 'stat', path: join(d, '20-b.conflist') }),
        s.ask({ op: 'read', path: join(d, '20-b.conflist'), max: 100 }),
      ]);
      await s.close();
      expect([sa.size, sb.size]).toEqual([3, 6]);
      expect([blockOf(ra, 0)?.toString(), blockOf(rb, 0)?.toString()]).toEqual(['aaa', 'bbbbbb']);
      expect(t.written[0]?.[0]).toMatch(/^stats\n2\n/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
