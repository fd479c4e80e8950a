// A hostile node container must never make cni-doctor read or write THIS machine's files
// (issue 20 point 1; red-team review H11/B1). The node's own root swaps its paths while a
// repair command runs: the state dir's journal becomes a symlink right after a recovery writes,
// and a restore target's parent directory is exchanged, over and over, with a symlink to a
// folder of this machine. A canary folder on this machine must stay exactly as it was, and no
// byte of it may end up in the node.
// Run (root): npx vitest run --config e2e/lab/vitest.lab.config.ts e2e/lab/node-escape.lab.test.ts
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/model/repair';
import { parseTarget, type RemoteTarget } from '../../shared/target';
import { targetEnvironment } from '../../main/remote/repair-environment';
import { run } from './exec';
import { startNodeContainer, type NodeContainer } from './node-container';
import { SCENARIOS } from './node-scenarios';
import { swapperBinary } from './node-swapper';

const CLI = fileURLToPath(new URL('../../bin/cni-doctor.mjs', import.meta.url));
const SECRET = `operator-secret-${Date.now()}`;
const CRON_LINE = '* * * * * root touch /tmp/pwned-by-node\n';
const canaries: string[] = [];

let swapper = '';
beforeAll(async () => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url))))
    throw new Error('the lab runs the built CLI: npm run build first');
  swapper = await swapperBinary();
});
afterAll(() => {
  for (const d of canaries) rmSync(d, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args]);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A folder of THIS machine the node aims its symlinks at, with what it holds now. */
function canary(files: Record<string, string> = {}): { dir: string; contents(): string } {
  const dir = mkdtempSync(join(tmpdir(), 'cnd-canary-'));
  canaries.push(dir);
  for (const [n, text] of Object.entries(files)) writeFileSync(join(dir, n), text);
  const contents = (): string =>
    JSON.stringify(
      readdirSync(dir)
        .sort()
        .map((n) => [n, readFileSync(join(dir, n), 'utf8')]),
    );
  return { dir, contents };
}

const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

let planted = 0;
/**
 * An unfinished repair planted in the node's own state dir, as its root could: a `write` step
 * of /foo/pwn that recovery rolls back by restoring the backup `bytes` there.
 */
function plantEntry(node: NodeContainer, bytes: string): string {
  const id = `20261204T1200${String(planted++).padStart(2, '0')}.000Z-abcdef`;
  const state = join(node.rootfs, 'var/lib/cni-doctor');
  for (const d of [state, join(state, 'journal'), join(state, 'backups', id)]) {
    mkdirSync(d, { recursive: true, mode: 0o700 });
    chmodSync(d, 0o700);
  }
  chmodSync(join(state, 'backups'), 0o700);
  writeFileSync(join(state, 'backups', id, 'step1-1.bak'), bytes, { mode: 0o600 });
  const entry: JournalEntry = {
    schema: 'cni-doctor.journal/v1',
    id,
    repair: 'cni.conf.shadowed-by-default:write',
    rule: 'cni.conf.shadowed-by-default',
    findingId: 'planted',
    kind: 'write',
    title: 'planted by the node',
    status: 'applying',
    createdAt: new Date().toISOString(),
    appliedAt: null,
    finishedAt: null,
    root: node.target,
    pid: 1,
    hostname: node.name,
    risk: 'low',
    podImpact: '',
    services: [],
    files: ['/foo/pwn'],
    steps: [
      {
        index: 0,
        step: {
          kind: 'write',
          needsElevation: true,
          path: '/foo/pwn',
          content: 'written by the repair\n',
          expectedSha256: null,
        },
        state: 'started',
        description: 'Write /foo/pwn',
        backups: [
          {
            path: '/foo/pwn',
            file: 'step1-1.bak',
            sha256: sha256(bytes),
            mode: 0o644,
            uid: 0,
            gid: 0,
          },
        ],
      },
    ],
    transitions: [],
  };
  writeFileSync(join(state, 'journal', `${id}.json`), JSON.stringify(entry), { mode: 0o600 });
  return id;
}

/** Every small file of the node's own root (not its bind mounts), searched for `needle`. */
function nodeFilesHolding(node: NodeContainer, needle: string): string[] {
  const hits: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(node.rootfs, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile() && lstatSync(join(node.rootfs, r)).size < 1 << 20)
        if (readFileSync(join(node.rootfs, r), 'utf8').includes(needle)) hits.push(r);
    }
  };
  walk('');
  return hits;
}

async function withNode(body: (n: NodeContainer) => Promise<void>): Promise<void> {
  const s = SCENARIOS.shadowing;
  const node = await startNodeContainer({
    name: 'escape',
    configToml: s.configToml,
    confFiles: s.confFiles,
  });
  try {
    copyFileSync(swapper, join(node.rootfs, 'opt/lab/swapper'));
    chmodSync(join(node.rootfs, 'opt/lab/swapper'), 0o755);
    mkdirSync(join(node.rootfs, 'foo'), { mode: 0o755 });
    await body(node);
  } finally {
    await node.stop();
  }
}

/** Starts the swapper inside the node, detached (it ends by itself). */
async function inNode(node: NodeContainer, args: string[]): Promise<void> {
  const r = await run('podman', ['exec', '-d', node.name, '/opt/lab/swapper', ...args]);
  if (r.code !== 0) throw new Error(`podman exec -d swapper: ${r.stderr}`);
}

describe('a node container that swaps its own paths while cni-doctor works on it', () => {
  it('history: the journal swapped for a symlink to this machine right after the restore writes — nothing lands here', async () => {
    await withNode(async (node) => {
      const here = canary();
      plantEntry(node, CRON_LINE);
      symlinkSync(here.dir, join(node.rootfs, 'var/lib/cni-doctor/jlink'));
      const marker = join(node.rootfs, 'swapped');
      await inNode(node, [
        'watch',
        '/foo',
        '/var/lib/cni-doctor/journal',
        '/var/lib/cni-doctor/jlink',
        '/swapped',
      ]);
      const h = await cli(['history', '--target', node.target, '--json']);
      // The node did swap its journal while the recovery ran (the attack was really made)…
      expect(existsSync(marker), `the swap never happened: ${h.stderr}`).toBe(true);
      expect(lstatSync(join(node.rootfs, 'var/lib/cni-doctor/journal')).isSymbolicLink()).toBe(
        true,
      );
      // …and nothing was written into this machine's folder it pointed at.
      expect(here.contents(), h.stderr).toBe('[]');
      // The restore itself happened in the node, where the node's root could have done it anyway.
      expect(readFileSync(join(node.rootfs, 'foo/pwn'), 'utf8')).toBe(CRON_LINE);
    });
  });

  it("a restore target's parent exchanged with a symlink to this machine in a loop — no write there, no read from there", async () => {
    await withNode(async (node) => {
      const here = canary({ pwn: `${SECRET}\n` });
      const before = here.contents();
      symlinkSync(here.dir, join(node.rootfs, 'foolink'));
      await inNode(node, ['loop', '/foo', '/foolink', '600']);

      // The engine's own file operations on the node, as a restore makes them, many times over.
      const target = parseTarget(node.target);
      if (!target.ok) throw new Error(target.error);
      const env = await targetEnvironment(target.target as RemoteTarget);
      let readSecret = 0;
      let attempts = 0;
      // Four at a time, 20 in all: before the fix, 4 of 5 runs broke (a temp file or the crontab
      // line written here, or this machine's secret read); the fixed code costs program runs.
      const attempt = async (): Promise<void> => {
        attempts++;
        await env.fs.writeAtomic('/foo/pwn', CRON_LINE, { mode: 0o644 }).catch(() => undefined);
        const r = await env.fs.read('/foo/pwn').catch(() => null);
        if (r?.toString('utf8').includes(SECRET)) readSecret++;
      };
      try {
        for (let i = 0; i < 5; i++) {
          await Promise.all([attempt(), attempt(), attempt(), attempt()]);
          expect(here.contents()).toBe(before);
        }
      } finally {
        await env.close();
      }
      expect(attempts).toBe(20);
      expect(readSecret).toBe(0);

      // The whole attack through the CLI: a planted entry recovered by `history`, whose restore
      // reads /foo/pwn (a conflict is kept in the node's backups) and writes the crontab line.
      for (let i = 0; i < 2; i++) {
        plantEntry(node, CRON_LINE);
        const h = await cli(['history', '--target', node.target, '--json']);
        expect(here.contents(), h.stderr).toBe(before);
      }
      // Stop the exchange loop first: this walk runs on this machine, through the node's root, and
      // a name swapped between its readdir and its read would lead it (not the product) here.
      await run('podman', ['exec', node.name, 'pkill', '-f', '[/]opt/lab/swapper']);
      await run('podman', [
        'exec',
        node.name,
        'sh',
        '-c',
        // '[/]opt': the pattern must not match this sh's own command line
        'while pgrep -f "[/]opt/lab/swapper" >/dev/null; do sleep 0.2; done',
      ]);
      expect(nodeFilesHolding(node, SECRET)).toEqual([]);
    });
  }, 300_000);

  it("--root at a running node container's /proc/PID/root, or a link to it, is refused: use --target", async () => {
    await withNode(async (node) => {
      const proc = `/proc/${node.pid}/root`;
      const linkDir = canary().dir;
      symlinkSync(proc, join(linkDir, 'node-root'));
      for (const args of [
        ['history', '--root', proc],
        ['undo', '20261204T120000.000Z-abcdef', '--root', proc, '--yes'],
        ['scan', '--root', join(linkDir, 'node-root')],
        ['collect', '--root', `${proc}/etc`, '--out', join(linkDir, 'b.tar.gz')],
      ]) {
        const r = await cli(args);
        expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(2);
        expect(r.stderr).toMatch(/running process.*--target container:ENGINE\/NAME/);
      }
      expect(readdirSync(linkDir)).toEqual(['node-root']);
    });
  });
});
