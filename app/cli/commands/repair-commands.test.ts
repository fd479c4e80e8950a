import * as path from 'node:path';
import { appendFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRepairCommands } from './repair-commands';
import { localEnvironment } from '../../../main/repairs';
import {
  criDisabledNode,
  makeNodeTree,
  removeTree,
  shadowedNode,
  snapshotTree,
  type TreeSpec,
} from '../../../main/repairs/testing/node-tree';
import { newStateDir } from '../../../main/repairs/testing/env';
import { runCli } from '../run-cli.testutil';

const dirs: string[] = [];
afterEach(() => {
  configureRepairCommands({});
  while (dirs.length) removeTree(dirs.pop() as string);
});

function node(spec: TreeSpec): { root: string; state: string } {
  const root = makeNodeTree(spec);
  const state = newStateDir();
  dirs.push(root, path.dirname(state));
  return { root, state };
}

const run = runCli;

const ENABLE_CRI = 'containerd.cri.disabled:containerd-enable-cri';

describe('cni-doctor fix / undo / history', () => {
  it('fix without --yes previews and changes nothing', async () => {
    const n = node(criDisabledNode());
    const before = snapshotTree(n.root, { mtime: true });
    const r = await run('fix', ENABLE_CRI, '--root', n.root, '--state-dir', n.state);
    expect(r.code).toBe(0);
    expect(r.out).toContain('-disabled_plugins = ["cri"]\n+disabled_plugins = []');
    expect(r.out).toMatch(
      /Nothing was changed\. To apply: .*fix containerd\.cri\.disabled:containerd-enable-cri --yes --root .* --preview-token [A-Za-z0-9_-]+/,
    );
    expect(snapshotTree(n.root, { mtime: true })).toEqual(before);
  });

  it('fix --yes --json applies, prints the documented shape, exits 0; history and undo follow', async () => {
    const n = node(criDisabledNode());
    const original = snapshotTree(n.root);
    const r = await run(
      'fix',
      ENABLE_CRI,
      '--yes',
      '--json',
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(doc).slice(0, 5)).toEqual([
      'entry',
      'repair',
      'status',
      'reason',
      'verification',
    ]);
    expect(doc).toMatchObject({
      repair: ENABLE_CRI,
      status: 'applied',
      verification: { passed: true, resolved: true },
    });

    const h = await run('history', '--json', '--root', n.root, '--state-dir', n.state);
    expect(h.code).toBe(0);
    expect(JSON.parse(h.out)).toEqual({
      entries: [
        {
          id: doc.entry,
          repair: ENABLE_CRI,
          rule: 'containerd.cri.disabled',
          // The same fields the text history shows: title, node, when, outcome, reason.
          title: expect.stringContaining('Remove "cri" from disabled_plugins'),
          status: 'verified',
          createdAt: expect.any(String),
          appliedAt: expect.any(String),
          finishedAt: expect.any(String),
          hostname: expect.any(String),
          root: n.root,
          reason: null, // verified: nothing to explain
          files: ['/etc/containerd/config.toml'],
          findingId: 'containerd.cri.disabled',
        },
      ],
    });

    const preview = await run(
      'undo',
      doc.entry as string,
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    expect(preview.code).toBe(0);
    expect(preview.out).toContain('/etc/containerd/config.toml');
    // The preview diffs each file from what the node holds now to what undo puts back.
    expect(preview.out).toContain('/etc/containerd/config.toml gets its content from before');
    expect(preview.out).toMatch(/^ {4}--- a\/etc\/containerd\/config\.toml$/m);
    const u = await run(
      'undo',
      doc.entry as string,
      '--yes',
      '--json',
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    expect(u.code).toBe(0);
    expect(JSON.parse(u.out)).toMatchObject({ entry: doc.entry, status: 'undone' });
    expect(snapshotTree(n.root)).toEqual(original);
  });

  it('history lists newest first', async () => {
    const n = node({
      ...shadowedNode(),
      'etc/containerd/config.toml': criDisabledNode()['etc/containerd/config.toml'] as string,
    });
    const a = JSON.parse(
      (await run('fix', ENABLE_CRI, '--yes', '--json', '--root', n.root, '--state-dir', n.state))
        .out,
    ) as { entry: string };
    const b = JSON.parse(
      (
        await run(
          'fix',
          'cni.conf.shadowed-by-default:disable-files:containerd',
          '--yes',
          '--json',
          '--root',
          n.root,
          '--state-dir',
          n.state,
        )
      ).out,
    ) as { entry: string };
    const h = JSON.parse(
      (await run('history', '--json', '--root', n.root, '--state-dir', n.state)).out,
    ) as { entries: { id: string }[] };
    expect(h.entries.map((e) => e.id)).toEqual([b.entry, a.entry]);
  });

  it('a rolled-back fix exits 2 with the reason on stderr and the JSON on stdout', async () => {
    const n = node(criDisabledNode());
    configureRepairCommands({
      environment: (opts) => {
        const env = localEnvironment(opts);
        const stale = env.scan();
        return { ...env, rescan: () => stale };
      },
    });
    const r = await run(
      'fix',
      ENABLE_CRI,
      '--yes',
      '--json',
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({
      status: 'rolled-back',
      verification: { passed: false },
    });
    expect(r.err).toMatch(
      /^cni-doctor fix: rolled-back: verification failed: the problem is still there after a rescan/,
    );
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('refusals exit 2: unknown id, stale preview token, bundles', async () => {
    const n = node(criDisabledNode());
    const unknown = await run(
      'fix',
      'no.such:repair',
      '--yes',
      '--json',
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.out)).toMatchObject({ entry: null, status: 'refused' });

    const preview = await run(
      'fix',
      ENABLE_CRI,
      '--json',
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    const token = (JSON.parse(preview.out) as { previewToken: string }).previewToken;
    appendFileSync(path.join(n.root, 'etc/containerd/config.toml'), '\n');
    const stale = await run(
      'fix',
      ENABLE_CRI,
      '--yes',
      '--preview-token',
      token,
      '--root',
      n.root,
      '--state-dir',
      n.state,
    );
    expect(stale.code).toBe(2);
    expect(stale.err).toContain('/etc/containerd/config.toml changed since the preview');

    const bundle = await run('fix', ENABLE_CRI, '--yes', '--bundle', '/tmp/x.tar.gz');
    expect(bundle.code).toBe(2);
    expect(bundle.err).toMatch(/bundle .*cannot be repaired/);

    expect((await run('fix', '--yes')).code).toBe(2);
    expect((await run('undo', 'not-an-id', '--yes', '--state-dir', n.state)).code).toBe(2);
  });
});
