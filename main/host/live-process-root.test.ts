import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveProcessRootProblem } from './live-process-root';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cnd-live-root-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--root naming a running process file system', () => {
  it.each([
    '/proc/1234/root',
    '/proc/1234/root/',
    '/proc/1234/root/etc/cni',
    '/proc/self/root',
    '/proc/thread-self/cwd/x',
    '/proc/1/task/7/root',
    '/proc/1234/./root',
  ])('%s is refused, pointing at --target container:', async (p) => {
    expect(await liveProcessRootProblem(p)).toMatch(/running process.*--target container:/);
  });

  it('an ordinary folder, a relative path and a symlink to a folder are accepted', async () => {
    symlinkSync(dir, join(dir, '..', `${dir.split('/').pop() as string}-link`));
    try {
      expect(await liveProcessRootProblem(dir)).toBeNull();
      expect(await liveProcessRootProblem(`${dir}-link`)).toBeNull();
      expect(await liveProcessRootProblem('.')).toBeNull();
      expect(await liveProcessRootProblem('/proc/1234')).toBeNull();
      expect(await liveProcessRootProblem(join(dir, 'missing'))).toBeNull();
    } finally {
      rmSync(`${dir}-link`, { force: true });
    }
  });
});
