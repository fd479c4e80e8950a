import { afterAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  readdirSync,
  statSync,
  mkdtempSync,
  mkdirSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { create as tarCreate } from 'tar';
import { ArchiveStore, openBundleStore } from './store';
import { writeTarGz } from '../../fixtures/hostile/tar-writer';

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

const limits = {
  maxEntries: 100,
  maxTotalBytes: 10_000,
  maxEntryBytes: 4_000,
  maxRatio: 1000,
  ratioGraceBytes: 1_000_000,
};

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

describe('ArchiveStore unpacks once into a private folder (issue 9 item 7)', () => {
  it('refuses an archive that inflates past the ratio, however small each entry is', async () => {
    const bomb = path.join(work, 'ratio.tar.gz');
    await writeTarGz(bomb, [
      { name: 'manifest.json', data: Buffer.from('{"format":"cni-doctor.bundle/v1"}') },
      { name: 'files/a', zeros: 3 * 1024 * 1024 },
      { name: 'files/b', zeros: 3 * 1024 * 1024 },
    ]);
    const caps = {
      ...limits,
      maxTotalBytes: 1e9,
      maxEntryBytes: 1e9,
      maxRatio: 100,
      ratioGraceBytes: 1024 * 1024,
    };
    await expect(ArchiveStore.open(bomb, caps, tmpRoot)).rejects.toThrow(
      /more than 100 times its compressed size/,
    );
    // Nothing left behind by the refused archive.
    expect(unpackedDirs()).toEqual(before);
  });

  const tmpRoot = path.join(work, 'unpacked');
  mkdirSync(tmpRoot);
  const before: string[] = [];
  function unpackedDirs(): string[] {
    return readdirSync(tmpRoot).sort();
  }

  it('keeps small files in memory, spills large ones 0600 into a 0700 folder, removes it on close', async () => {
    const file = path.join(work, 'links.tar.gz');
    const big = Buffer.alloc(3 * 1024 * 1024, 'y');
    await writeTarGz(file, [
      { name: 'manifest.json', data: Buffer.from('{"format":"cni-doctor.bundle/v1"}') },
      { name: 'files/etc/passwd-link', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'files/etc/x.conf', data: Buffer.from('x') },
      { name: 'files/etc/x.conf', data: Buffer.from('second wins') },
      { name: 'files/var/log/big.log', data: big },
    ]);
    const store = await ArchiveStore.open(
      file,
      { ...limits, maxTotalBytes: 1e9, maxEntryBytes: 1e9 },
      tmpRoot,
    );
    const dir = unpackedDirs().find((d) => !before.includes(d));
    expect(dir).toBeDefined();
    const abs = path.join(tmpRoot, dir ?? '');
    expect(statSync(abs).mode & 0o777).toBe(0o700);
    const spilled = readdirSync(abs);
    expect(spilled).toHaveLength(1);
    expect(statSync(path.join(abs, spilled[0] ?? '')).mode & 0o777).toBe(0o600);
    expect((await store.listFiles()).sort()).toEqual(['etc/x.conf', 'var/log/big.log']);
    const read = await store.read('etc/x.conf');
    expect(read.ok && read.data.toString()).toBe('second wins');
    const tail = await store.read('var/log/big.log', { tailBytes: 4 });
    expect(tail).toEqual({ ok: true, data: Buffer.from('yyyy'), size: big.length });
    await store.close();
    expect(unpackedDirs()).toEqual(before);
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

describe('DirectoryStore with blocking calls (the CLI)', () => {
  it('answers every read, listing and refusal exactly as with the thread pool', async () => {
    const dir = path.join(work, 'hostile-folder');
    const files = path.join(dir, 'files');
    mkdirSync(path.join(files, 'etc/cni/net.d/sub'), { recursive: true });
    writeFileSync(
      path.join(dir, 'manifest.json'),
      '{"format":"cni-doctor.bundle/v1","host":{"os":"linux"}}',
    );
    writeFileSync(path.join(files, 'etc/cni/net.d/10-a.conflist'), '{"name":"a"}');
    symlinkSync('/etc/passwd', path.join(files, 'etc/cni/net.d/20-escape.conflist'));
    symlinkSync('10-a.conflist', path.join(files, 'etc/cni/net.d/30-inside.conflist'));
    symlinkSync('loop', path.join(files, 'etc/cni/net.d/loop'));
    execFileSync('mkfifo', [path.join(files, 'etc/cni/net.d/40-fifo.conflist')]);
    const ask = async (blocking: boolean): Promise<unknown[]> => {
      const store = await openBundleStore(dir, { blockingIo: blocking });
      const out: unknown[] = [await store.readManifest(), (await store.listFiles()).sort()];
      for (const rel of [
        'etc/cni/net.d/10-a.conflist',
        'etc/cni/net.d/20-escape.conflist',
        'etc/cni/net.d/30-inside.conflist',
        'etc/cni/net.d/loop',
        'etc/cni/net.d/40-fifo.conflist',
        'etc/cni/net.d/sub',
        'etc/cni/net.d/missing',
        '../manifest.json',
      ])
        out.push(await store.read(rel, { maxBytes: 4 }));
      return out;
    };
    const blocking = await ask(true);
    expect(blocking).toEqual(await ask(false));
    expect(blocking).toContainEqual({
      ok: false,
      error: 'EACCES',
      message: 'bundle path escapes files/: etc/cni/net.d/20-escape.conflist',
    });
    expect(blocking).toContainEqual({ ok: true, data: Buffer.from('{"na'), size: 12 });
  });
});
