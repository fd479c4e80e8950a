import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalStore } from '../repairs/journal/store';
import { UnsafeStateDir } from '../repairs/state/secure-dir';
import type { JournalEntry } from '../../shared/model/repair';
import { NodeFiles } from './node-files';
import { nodeStateIo } from './node-state';
import { TransportNodeFs } from './transport-node-fs';
import { LocalShellTransport } from './testing/local-transport';
import { NODE_SHELLS } from './testing/shells';

// The "node" is this machine, reached through a real shell (sh, and busybox sh where present):
// every operation runs the same script a repair over ssh runs on the node.
const shells = NODE_SHELLS;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cnd-files-'));
  chmodSync(dir, 0o700);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.each(shells)('file operations on the node under %s', (_name, shell) => {
  const files = (): NodeFiles => new NodeFiles(new LocalShellTransport(shell));

  it('replaces a file atomically with its bytes, mode and owner, through a symlink to its target', async () => {
    const target = join(dir, 'config.toml');
    writeFileSync(target, 'old');
    symlinkSync(target, join(dir, 'link.toml'));
    const fs = new TransportNodeFs('ssh:test', files());
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13, 0x27, 0x22]);
    await fs.writeAtomic(join(dir, 'link.toml'), bytes, {
      mode: 0o640,
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
    });
    expect(readFileSync(target)).toEqual(bytes);
    expect(statSync(target).mode & 0o7777).toBe(0o640);
    expect(lstatSync(join(dir, 'link.toml')).isSymbolicLink()).toBe(true); // the link is kept
    expect(readdirSync(dir).sort()).toEqual(['config.toml', 'link.toml']); // no temp left
    expect(await fs.read(join(dir, 'link.toml'))).toEqual(bytes);
    expect(await fs.stat(join(dir, 'link.toml'))).toMatchObject({ type: 'symlink' });
    expect(await fs.stat(join(dir, 'link.toml'), true)).toMatchObject({
      type: 'file',
      mode: 0o640,
      size: bytes.length,
    });
  });

  it('never overwrites on rename or create, removes files, lists names with newlines', async () => {
    const f = files();
    writeFileSync(join(dir, 'a'), 'a');
    writeFileSync(join(dir, 'b'), 'b');
    await expect(f.rename(join(dir, 'a'), join(dir, 'b'))).rejects.toMatchObject({
      code: 'EEXIST',
    });
    await expect(f.create(join(dir, 'a'), 'x', 0o600)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('a');
    // A node path with a newline is never sent as a word; such a name is still listed whole.
    await expect(f.rename(join(dir, 'a'), join(dir, 'x\ny'))).rejects.toThrow(/not a usable/);
    await f.rename(join(dir, 'a'), join(dir, 'c'));
    writeFileSync(join(dir, 'we ird\nname'), '');
    expect((await f.list(dir))?.sort()).toEqual(['b', 'c', 'we ird\nname']);
    await f.remove(join(dir, 'b'));
    expect(existsSync(join(dir, 'b'))).toBe(false);
    expect(await f.list(join(dir, 'nope'))).toBeNull();
    expect(await f.stat(join(dir, 'nope'), false)).toBeNull();
    await expect(f.stat('relative', false)).rejects.toThrow(/not a usable node path/);
  });

  it('keeps the journal on the node: secure state dir, entries, backups; refuses links and unsafe dirs', async () => {
    const io = nodeStateIo(files());
    const state = join(dir, 'state');
    const store = (await JournalStore.open(state, { create: true, io })) as JournalStore;
    expect(statSync(state).mode & 0o777).toBe(0o700);
    const entry = { schema: 'cni-doctor.journal/v1', id: '20260102T030405.678Z-a1b2c3' };
    await store.save(entry as unknown as JournalEntry);
    expect(await store.load(entry.id)).toEqual(entry);
    expect((await store.list()).entries).toEqual([entry]);
    await store.writeBackup(entry.id, 'step-1.bak', Buffer.from('bytes\n\0'));
    expect(await store.readBackup(entry.id, 'step-1.bak')).toEqual(Buffer.from('bytes\n\0'));

    // A planted link in the journal is not read; a state dir under a group-writable dir or
    // behind a symlink is refused, and nothing is created below it.
    symlinkSync('/etc/hostname', join(state, 'journal', '20260102T030405.678Z-ffffff.json'));
    await expect(store.load('20260102T030405.678Z-ffffff')).rejects.toThrow(UnsafeStateDir);
    mkdirSync(join(dir, 'open'));
    chmodSync(join(dir, 'open'), 0o777);
    await expect(JournalStore.open(join(dir, 'open', 's'), { create: true, io })).rejects.toThrow(
      /writable by every user/,
    );
    symlinkSync(join(dir, 'open'), join(dir, 'via-link'));
    await expect(
      JournalStore.open(join(dir, 'via-link', 'x'), { create: true, io }),
    ).rejects.toThrow(/symlink/);
    expect(existsSync(join(dir, 'open', 'x'))).toBe(false);
    expect(await JournalStore.open(join(dir, 'missing'), { create: false, io })).toBeNull();
  });
});
