/**
 * What `collect` loads to write an archive: the tar package's two header classes, not its
 * index (which brings its whole reader and writer, and node:assert with them, into every run).
 * Runs the built CLI (npm run build), as a user does, and reads Node's list of loaded modules.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../../..');
const BIN = join(REPO, 'bin/cni-doctor.cjs');
const work = mkdtempSync(join(tmpdir(), 'collect-modules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('collect into an archive', () => {
  it('does not load the tar package index (nor node:assert, which only it asked for)', () => {
    expect(existsSync(join(REPO, 'dist/cli.cjs')), 'run npm run build first').toBe(true);
    const list = join(work, 'modules.txt');
    const preload = join(work, 'list-modules.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const root = join(REPO, 'fixtures/linux/healthy-containerd-flannel/files');
    const r = spawnSync(
      process.execPath,
      ['-r', preload, BIN, 'collect', '--root', root, '--out', join(work, 'node.tar.gz')],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, CNI_DOCTOR_CODE_CACHE: 'off' } },
    );
    expect(r.status, r.stderr).toBe(0);
    const loaded = readFileSync(list, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule zlib');
    expect(loaded).not.toContain('NativeModule assert');
  });
});
