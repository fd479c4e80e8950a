/**
 * The journal and backups in the state dir (default /var/lib/cni-doctor):
 *
 *   <state>/journal/<entry>.json        one entry, replaced atomically at every transition
 *   <state>/backups/<entry>/<n>.bak     bytes of each file before the repair touched it
 *   <state>/backups/<entry>/<n>.conflict  unexpected bytes found during a rollback, kept
 *
 * Every write is fsynced (file and directory) before the transition that depends on it.
 *
 * The state dir is a trust boundary (docs/security.md): `JournalStore.open` refuses one that
 * anybody but root (or this user) could change, and every file in it is opened without following
 * a symlink. The node lock is not here: it is per node and root, whatever state dir is used
 * (journal/lock.ts).
 */
import { constants, promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { JournalEntry } from '../../../shared/model/repair';
import { atomicWriteReal, fsyncDir, isTempName, writeNewFileSynced } from '../node-fs';
import { componentProblem, openNoFollow, secureDir, UnsafeStateDir } from '../state/secure-dir';

/** `20260102T030405.678Z-a1b2c3`: sorts by time (to the millisecond), then by the random tail. */
export const ENTRY_ID = /^[0-9]{8}T[0-9]{6}\.[0-9]{3}Z-[0-9a-f]{6}$/;

/** Backup files: `<step>-<n>.bak` and `<phase>-<n>.conflict` (no separators, no dot-dot). */
export const BACKUP_NAME = /^[a-z0-9]+(?:-[0-9]+)+\.(?:bak|conflict)$/;

/**
 * The file operations the journal needs, on the file system that holds the state dir: this
 * machine's (localStateIo), or a remote node's through its transport (main/remote). Each keeps the
 * same promises: secure-dir checks, no symlink followed inside the state dir, fsynced writes.
 */
export interface StateIo {
  /** secure-dir.ts: the checked absolute state dir, null when missing and not `create`. */
  secureDir(dir: string, o: { create: boolean; what: string }): Promise<string | null>;
  /** A directory inside the state dir (made 0700 when `create`): missing, or why it is unsafe. */
  subdir(d: string, create: boolean): Promise<{ exists: boolean; problem: string | null }>;
  fsyncDir(d: string): Promise<void>;
  /** Atomic replace: temp file in the same directory, fsync, rename, fsync the directory. */
  atomicWrite(p: string, data: string, mode: number): Promise<void>;
  /** A new file (never over an existing one), fsynced. */
  newFile(p: string, data: Buffer, mode: number): Promise<void>;
  /** A regular file that root or this user owns, opened without following a link at its name. */
  readChecked(p: string): Promise<Buffer>;
  /** Directory entries; an error with code ENOENT when it does not exist. */
  readdir(d: string): Promise<string[]>;
  rm(p: string): Promise<void>;
  isDir(d: string): Promise<boolean>;
}

/** A file in the state dir: a regular file (never a link) that root or this user wrote. */
async function checkedHandle(p: string): Promise<fsp.FileHandle> {
  const h = await openNoFollow(p, constants.O_RDONLY);
  const st = await h.stat();
  const why = !st.isFile()
    ? 'is not a regular file'
    : ![0, process.geteuid?.() ?? 0].includes(st.uid)
      ? `is owned by uid ${st.uid}, not root or this user`
      : null;
  if (why) {
    await h.close();
    throw new UnsafeStateDir(`${p} ${why}; it was not read`);
  }
  return h;
}

export const localStateIo: StateIo = {
  secureDir: (dir, o) => secureDir(dir, o),
  async subdir(d, create) {
    if (create) await fsp.mkdir(d, { mode: 0o700 }).catch(() => undefined);
    const st = await fsp.lstat(d).catch(() => null);
    if (st === null) return { exists: false, problem: null };
    return { exists: true, problem: componentProblem(d, st, [0, process.geteuid?.() ?? 0], true) };
  },
  fsyncDir,
  atomicWrite: (p, data, mode) => atomicWriteReal(p, data, { mode }),
  newFile: (p, data, mode) => writeNewFileSynced(p, data, mode),
  async readChecked(p) {
    const h = await checkedHandle(p);
    try {
      return await h.readFile();
    } finally {
      await h.close();
    }
  },
  readdir: (d) => fsp.readdir(d),
  rm: (p) => fsp.rm(p, { force: true }),
  isDir: (d) =>
    fsp.stat(d).then(
      (s) => s.isDirectory(),
      () => false,
    ),
};

export function newEntryId(now: Date = new Date()): string {
  const iso = now.toISOString().replace(/[-:]/g, '');
  return `${iso}-${randomBytes(3).toString('hex')}`;
}

export class JournalStore {
  readonly journalDir: string;
  readonly backupsDir: string;

  constructor(
    readonly stateDir: string,
    private readonly io: StateIo = localStateIo,
  ) {
    this.journalDir = path.join(stateDir, 'journal');
    this.backupsDir = path.join(stateDir, 'backups');
  }

  /**
   * The store of a checked state dir (secure-dir.ts): created 0700 when `create`, null when it
   * does not exist and `create` is false. Throws UnsafeStateDir (nothing done) when the dir, a
   * parent or its journal/backups dir could be changed by another user or is a symlink.
   */
  static async open(
    stateDir: string,
    o: { create: boolean; io?: StateIo | undefined },
  ): Promise<JournalStore | null> {
    const io = o.io ?? localStateIo;
    const abs = await io.secureDir(stateDir, { create: o.create, what: 'state dir' });
    if (abs === null) return null;
    const store = new JournalStore(abs, io);
    for (const d of [store.journalDir, store.backupsDir]) await store.subdir(d, o.create);
    if (o.create) {
      await io.fsyncDir(path.dirname(abs)).catch(() => undefined);
      await io.fsyncDir(abs);
    }
    return store;
  }

  /** Checks (and creates) a directory inside the state dir: a real 0700 dir, never a link. */
  private async subdir(d: string, create: boolean): Promise<boolean> {
    const { exists, problem: why } = await this.io.subdir(d, create);
    if (!exists) return false;
    if (why)
      throw new UnsafeStateDir(`refusing the state dir ${this.stateDir}: ${why}. Nothing was done`);
    return true;
  }

  /** Creates the state dir (0700: backups may hold configs with credentials). */
  async init(): Promise<void> {
    await JournalStore.open(this.stateDir, { create: true, io: this.io });
  }

  async exists(): Promise<boolean> {
    return this.io.isDir(this.journalDir);
  }

  private entryPath(id: string): string {
    if (!ENTRY_ID.test(id)) throw new Error(`"${id}" is not a journal entry id`);
    return path.join(this.journalDir, `${id}.json`);
  }

  async save(entry: JournalEntry): Promise<void> {
    await this.io.atomicWrite(
      this.entryPath(entry.id),
      `${JSON.stringify(entry, null, 2)}\n`,
      0o600,
    );
  }

  async load(id: string): Promise<JournalEntry | null> {
    try {
      const text = (await this.io.readChecked(this.entryPath(id))).toString('utf8');
      return JSON.parse(text) as JournalEntry;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Every entry, newest first; unreadable files are reported, not fatal. */
  async list(): Promise<{ entries: JournalEntry[]; damaged: string[] }> {
    let names: string[];
    try {
      names = await this.io.readdir(this.journalDir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], damaged: [] };
      throw e;
    }
    const entries: JournalEntry[] = [];
    const damaged: string[] = [];
    for (const n of names) {
      if (!n.endsWith('.json') || !ENTRY_ID.test(n.slice(0, -5))) continue;
      try {
        const text = (await this.io.readChecked(path.join(this.journalDir, n))).toString('utf8');
        const e = JSON.parse(text) as JournalEntry;
        // An entry is only ever saved under its own id: anything else was put there by hand.
        if (e.schema === 'cni-doctor.journal/v1' && e.id === n.slice(0, -5)) entries.push(e);
        else damaged.push(n);
      } catch {
        damaged.push(n);
      }
    }
    entries.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { entries, damaged };
  }

  backupDir(id: string): string {
    if (!ENTRY_ID.test(id)) throw new Error(`"${id}" is not a journal entry id`);
    return path.join(this.backupsDir, id);
  }

  /** Writes a backup file (never overwriting one) and fsyncs it and its directory. */
  async writeBackup(id: string, name: string, data: Buffer): Promise<void> {
    const dir = this.backupDir(id);
    if (!BACKUP_NAME.test(name)) throw new Error(`invalid backup name "${name}"`);
    await this.subdir(dir, true);
    const p = path.join(dir, name);
    // A crash during an earlier backup attempt may have left a partial file of the same name.
    await this.io.rm(p);
    await this.io.newFile(p, data, 0o600);
    await this.io.fsyncDir(dir);
  }

  async readBackup(id: string, name: string): Promise<Buffer> {
    if (!BACKUP_NAME.test(name)) throw new Error(`invalid backup name "${name}"`);
    const dir = this.backupDir(id);
    if (!(await this.subdir(dir, false))) throw new Error(`no backups for entry ${id}`);
    return this.io.readChecked(path.join(dir, name));
  }

  async hasStaleTemps(): Promise<boolean> {
    const names = await this.io.readdir(this.journalDir).catch(() => [] as string[]);
    return names.some(isTempName);
  }

  /** Journal temp files left by a process killed mid-save. */
  async removeStaleTemps(): Promise<void> {
    const names = await this.io.readdir(this.journalDir).catch(() => [] as string[]);
    for (const n of names.filter(isTempName)) await this.io.rm(path.join(this.journalDir, n));
  }
}
