// Issue 9 items 1, 2 and 9: the state dir and the journal are trust boundaries. A journal someone
// else could write (on the examined disk, in a world-writable or foreign-owned state dir, or made
// for another root) is never executed; a restored file never gains set-uid bits it did not have.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../main';
import { selfCommand } from '../invocation';
import type { Io } from '../io';
import { applyRepair } from '../../../main/repairs/apply';
import { sha256 } from '../../../main/repairs/hash';
import { JournalStore } from '../../../main/repairs/journal/store';
import { recoverJournal } from '../../../main/repairs/recover';
import { defaultStateDir } from '../../../main/repairs/state-dir';
import { undoEntry } from '../../../main/repairs/undo';
import { makeNodeTree, shadowedNode, snapshotTree } from '../../../main/repairs/testing/node-tree';
import { newStateDir, testEnvironment } from '../../../main/repairs/testing/env';
import {
  NOBODY,
  plantedEntry,
  plantJournal,
  type PlantedWrite,
} from '../../../main/repairs/testing/plant';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop() as string, { recursive: true, force: true });
});

function tmp(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    progress: () => undefined,
    isTty: false,
  };
  return { code: await main(argv, io), out, err };
}

const ID = '20260101T000000.000Z-abcdef';
const root = process.getuid?.() === 0;

/** A target outside every root: the file the attacker wants root to create. */
function victim(): string {
  return path.join(tmp('cnid-victim-'), 'x');
}

const setuidWrite = (p: string): PlantedWrite[] => [
  { path: p, backup: '#!/bin/sh\n', mode: 0o4755 },
];

describe('item 1: a planted journal never writes outside the root or mints a set-uid file', () => {
  it('a journal on the examined disk is reported, never read or executed (history --root DIR)', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const x = victim();
    const entry = plantedEntry(ID, '/', setuidWrite(x));
    plantJournal(path.join(disk, 'var/lib/cni-doctor'), entry, setuidWrite(x));
    const h = await cli('history', '--json', '--root', disk);
    expect(existsSync(x)).toBe(false);
    expect(h.err).toMatch(/examined disk holds a cni-doctor journal .* never read or executed/);
    expect(JSON.parse(h.out)).toEqual({ entries: [] });
    // The default state dir for this root is on this machine, not on the disk.
    expect(defaultStateDir('linux', disk).startsWith(disk)).toBe(false);
  });

  it('a world-writable --state-dir is refused and nothing in it runs', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const x = victim();
    const state = path.join(tmp('cnid-ww-'), 'state');
    plantJournal(state, plantedEntry(ID, '/', setuidWrite(x)), setuidWrite(x));
    chmodSync(state, 0o777);
    const h = await cli('history', '--root', disk, '--state-dir', state);
    expect(existsSync(x)).toBe(false);
    expect(h.code).toBe(2);
    expect(h.err).toMatch(/refusing the state dir .* writable by every user/);
    // fix refuses too, before touching the node.
    const before = snapshotTree(disk, { mtime: true });
    const f = await cli(
      'fix',
      'cni.conf.shadowed-by-default:disable-files:containerd',
      '--yes',
      '--root',
      disk,
      '--state-dir',
      state,
    );
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/writable by every user/);
    expect(snapshotTree(disk, { mtime: true })).toEqual(before);
  });

  it.skipIf(!root)('a --state-dir owned by another user is refused', async () => {
    const x = victim();
    const state = path.join(tmp('cnid-other-'), 'state');
    plantJournal(state, plantedEntry(ID, '/', setuidWrite(x)), setuidWrite(x), NOBODY);
    chmodSync(state, 0o700);
    const h = await cli('history', '--state-dir', state);
    expect(existsSync(x)).toBe(false);
    expect(h.err).toMatch(/owned by uid 65534/);
    const u = await undoEntry(testEnvironment('/', { stateDir: state }), ID);
    expect(u).toMatchObject({ status: 'refused', reason: expect.stringMatching(/uid 65534/) });
    expect(existsSync(x)).toBe(false);
  });

  it('an entry made for another root is left alone, naming both roots', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const x = victim();
    const state = newStateDir();
    dirs.push(path.dirname(state));
    plantJournal(state, plantedEntry(ID, '/', setuidWrite(x)), setuidWrite(x));
    const h = await cli('history', '--root', disk, '--state-dir', state);
    expect(existsSync(x)).toBe(false);
    expect(h.err).toContain(
      `entry ${ID} was left alone: it was made for root /, and this run names root ${disk}`,
    );
  });

  it('inside the root: special bits are never restored (with or without an owner), a damaged backup is not restored', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const state = newStateDir();
    dirs.push(path.dirname(state));
    const writes: PlantedWrite[] = [
      { path: '/etc/cni/net.d/tool', backup: '#!/bin/sh\n', mode: 0o6755 },
      { path: '/etc/cni/net.d/tool2', backup: '#!/bin/sh\n', mode: 0o4755, uid: 0, gid: 0 },
      { path: '/etc/cni/net.d/99-x.conflist', backup: '{}', sha256: 'a'.repeat(64) },
    ];
    plantJournal(state, plantedEntry(ID, disk, writes), writes);
    const r = await recoverJournal(testEnvironment(disk, { stateDir: state }));
    expect(r.recovered).toHaveLength(1);
    const tool = lstatSync(path.join(disk, 'etc/cni/net.d/tool'));
    expect(tool.mode & 0o7777).toBe(0o755);
    expect(lstatSync(path.join(disk, 'etc/cni/net.d/tool2')).mode & 0o7777).toBe(0o755);
    expect(existsSync(path.join(disk, 'etc/cni/net.d/99-x.conflist'))).toBe(false);
    expect(r.recovered[0]?.detail).toMatch(/damaged \(hash mismatch\)/);
  });

  it('paths that climb out, backups outside the entry and unknown kinds are refused whole', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const state = newStateDir();
    dirs.push(path.dirname(state));
    const writes: PlantedWrite[] = [{ path: '/etc/../../../tmp/x', backup: 'x' }];
    plantJournal(state, plantedEntry(ID, disk, writes), writes);
    const r = await recoverJournal(testEnvironment(disk, { stateDir: state }));
    expect(r.recovered).toEqual([]);
    expect(r.skipped?.[0]).toMatch(/invalid path/);
  });
});

describe('item 2: the state dir never follows a symlink', () => {
  it('fix --root DIR keeps its journal on this machine even when DIR/var/lib points elsewhere', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const elsewhere = tmp('cnid-elsewhere-');
    rmSync(path.join(disk, 'var/lib'), { recursive: true, force: true });
    mkdirSync(path.join(disk, 'var'), { recursive: true });
    symlinkSync(elsewhere, path.join(disk, 'var/lib'));
    const state = defaultStateDir('linux', disk);
    const existed = existsSync(path.dirname(path.dirname(state)));
    try {
      const r = await cli(
        'fix',
        'cni.conf.shadowed-by-default:disable-files:containerd',
        '--yes',
        '--json',
        '--root',
        disk,
      );
      expect(JSON.parse(r.out)).toMatchObject({ status: 'applied' });
      expect(readdirSync(elsewhere)).toEqual([]);
      const { entries } = await (await JournalStore.open(state, { create: false }))!.list();
      expect(entries.map((e) => e.root)).toEqual([disk]);
      expect(lstatSync(state).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(existed ? state : path.dirname(path.dirname(state)), { recursive: true, force: true });
    }
  });

  it('a symlinked --state-dir, or one under a symlinked parent, is refused with nothing done', async () => {
    const disk = makeNodeTree(shadowedNode());
    dirs.push(disk);
    const base = tmp('cnid-link-');
    const real = path.join(base, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, path.join(base, 'link'));
    const before = snapshotTree(disk, { mtime: true });
    for (const state of [path.join(base, 'link'), path.join(base, 'link', 'state')]) {
      const r = await applyRepair(
        testEnvironment(disk, { stateDir: state }),
        'cni.conf.shadowed-by-default:disable-files:containerd',
      );
      expect(r).toMatchObject({ status: 'refused', reason: expect.stringMatching(/is a symlink/) });
    }
    expect(readdirSync(real)).toEqual([]);
    expect(snapshotTree(disk, { mtime: true })).toEqual(before);
  });

  it.skipIf(!root)('a parent writable by others without the sticky bit is refused', async () => {
    const base = tmp('cnid-parent-');
    chmodSync(base, 0o777);
    const r = await applyRepair(
      testEnvironment(makeTempDisk(), { stateDir: path.join(base, 'state') }),
      'cni.conf.shadowed-by-default:disable-files:containerd',
    );
    expect(r).toMatchObject({ reason: expect.stringMatching(/writable by every user/) });
    expect(existsSync(path.join(base, 'state'))).toBe(false);
  });
});

function makeTempDisk(): string {
  const d = makeNodeTree(shadowedNode());
  dirs.push(d);
  return d;
}

describe('item 3: a rename is reverted only when this entry made it', () => {
  it('recovery leaves a renamed file alone that is not the one this entry renamed', async () => {
    const disk = makeTempDisk();
    const from = '/etc/cni/net.d/10-containerd-net.conflist';
    const to = `${from}.disabled`;
    // Someone else moved the file and changed it; our run died before its own rename.
    const real = path.join(disk, from);
    const original = readFileSync(real);
    renameSync(real, path.join(disk, to));
    writeFileSync(path.join(disk, to), '{"someone":"else"}');
    const state = newStateDir();
    dirs.push(path.dirname(state));
    const entry = plantedEntry(ID, disk, []);
    entry.files = [from, to];
    entry.steps = [
      {
        index: 0,
        step: { kind: 'rename', from, to, needsElevation: false },
        state: 'started',
        description: 'rename',
        backups: [
          { path: from, file: '1-1.bak', sha256: sha256(original), mode: 0o644 },
          { path: to, file: null, sha256: null },
        ],
      },
    ];
    plantJournal(state, entry, []);
    writeFileSync(path.join(state, 'backups', ID, '1-1.bak'), original);
    const before = snapshotTree(disk);
    const r = await recoverJournal(testEnvironment(disk, { stateDir: state }));
    expect(r.recovered[0]?.detail).toMatch(/not renaming .* back .* does not hold what/);
    expect(snapshotTree(disk)).toEqual(before);
  });
});

describe('item 9: hints, foreign roots and leftovers', () => {
  it('undo ID --root A on an entry made for root B refuses, naming both', async () => {
    const b = makeTempDisk();
    const a = makeTempDisk();
    const state = newStateDir();
    dirs.push(path.dirname(state));
    const fix = await cli(
      'fix',
      'cni.conf.shadowed-by-default:disable-files:containerd',
      '--yes',
      '--json',
      '--root',
      b,
      '--state-dir',
      state,
    );
    const id = (JSON.parse(fix.out) as { entry: string }).entry;
    const afterFix = snapshotTree(b);
    const beforeA = snapshotTree(a);
    for (const extra of [[], ['--yes']]) {
      const u = await cli('undo', id, ...extra, '--root', a, '--state-dir', state);
      expect(u.code).toBe(2);
      expect(u.err).toContain(`made for root ${b}, and this run names root ${a}`);
    }
    expect(snapshotTree(b)).toEqual(afterFix);
    expect(snapshotTree(a)).toEqual(beforeA);
  });

  it('rerun and undo hints keep --root and --state-dir, shell-quoted', async () => {
    const base = tmp('cnid-q-');
    const disk = path.join(base, "node disk's $HOME");
    makeNodeTree(shadowedNode(), (mkdirSync(disk), disk));
    const state = path.join(base, 'state dir');
    const id = 'cni.conf.shadowed-by-default:disable-files:containerd';
    const p = await cli('fix', id, '--root', disk, '--state-dir', state);
    // The hints repeat how this CLI was started (invocation.ts), not always `npx`.
    const self = selfCommand().join(' ');
    expect(p.out).toContain(
      `${self} fix ${id} --yes --root '${base}/node disk'\\''s $HOME' --state-dir '${state}' --preview-token `,
    );
    const f = await cli('fix', id, '--yes', '--root', disk, '--state-dir', state);
    expect(f.out).toMatch(
      new RegExp(
        `undo with: ${self} undo \\S+ --yes --root '${base}/node disk'\\\\''s \\$HOME' --state-dir '${state}'`,
      ),
    );
  });

  it('a journal temp file left by a kill is removed by the next run', async () => {
    const state = newStateDir();
    dirs.push(path.dirname(state));
    await JournalStore.open(state, { create: true });
    const temp = path.join(state, 'journal', '.cni-doctor-0123456789abcdef.tmp');
    writeFileSync(temp, '{"half":');
    const h = await cli('history', '--root', makeTempDisk(), '--state-dir', state);
    expect(h.code).toBe(0);
    expect(existsSync(temp)).toBe(false);
  });
});

describe('item 9: no pid-file lock', () => {
  it('a lock file naming a live unrelated pid (the old scheme) does not block a repair', async () => {
    const disk = makeTempDisk();
    const state = newStateDir();
    dirs.push(path.dirname(state));
    await JournalStore.open(state, { create: true });
    writeFileSync(path.join(state, 'lock'), '1\n'); // pid 1 is always alive
    const r = await applyRepair(
      testEnvironment(disk, { stateDir: state }),
      'cni.conf.shadowed-by-default:disable-files:containerd',
    );
    expect(r.status).toBe('applied');
  });
});
