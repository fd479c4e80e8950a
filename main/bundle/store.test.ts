import { afterAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  mkdtempSync,
  mkdirSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { create as tarCreate } from 'tar';
import { ArchiveStore, openBundleStore } from './store';

const work = mkdtempSync(path.join(tmpdir(), 'archive-store-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A .tar.gz bundle whose files/ holds `files` (name → size in bytes of 'x'). */
async function archive(name: string, files: Record<string, number>): Promise<string> {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'files'), { recursive: true });
  writeFileSync(
    path.join(dir, 'manifest.json'),
    '{"format":"cni-doctor.bundle/v1","host":{"os":"linux"}}',
  );
  for (const [f, size] of Object.entries(files))
    writeFileSync(path.join(dir, 'files', f), 'x'.repeat(size));
  const out = path.join(work, `${name}.tar.gz`);
  await tarCreate({ gzip: true, file: out, cwd: dir, portable: true }, ['manifest.json', 'files']);
  return out;
}

const limits = { maxEntries: 100, maxTotalBytes: 10_000, maxEntryBytes: 4_000 };

describe('ArchiveStore caps', () => {
  it('reads an archive within the caps', async () => {
    const store = await ArchiveStore.open(await archive('ok', { a: 3_000, b: 3_000 }), limits);
    expect((await store.listFiles()).sort()).toEqual(['a', 'b']);
  });

  // One oversized entry is a bomb: it is refused before the whole of it is buffered.
  it('refuses one entry larger than maxEntryBytes', async () => {
    await expect(
      ArchiveStore.open(await archive('big-entry', { a: 5_000 }), limits),
    ).rejects.toThrow(/archive entry "files\/a" unpacks to more than 4000 bytes/);
  });

  it('refuses entries that together exceed maxTotalBytes', async () => {
    await expect(
      ArchiveStore.open(await archive('big-total', { a: 3_900, b: 3_900, c: 3_900 }), limits),
    ).rejects.toThrow(/unpacks to more than 10000 bytes/);
  });
});

describe('DirectoryStore reads', () => {
  // A folder bundle may hold a huge file (hand-made, or a log copied in): only the part asked for
  // is read, so a 3 GB sparse log costs a few bytes, not 3 GB of memory.
  it('reads the head or the tail of a huge file, and reports its full size', async () => {
    const dir = path.join(work, 'folder');
    mkdirSync(path.join(dir, 'files/var/log'), { recursive: true });
    writeFileSync(
      path.join(dir, 'manifest.json'),
      '{"format":"cni-doctor.bundle/v1","host":{"os":"linux"}}',
    );
    const log = path.join(dir, 'files/var/log/containerd.log');
    const size = 3 * 1024 ** 3;
    const fd = openSync(log, 'w');
    writeSync(fd, 'head', 0);
    writeSync(fd, 'tail\n', size - 5);
    closeSync(fd);
    const store = await openBundleStore(dir);
    expect(await store.read('var/log/containerd.log', { tailBytes: 5 })).toEqual({
      ok: true,
      data: Buffer.from('tail\n'),
      size,
    });
    expect(await store.read('var/log/containerd.log', { maxBytes: 4 })).toEqual({
      ok: true,
      data: Buffer.from('head'),
      size,
    });
  });
});
