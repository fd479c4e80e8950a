/**
 * What undoing a journal entry would do, touching nothing (`undo` without `--yes`, the UI's Undo
 * preview): each file it puts back, renames back or removes, with the diff from what the node holds
 * now to what undo leaves; the services it restarts; and why it would be refused now. undoEntry
 * checks all of it again under the node lock before it changes anything.
 */
import type { JournalEntry, UndoChange, UndoPreview } from '../../shared/model/repair';
import { TERMINAL_STATUSES } from '../../shared/model/repair';
import { unifiedDiff } from './diff';
import { ENTRY_ID, JournalStore } from './journal/store';
import { entryProblem } from './journal/validate';
import type { NodeFs } from './node-fs';
import { depsForEntry } from './recovery-deps';
import { backupFor } from './steps/types';
import { executorFor } from './steps/registry';
import type { UndoEnvironment } from './undo';

/** Bigger files are named, not diffed (a CNI or runtime config is a few KiB). */
const MAX_DIFF_BYTES = 256 * 1024;

function textDiff(path: string, now: Buffer | null, then: Buffer | null): string {
  if ((now?.length ?? 0) > MAX_DIFF_BYTES || (then?.length ?? 0) > MAX_DIFF_BYTES)
    return `(${path} is larger than ${MAX_DIFF_BYTES / 1024} KiB: not shown)`;
  const before = now === null ? null : now.toString('utf8');
  const after = then === null ? '' : then.toString('utf8');
  const d = unifiedDiff(path, before, after);
  // A file undo removes ends as /dev/null, as diff(1) writes a deletion.
  return then === null && d ? d.replace(/^(--- [^\n]*\n)\+\+\+ [^\n]*\n/, '$1+++ /dev/null\n') : d;
}

async function changesOf(
  entry: JournalEntry,
  fs: NodeFs,
  store: JournalStore,
): Promise<{ changes: UndoChange[]; actions: string[] }> {
  const changes: UndoChange[] = [];
  const actions: string[] = [];
  const backup = async (name: string | null): Promise<Buffer | null> =>
    name === null ? null : store.readBackup(entry.id, name);
  for (const js of entry.steps) {
    if (js.state !== 'done' && js.state !== 'started') continue;
    const s = js.step;
    if (s.kind === 'restart-service') continue;
    if (s.kind === 'powershell') {
      actions.push(`Reverse: ${js.description}`);
      continue;
    }
    if (s.kind === 'rename') {
      const original = backupFor(js, s.from);
      const now = await fs.read(s.to);
      const then = original ? await backup(original.file) : null;
      changes.push({
        path: s.from,
        action: 'rename-back',
        from: s.to,
        diff: now === null ? '' : textDiff(s.from, now, then ?? now),
      });
      continue;
    }
    const b = backupFor(js, s.path);
    if (!b) continue;
    const now = await fs.read(s.path);
    const then = await backup(b.file);
    changes.push({
      path: s.path,
      action: then === null ? 'remove' : 'restore',
      diff: textDiff(s.path, now, then),
    });
  }
  return { changes, actions };
}

/** Throws when there is no such entry (or no journal); refusals are in `refusedBecause`. */
export async function previewUndo(env: UndoEnvironment, id: string): Promise<UndoPreview> {
  if (!ENTRY_ID.test(id)) throw new Error(`"${id}" is not a journal entry id`);
  const store = await JournalStore.open(env.stateDir, { create: false, io: env.stateIo });
  const entry = store ? await store.load(id) : null;
  if (!store || !entry) throw new Error(`no journal entry ${id} in ${env.stateDir}`);
  const preview: UndoPreview = {
    entry: entry.id,
    repair: entry.repair,
    title: entry.title,
    status: entry.status,
    changes: [],
    services: [],
    actions: [],
    refusedBecause: [],
  };
  const invalid = entryProblem(entry, env.fs.root);
  if (invalid) return { ...preview, refusedBecause: [`cannot undo ${id}: ${invalid}`] };
  let fs: NodeFs;
  try {
    fs = depsForEntry(env, entry).fs;
  } catch (e) {
    return { ...preview, refusedBecause: [(e as Error).message] };
  }
  if (entry.status !== 'verified')
    preview.refusedBecause.push(
      TERMINAL_STATUSES.includes(entry.status)
        ? `the entry is ${entry.status}; only a verified repair can be undone`
        : `the entry is still ${entry.status}; only a verified repair can be undone`,
    );
  else
    for (const js of entry.steps) {
      const why = await executorFor(js.step).changedSince(js.step, js, fs);
      if (why) preview.refusedBecause.push(why);
    }
  preview.services = [
    ...new Set(
      entry.steps.flatMap((js) => (js.step.kind === 'restart-service' ? [js.step.service] : [])),
    ),
  ];
  const { changes, actions } = await changesOf(entry, fs, store);
  return { ...preview, changes, actions };
}
