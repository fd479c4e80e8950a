/**
 * Issue 9 item 4: a conf file named with terminal escapes and a line break reaches `fix`'s
 * preview, `fix --yes`, `history`, `undo` and `scan` only through the one escaping function: no
 * ESC or BEL reaches the terminal, and the name never splits a line of the layout.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRepairCommands } from './repair-commands';
import { makeNodeTree, removeTree, shadowedNode } from '../../../main/repairs/testing/node-tree';
import { newStateDir } from '../../../main/repairs/testing/env';
import { runCli } from '../run-cli.testutil';

const dirs: string[] = [];
afterEach(() => {
  configureRepairCommands({});
  while (dirs.length) removeTree(dirs.pop() as string);
});

const run = runCli;

const EVIL = '05-\x1b[2J\x1b[31mEVIL\x1b[0m\n  2. forged step.conflist';
const SHOWN = '05-\\x1b[2J\\x1b[31mEVIL\\x1b[0m\\x0a  2. forged step.conflist';
const REPAIR = 'cni.conf.shadowed-by-default:disable-files:containerd';

function expectInert(text: string): void {
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  expect(text).not.toContain('\n  2. forged step');
}

describe('node-supplied names in repair output', () => {
  it('are shown escaped in scan, the fix preview, fix --yes, history and undo', async () => {
    const spec = shadowedNode();
    const defaultConf = spec['etc/cni/net.d/10-containerd-net.conflist'];
    delete spec['etc/cni/net.d/10-containerd-net.conflist'];
    const root = makeNodeTree({ ...spec, [`etc/cni/net.d/${EVIL}`]: defaultConf as string });
    const state = newStateDir();
    dirs.push(root, path.dirname(state));
    const flags = ['--root', root, '--state-dir', state];

    const scan = await run('scan', '--root', root);
    expect(scan.out, scan.err).not.toBe('');
    expectInert(scan.out);
    expect(scan.out).toContain(SHOWN);

    const preview = await run('fix', REPAIR, ...flags);
    expect(preview.code, preview.err).toBe(0);
    expectInert(preview.out);
    expect(preview.out).toContain(SHOWN);
    // The step list is exactly the steps: one numbered line each, none forged.
    const steps = preview.out.split('\n').filter((l) => /^ {2}\d+\. /.test(l));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((l) => !l.startsWith('  2. forged'))).toBe(true);

    const applied = await run('fix', REPAIR, '--yes', ...flags);
    expect(applied.code, applied.err).toBe(0);
    expectInert(applied.out + applied.err);
    const entry = /journal entry (\S+)\)/.exec(applied.out)?.[1];
    expect(entry).toBeDefined();

    const history = await run('history', ...flags);
    expectInert(history.out);
    expect(history.out).toContain(SHOWN);

    const undo = await run('undo', entry as string, ...flags);
    expectInert(undo.out);
    expect(undo.out).toContain(SHOWN);
  });
});
