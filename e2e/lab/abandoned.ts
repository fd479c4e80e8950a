// A test runner that dies (crash, SIGKILL, broken pipe) never reaches stop(). Each lab leaves a
// lab.json naming its owner process, and the next startLab() cleans up labs whose owner is gone.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanHost } from './host-cleanup';
import { labPaths, type LabPaths } from './paths';

export const LAB_DIR_PREFIX = 'cndlab-';

interface LabRecord {
  id: string;
  name: string;
  binDir: string;
  sandboxImage: string;
  ownerPid: number;
}

export function recordLab(p: LabPaths, id: string, name: string): void {
  const rec: LabRecord = {
    id,
    name,
    binDir: p.binDir,
    sandboxImage: p.sandboxImage,
    ownerPid: process.pid,
  };
  writeFileSync(join(p.dir, 'lab.json'), JSON.stringify(rec));
}

/** Cleans labs under `parent` whose owning process no longer exists; returns their dirs. */
export async function sweepAbandonedLabs(parent: string): Promise<string[]> {
  const swept: string[] = [];
  for (const entry of readdirSync(parent)) {
    if (!entry.startsWith(LAB_DIR_PREFIX)) continue;
    const dir = join(parent, entry);
    let rec: LabRecord;
    try {
      rec = JSON.parse(readFileSync(join(dir, 'lab.json'), 'utf8')) as LabRecord;
    } catch {
      continue; // not ours, or still being created
    }
    if (typeof rec.id !== 'string' || !/^[0-9a-f]{6}$/.test(rec.id) || isAlive(rec.ownerPid))
      continue;
    // No grace: whatever still runs there has no owner and will not stop by itself.
    await cleanHost(labPaths(dir, rec.id, rec.binDir, rec.sandboxImage), [], 0);
    swept.push(dir);
  }
  return swept;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
