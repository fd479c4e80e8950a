/**
 * One repair at a time per state dir: apply, undo and recovery hold `<state>/lock` (O_EXCL,
 * holding our pid). A lock whose process is gone was left by a crash and is taken over — which
 * is also what tells recovery that an unfinished entry is orphaned, not in progress.
 */
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';

export class LockBusy extends Error {}

export interface Lock {
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function acquireLock(stateDir: string): Promise<Lock> {
  const p = path.join(stateDir, 'lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const h = await fsp.open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await h.writeFile(`${process.pid}\n`);
      await h.sync();
      await h.close();
      return {
        async release() {
          const held = await fsp.readFile(p, 'utf8').catch(() => '');
          if (Number(held.trim()) === process.pid) await fsp.rm(p, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number((await fsp.readFile(p, 'utf8').catch(() => '')).trim());
      if (holder === process.pid) throw new LockBusy('this process already holds the repair lock');
      if (alive(holder))
        throw new LockBusy(
          `another cni-doctor (pid ${holder}) is applying or undoing a repair; try again when it is done`,
        );
      await fsp.rm(p, { force: true });
    }
  }
  throw new LockBusy(`could not take ${p}`);
}
