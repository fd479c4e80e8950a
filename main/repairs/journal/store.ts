/**
 * The journal and backups in the state dir (default /var/lib/cni-doctor):
 *
 *   <state>/journal/<entry>.json        one entry, replaced atomically at every transition
 *   <state>/backups/<entry>/<n>.bak     bytes of each file before the repair touched it
 *   <state>/backups/<entry>/<n>.conflict  unexpected bytes found during a rollback, kept
 *   <state>/lock                        pid of the process applying/undoing/recovering
 *
 * Every write is fsynced (file and directory) before the transition that depends on it.
 */
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { JournalEntry } from '../../../shared/model/repair';
import { atomicWriteReal, fsyncDir, isTempName, writeNewFileSynced } from '../node-fs';

/** `20260102T030405.678Z-a1b2c3`: sorts by time (to the millisecond), then by the random tail. */
export const ENTRY_ID = /^[0-9]{8}T[0-9]{6}\.[0-9]{3}Z-[0-9a-f]{6}$/;

export function newEntryId(now: Date = new Date()): string {
  const iso = now.toISOString().replace(/[-:]/g, '');
  return `${iso}-${randomBytes(3).toString('hex')}`;
}

export class JournalStore {
  readonly journalDir: string;
  readonly backupsDir: string;

  constructor(readonly stateDir: string) {
    this.journalDir = path.join(stateDir, 'journal');
    this.backupsDir = path.join(stateDir, 'backups');
  }

  /** Creates the state dir (0700: backups may hold configs with credentials). */
  async init(): Promise<void> {
    for (const d of [this.stateDir, this.journalDir, this.backupsDir]) {
      await fsp.mkdir(d, { recursive: true, mode: 0o700 });
    }
    await fsyncDir(path.dirname(this.stateDir)).catch(() => undefined);
    await fsyncDir(this.stateDir);
  }

  async exists(): Promise<boolean> {
    return fsp.stat(this.journalDir).then(
      (s) => s.isDirectory(),
      () => false,
    );
  }

  private entryPath(id: string): string {
    if (!ENTRY_ID.test(id)) throw new Error(`"${id}" is not a journal entry id`);
    return path.join(this.journalDir, `${id}.json`);
  }

  async save(entry: JournalEntry): Promise<void> {
    await atomicWriteReal(this.entryPath(entry.id), `${JSON.stringify(entry, null, 2)}\n`, {
      mode: 0o600,
    });
  }

  async load(id: string): Promise<JournalEntry | null> {
    try {
      return JSON.parse(await fsp.readFile(this.entryPath(id), 'utf8')) as JournalEntry;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Every entry, newest first; unreadable files are reported, not fatal. */
  async list(): Promise<{ entries: JournalEntry[]; damaged: string[] }> {
    let names: string[];
    try {
      names = await fsp.readdir(this.journalDir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], damaged: [] };
      throw e;
    }
    const entries: JournalEntry[] = [];
    const damaged: string[] = [];
    for (const n of names) {
      if (!n.endsWith('.json') || !ENTRY_ID.test(n.slice(0, -5))) continue;
      try {
        const e = JSON.parse(
          await fsp.readFile(path.join(this.journalDir, n), 'utf8'),
        ) as JournalEntry;
        if (e.schema === 'cni-doctor.journal/v1') entries.push(e);
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
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const p = path.join(dir, name);
    // A crash during an earlier backup attempt may have left a partial file of the same name.
    await fsp.rm(p, { force: true });
    await writeNewFileSynced(p, data, 0o600);
    await fsyncDir(dir);
  }

  readBackup(id: string, name: string): Promise<Buffer> {
    if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`invalid backup name "${name}"`);
    return fsp.readFile(path.join(this.backupDir(id), name));
  }

  /** Journal temp files left by a process killed mid-save. */
  async removeStaleTemps(): Promise<void> {
    const names = await fsp.readdir(this.journalDir).catch(() => [] as string[]);
    for (const n of names.filter(isTempName))
      await fsp.rm(path.join(this.journalDir, n), { force: true });
  }
}
