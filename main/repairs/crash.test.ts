// Crash safety: `fix --yes` runs as a child process and is SIGKILLed right after each journal
// transition (every boundary between steps, inside a write between "temp file complete" and
// "rename", and inside a rollback). A second CLI run (`history`, which recovers first) must put
// the node back byte for byte and leave no temp or half-written file anywhere.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/model/repair';
import { JournalStore } from './journal/store';
import { applyRepair } from './apply';
import { recoverJournal } from './recover';
import { localEnvironment } from './local-environment';
import { bundleEntry } from './testing/bundle';
import {
  criDisabledNode,
  leftovers,
  makeNodeTree,
  removeTree,
  shadowedNode,
  snapshotTree,
  type TreeEntry,
  type TreeSpec,
} from './testing/node-tree';
import { newStateDir } from './testing/env';

let entry = '';
const cleanup: string[] = [];

beforeAll(async () => {
  entry = await bundleEntry(
    fileURLToPath(new URL('../../app/cli/testing/crash-entry.ts', import.meta.url)),
  );
  cleanup.push(path.dirname(entry));
}, 60_000);

afterAll(() => {
  for (const d of cleanup) removeTree(d);
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

interface Node {
  root: string;
  state: string;
}

function freshNode(spec: TreeSpec): Node {
  const root = makeNodeTree(spec);
  const state = newStateDir();
  cleanup.push(root, path.dirname(state));
  return { root, state };
}

const fixArgs = (n: Node, id: string): string[] => [
  'fix',
  id,
  '--yes',
  '--json',
  '--root',
  n.root,
  '--state-dir',
  n.state,
];

/** Runs tasks with at most `limit` at a time (two CPUs; each child is a separate Node). */
async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (x: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}

async function onlyEntry(state: string): Promise<JournalEntry> {
  const { entries } = await new JournalStore(state).list();
  expect(entries).toHaveLength(1);
  return entries[0] as JournalEntry;
}

interface Outcome {
  point: string;
  statusAtCrash: string;
  tempAtCrash: number;
  finalStatus: string;
  tree: Record<string, TreeEntry>;
  leftovers: string[];
  historyCode: number | null;
  recoveredLine: boolean;
}

/** Recovery through the CLI (a `history` run) or, to keep the suite fast, through the API. */
type RecoverVia = 'cli' | 'api';

async function crashAndRecover(
  spec: TreeSpec,
  id: string,
  point: string,
  extraEnv: Record<string, string>,
  via: RecoverVia,
): Promise<Outcome> {
  const n = freshNode(spec);
  const crashed = await cli(fixArgs(n, id), { ...extraEnv, CNI_DOCTOR_CRASH_AT: point });
  expect(crashed.signal, `${point}: ${crashed.stderr}`).toBe('SIGKILL');
  const atCrash = await onlyEntry(n.state);
  const tempAtCrash = leftovers(n.root).length;
  let historyCode: number | null = 0;
  let recoveredLine: boolean;
  if (via === 'cli') {
    const history = await cli(['history', '--json', '--root', n.root, '--state-dir', n.state]);
    historyCode = history.code;
    recoveredLine = history.stderr.includes(`recovered unfinished repair ${atCrash.id}`);
  } else {
    const r = await recoverJournal(localEnvironment({ root: n.root, stateDir: n.state }));
    recoveredLine = r.recovered.some((x) => x.entry === atCrash.id);
  }
  const after = await onlyEntry(n.state);
  return {
    point,
    statusAtCrash: atCrash.status,
    tempAtCrash,
    finalStatus: after.status,
    tree: snapshotTree(n.root),
    leftovers: [...leftovers(n.root), ...leftovers(n.state)],
    historyCode,
    recoveredLine,
  };
}

async function scenario(
  spec: TreeSpec,
  id: string,
  via: RecoverVia,
  extraEnv: Record<string, string> = {},
) {
  const original = snapshotTree(makeTemp(spec));
  const ref = freshNode(spec);
  const run = await cli(fixArgs(ref, id), { ...extraEnv, CNI_DOCTOR_LIST_POINTS: '1' });
  const points = [...run.stderr.matchAll(/^transition (\S+)$/gm)].map((m) => m[1] as string);
  const result = JSON.parse(run.stdout) as { status: string; entry: string };
  const outcomes = await pool(points, 3, (p) => crashAndRecover(spec, id, p, extraEnv, via));
  return { original, applied: snapshotTree(ref.root), result, code: run.code, points, outcomes };
}

function makeTemp(spec: TreeSpec): string {
  const r = makeNodeTree(spec);
  cleanup.push(r);
  return r;
}

describe('crash at every journal boundary, then recovery', () => {
  it('enable CRI (write + restart): every crash point before "verified" rolls back to the original bytes', async () => {
    const s = await scenario(
      criDisabledNode(),
      'containerd.cri.disabled:containerd-enable-cri',
      'cli',
    );
    expect(s.code).toBe(0);
    expect(s.result.status).toBe('applied');
    expect(s.points).toEqual([
      'planned',
      'backed-up',
      'step-1:started',
      'step-1:temp-written',
      'step-1:done',
      'step-2:started',
      'step-2:done',
      'applied',
      'verified',
    ]);
    for (const o of s.outcomes) {
      expect(o.historyCode, o.point).toBe(0);
      expect(o.leftovers, o.point).toEqual([]);
      if (o.point === 'verified') {
        expect(o.finalStatus).toBe('verified');
        expect(o.tree).toEqual(s.applied);
        expect(o.recoveredLine).toBe(false);
      } else {
        expect(o.finalStatus, o.point).toBe('rolled-back');
        expect(o.tree, o.point).toEqual(s.original);
        expect(o.recoveredLine, o.point).toBe(true);
      }
    }
    // The journal really was where the point says when the process died.
    const at = Object.fromEntries(s.outcomes.map((o) => [o.point, o.statusAtCrash]));
    expect(at).toMatchObject({
      planned: 'planned',
      'backed-up': 'backed-up',
      'step-1:temp-written': 'applying',
      'step-2:done': 'applying',
      applied: 'applied',
    });
    // Killed between "temp file complete" and "rename": a temp file was left, and recovery removed it.
    expect(s.outcomes.find((o) => o.point === 'step-1:temp-written')?.tempAtCrash).toBe(1);
  }, 120_000);

  it('disable two configs (two renames): every crash point before "verified" rolls back', async () => {
    const s = await scenario(
      shadowedNode(),
      'cni.conf.shadowed-by-default:disable-files:containerd',
      'api',
    );
    expect(s.result.status).toBe('applied');
    expect(s.points).toEqual([
      'planned',
      'backed-up',
      'step-1:started',
      'step-1:done',
      'step-2:started',
      'step-2:done',
      'applied',
      'verified',
    ]);
    for (const o of s.outcomes) {
      expect(o.leftovers, o.point).toEqual([]);
      expect(o.tree, o.point).toEqual(o.point === 'verified' ? s.applied : s.original);
      expect(o.finalStatus, o.point).toBe(o.point === 'verified' ? 'verified' : 'rolled-back');
      expect(o.recoveredLine, o.point).toBe(o.point !== 'verified');
    }
  }, 120_000);

  it('a crash during the automatic rollback is finished by recovery', async () => {
    const s = await scenario(
      criDisabledNode(),
      'containerd.cri.disabled:containerd-enable-cri',
      'api',
      { CNI_DOCTOR_STALE_RESCAN: '1' },
    );
    expect(s.code).toBe(2);
    expect(s.result.status).toBe('rolled-back');
    expect(s.applied).toEqual(s.original);
    expect(s.points.slice(-5)).toEqual([
      'applied',
      'rolling-back',
      'rollback-step-1:reverted',
      'rollback-step-2:reverted',
      'rolled-back',
    ]);
    for (const o of s.outcomes) {
      expect(o.leftovers, o.point).toEqual([]);
      expect(o.tree, o.point).toEqual(s.original);
      expect(o.finalStatus, o.point).toBe('rolled-back');
    }
  }, 120_000);
});

const SHADOW = 'cni.conf.shadowed-by-default:disable-files:containerd';

/** A node with SHADOW applied in-process (fast), returning its journal entry id. */
async function appliedNode(): Promise<Node & { entry: string }> {
  const n = freshNode(shadowedNode());
  const r = await applyRepair(
    localEnvironment({ root: n.root, stateDir: n.state, isElevated: () => true }),
    SHADOW,
  );
  expect(r.status).toBe('applied');
  return { ...n, entry: r.entry as string };
}

const target = (n: Node): string[] => ['--root', n.root, '--state-dir', n.state];
const pointsOf = (stderr: string): string[] =>
  [...stderr.matchAll(/^transition (\S+)$/gm)].map((m) => m[1] as string);

describe('crash during undo and during recovery, and two runs on one node (issue 9)', () => {
  it('undo killed at every point: recovery finishes the undo, back to the original bytes', async () => {
    const original = snapshotTree(makeTemp(shadowedNode()));
    const ref = await appliedNode();
    const listed = await cli(['undo', ref.entry, '--yes', ...target(ref)], {
      CNI_DOCTOR_LIST_POINTS: '1',
    });
    expect(listed.code, listed.stderr).toBe(0);
    const points = pointsOf(listed.stderr);
    expect(points).toEqual(['undoing', 'undo-step-2:reverted', 'undo-step-1:reverted', 'undone']);
    const outcomes = await pool(points, 2, async (point) => {
      const n = await appliedNode();
      const killed = await cli(['undo', n.entry, '--yes', ...target(n)], {
        CNI_DOCTOR_CRASH_AT: point,
      });
      expect(killed.signal, point).toBe('SIGKILL');
      await recoverJournal(localEnvironment({ root: n.root, stateDir: n.state }));
      return {
        point,
        tree: snapshotTree(n.root),
        status: (await onlyEntry(n.state)).status,
        left: [...leftovers(n.root), ...leftovers(n.state)],
      };
    });
    for (const o of outcomes) {
      expect(o.tree, o.point).toEqual(original);
      expect(o.status, o.point).toBe('undone');
      expect(o.left, o.point).toEqual([]);
    }
  }, 120_000);

  it('recovery killed at every point is finished by the next recovery', async () => {
    const spec = shadowedNode();
    const original = snapshotTree(makeTemp(spec));
    const crashedFix = async (): Promise<Node> => {
      const n = freshNode(spec);
      const r = await cli(fixArgs(n, SHADOW), { CNI_DOCTOR_CRASH_AT: 'applied' });
      expect(r.signal).toBe('SIGKILL');
      return n;
    };
    const ref = await crashedFix();
    const listed = await cli(['history', ...target(ref)], { CNI_DOCTOR_LIST_POINTS: '1' });
    const points = pointsOf(listed.stderr);
    expect(points).toEqual([
      'rolling-back',
      'rollback-step-2:reverted',
      'rollback-step-1:reverted',
      'rolled-back',
    ]);
    const outcomes = await pool(points, 2, async (point) => {
      const n = await crashedFix();
      const killed = await cli(['history', ...target(n)], { CNI_DOCTOR_CRASH_AT: point });
      expect(killed.signal, point).toBe('SIGKILL');
      await recoverJournal(localEnvironment({ root: n.root, stateDir: n.state }));
      return {
        point,
        tree: snapshotTree(n.root),
        status: (await onlyEntry(n.state)).status,
        left: [...leftovers(n.root), ...leftovers(n.state)],
      };
    });
    for (const o of outcomes) {
      expect(o.tree, o.point).toEqual(original);
      expect(o.status, o.point).toBe('rolled-back');
      expect(o.left, o.point).toEqual([]);
    }
  }, 120_000);

  it('two fixes at once on one node (separate state dirs), one killed at each point: before or after, never between', async () => {
    const spec = shadowedNode();
    const original = snapshotTree(makeTemp(spec));
    const ref = freshNode(spec);
    const run = await cli(fixArgs(ref, SHADOW), { CNI_DOCTOR_LIST_POINTS: '1' });
    const applied = snapshotTree(ref.root);
    const points = pointsOf(run.stderr);
    expect(points.length).toBeGreaterThan(5);
    const outcomes = await pool(points, 1, async (point) => {
      const a = freshNode(spec);
      const b: Node = { root: a.root, state: newStateDir() };
      cleanup.push(path.dirname(b.state));
      const [killed, other] = await Promise.all([
        cli(fixArgs(a, SHADOW), { CNI_DOCTOR_CRASH_AT: point }),
        cli(fixArgs(b, SHADOW)),
      ]);
      // Whatever the interleaving, the next run on the node (either state dir) recovers first.
      for (const s of [a.state, b.state])
        await recoverJournal(localEnvironment({ root: a.root, stateDir: s }));
      const claimed = other.stdout ? (JSON.parse(other.stdout) as { status: string }).status : '';
      return {
        point,
        killed: killed.signal,
        claimed,
        tree: snapshotTree(a.root),
        left: leftovers(a.root),
      };
    });
    for (const o of outcomes) {
      expect([original, applied], o.point).toContainEqual(o.tree);
      // A run that says "applied and verified" left the node repaired.
      if (o.claimed === 'applied') expect(o.tree, o.point).toEqual(applied);
      expect(o.left, o.point).toEqual([]);
    }
  }, 240_000);
});
