/**
 * fix / undo / history (cli.md), on the repair engine in main/repairs. Every command that
 * touches the journal first recovers entries a crash left unfinished. Exit codes: 0 done (fix:
 * applied and verified; undo: undone), 2 refused, rolled back or could not run — with one reason
 * line on stderr.
 */
import type { ApplyResult } from '../../../shared/model/repair';
import {
  applyRepair,
  executorFor,
  localEnvironment,
  prepareRepair,
  readHistory,
  recoverJournal,
  toHistoryEntry,
  undoEntry,
  type LocalEnvironmentOptions,
  type RepairEnvironment,
} from '../../../main/repairs';
import { JournalStore } from '../../../main/repairs/journal/store';
import { depsForEntry } from '../../../main/repairs/recovery-deps';
import { ArgError, bool, str, type ParsedArgs } from '../args';
import { ansi, plain } from '../format-text';
import type { Io } from '../io';
import {
  formatApply,
  formatHistory,
  formatPreview,
  formatUndoPreview,
  recoveryLines,
} from './repair-text';

/** Seams for tests and the crash-test entry (main/repairs/testing): never set in production. */
export interface RepairCommandDeps {
  environment?: (opts: LocalEnvironmentOptions) => RepairEnvironment;
  onTransition?: (point: string) => void;
}

let deps: RepairCommandDeps = {};
export function configureRepairCommands(d: RepairCommandDeps): void {
  deps = d;
}

type Flags = Record<string, 'bool' | 'value'>;
const FIX_FLAGS: Flags = {
  yes: 'bool',
  json: 'bool',
  'state-dir': 'value',
  root: 'value',
  bundle: 'value',
  'preview-token': 'value',
  'cri-timeout': 'value',
};
const UNDO_FLAGS: Flags = { yes: 'bool', json: 'bool', 'state-dir': 'value', root: 'value' };
const HISTORY_FLAGS: Flags = { json: 'bool', 'state-dir': 'value', root: 'value' };

function oneId(args: ParsedArgs, what: string): string {
  if (args.positionals.length !== 1)
    throw new ArgError(`${args.command} needs exactly one ${what}`);
  return args.positionals[0] as string;
}

function environment(args: ParsedArgs): RepairEnvironment {
  const root = str(args, 'root');
  const stateDir = str(args, 'state-dir');
  const cri = str(args, 'cri-timeout');
  if (cri !== undefined && !(Number(cri) > 0))
    throw new ArgError('--cri-timeout needs a positive number of milliseconds');
  if (root !== undefined && process.platform === 'win32')
    throw new ArgError('--root repairs a Linux node disk; it is not available on Windows');
  const opts: LocalEnvironmentOptions = {
    ...(root !== undefined && { root }),
    ...(stateDir !== undefined && { stateDir }),
    ...(cri !== undefined && { criDeadlineMs: Number(cri) }),
    ...(deps.onTransition && { onTransition: deps.onTransition }),
    rerunCommand: (id) =>
      `${process.getuid?.() === 0 || root !== undefined ? '' : 'sudo '}npx cni-doctor fix ${id} --yes${root !== undefined ? ` --root ${root}` : ''}${stateDir !== undefined ? ` --state-dir ${stateDir}` : ''}`,
  };
  return (deps.environment ?? localEnvironment)(opts);
}

async function recover(env: RepairEnvironment, io: Io): Promise<void> {
  const r = await recoverJournal(env);
  for (const line of recoveryLines(r.recovered, r.problem)) io.err(line);
}

function finish(r: ApplyResult, args: ParsedArgs, io: Io, ok: ApplyResult['status']): number {
  if (bool(args, 'json')) io.out(JSON.stringify(r, null, 2));
  else
    io.out(
      formatApply(
        r,
        io.isTty ? ansi : plain,
        ['root', 'state-dir']
          .flatMap((f) => (str(args, f) !== undefined ? [` --${f} ${str(args, f)}`] : []))
          .join(''),
      ),
    );
  if (r.status === ok) return 0;
  io.err(`cni-doctor ${args.command}: ${r.status}: ${r.reason}`);
  return 2;
}

async function fixCommand(args: ParsedArgs, io: Io): Promise<number> {
  const id = oneId(args, 'REPAIR_ID (see `cni-doctor scan`)');
  if (str(args, 'bundle') !== undefined)
    throw new Error(
      'a bundle is a recording of a node and cannot be repaired; run fix on the node (or --root on its disk)',
    );
  const env = environment(args);
  await recover(env, io);
  if (!bool(args, 'yes')) {
    const p = await prepareRepair(env, id);
    if (!p.ok) {
      if (bool(args, 'json'))
        io.out(
          JSON.stringify(
            { entry: null, repair: id, status: 'refused', reason: p.reason, verification: null },
            null,
            2,
          ),
        );
      io.err(`cni-doctor fix: ${p.reason}`);
      return 2;
    }
    const rerun = `${(env.rerunCommand ?? ((x: string) => x))(id)} --preview-token ${p.preview.previewToken}`;
    io.out(
      bool(args, 'json')
        ? JSON.stringify(p.preview, null, 2)
        : formatPreview(p.preview, io.isTty ? ansi : plain, rerun),
    );
    return 0;
  }
  const token = str(args, 'preview-token');
  const r = await applyRepair(env, id, token !== undefined ? { previewToken: token } : {});
  return finish(r, args, io, 'applied');
}

async function undoCommand(args: ParsedArgs, io: Io): Promise<number> {
  const id = oneId(args, 'ENTRY_ID (see `cni-doctor history`)');
  const env = environment(args);
  await recover(env, io);
  if (!bool(args, 'yes')) {
    const entry = await new JournalStore(env.stateDir).load(id).catch((e: Error) => {
      throw new Error(`cannot read the journal in ${env.stateDir}: ${e.message}`);
    });
    if (!entry) throw new Error(`no journal entry ${id} in ${env.stateDir}`);
    const { fs } = depsForEntry(env, entry);
    const changed: string[] = [];
    for (const js of entry.status === 'verified' ? entry.steps : []) {
      const why = await executorFor(js.step).changedSince(js.step, js, fs);
      if (why) changed.push(why);
    }
    if (entry.status !== 'verified')
      changed.push(`the entry is ${entry.status}; only a verified repair can be undone`);
    io.out(
      bool(args, 'json')
        ? JSON.stringify(
            { entry: id, status: entry.status, files: entry.files, refusedBecause: changed },
            null,
            2,
          )
        : formatUndoPreview(entry, changed, `cni-doctor undo ${id} --yes`),
    );
    return changed.length ? 2 : 0;
  }
  return finish(await undoEntry(env, id), args, io, 'undone');
}

async function historyCommand(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length) throw new ArgError(`unexpected argument "${args.positionals[0]}"`);
  const env = environment(args);
  await recover(env, io);
  const { entries, damaged } = await readHistory(env.stateDir).catch((e: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot read the journal in ${env.stateDir}: ${e.code === 'EACCES' ? 'permission denied (run as root)' : e.message}`,
    );
  });
  for (const d of damaged)
    io.err(`cni-doctor: warning: journal file ${d} is damaged and was skipped`);
  if (bool(args, 'json')) io.out(JSON.stringify({ entries: entries.map(toHistoryEntry) }, null, 2));
  else io.out(formatHistory(entries, io.isTty ? ansi : plain));
  return 0;
}

export const REPAIR_COMMANDS = {
  fix: { flags: FIX_FLAGS, run: fixCommand },
  undo: { flags: UNDO_FLAGS, run: undoCommand },
  history: { flags: HISTORY_FLAGS, run: historyCommand },
};
