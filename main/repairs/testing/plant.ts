/**
 * Hostile journals for tests: what someone who can write a state dir (or the examined disk) would
 * plant to make a root cni-doctor write, chmod or chown for them.
 */
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { FileBackup, JournalEntry, JournalStatus } from '../../../shared/model/repair';
import { sha256 } from '../hash';

/** uid/gid of `nobody`: the "unprivileged user" who plants files. */
export const NOBODY = 65534;

export interface PlantedWrite {
  /** The node path the entry claims it wrote. */
  path: string;
  /** Bytes of the planted "backup" that recovery would put there. */
  backup: string;
  mode?: number;
  uid?: number;
  gid?: number;
  /** Hash recorded for the backup (default: the real one). */
  sha256?: string;
}

export function plantedEntry(
  id: string,
  root: string,
  writes: readonly PlantedWrite[],
  status: JournalStatus = 'applying',
): JournalEntry {
  return {
    schema: 'cni-doctor.journal/v1',
    id,
    repair: 'planted:repair',
    rule: 'planted',
    findingId: 'planted',
    kind: 'planted',
    title: 'planted',
    status,
    createdAt: '2026-01-01T00:00:00.000Z',
    appliedAt: null,
    finishedAt: null,
    root,
    pid: 1,
    hostname: 'elsewhere',
    risk: 'low',
    podImpact: '',
    services: [],
    files: writes.map((w) => w.path),
    steps: writes.map((w, i) => {
      const b: FileBackup = {
        path: w.path,
        file: `${i + 1}-1.bak`,
        sha256: w.sha256 ?? sha256(w.backup),
        ...(w.mode !== undefined && { mode: w.mode }),
        ...(w.uid !== undefined && { uid: w.uid }),
        ...(w.gid !== undefined && { gid: w.gid }),
      };
      return {
        index: i,
        step: {
          kind: 'write',
          path: w.path,
          content: 'planted\n',
          expectedSha256: null,
          needsElevation: true,
        },
        state: 'done',
        description: 'planted',
        backups: [b],
        resultSha256: sha256('planted\n'),
      };
    }),
    transitions: [],
  };
}

/** Writes the entry and its backups into `stateDir` (journal/, backups/<id>/), owned by `uid`. */
export function plantJournal(
  stateDir: string,
  entry: JournalEntry,
  writes: readonly PlantedWrite[],
  uid?: number,
): void {
  const journal = path.join(stateDir, 'journal');
  const backups = path.join(stateDir, 'backups', entry.id);
  mkdirSync(journal, { recursive: true });
  mkdirSync(backups, { recursive: true });
  writeFileSync(path.join(journal, `${entry.id}.json`), JSON.stringify(entry));
  writes.forEach((w, i) => writeFileSync(path.join(backups, `${i + 1}-1.bak`), w.backup));
  if (uid !== undefined)
    for (const p of [
      stateDir,
      journal,
      path.join(stateDir, 'backups'),
      backups,
      path.join(journal, `${entry.id}.json`),
      ...writes.map((_, i) => path.join(backups, `${i + 1}-1.bak`)),
    ])
      chownSync(p, uid, uid);
}
