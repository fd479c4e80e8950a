/**
 * fix / undo / history (cli.md), on the repair engine in main/repairs. Every command that
 * touches the journal first recovers entries a crash left unfinished. Exit codes: 0 done (fix:
 * applied and verified; undo: undone), 2 refused, rolled back or could not run — with one reason
 * line on stderr.
 */
import { visible } from '../visible';
import type { ApplyResult } from '../../../shared/model/repair';
import type { LocalEnvironmentOptions, RepairEnvironment } from '../../../main/repairs';
import { shellLine } from '../../../shared/shell-quote';
import { selfCommand } from '../invocation';
import {
  ArgError,
  CRI_TIMEOUT_FLAG,
  JSON_FLAG,
  ROOT_FLAG,
  STATE_DIR_FLAG,
  criTimeoutMs,
  defineCommand,
  type FlagValues,
} from '../command';
import { ansi, plain } from '../format-text';
import type { Io } from '../io';
import { TARGET_FLAGS, targetOf, targetOptions } from '../target-flags';
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

/** The repair engine loads when a repair command runs, not at CLI start-up. */
const engine = (): Promise<typeof import('./repair-engine')> => import('./repair-engine');
export function configureRepairCommands(d: RepairCommandDeps): void {
  deps = d;
}

const YES_FLAG = {
  yes: { type: 'boolean', help: 'do it (without --yes: print the preview and change nothing)' },
} as const;
/** What every journal-touching command shares: where the node is and where its journal lives. */
const JOURNAL_FLAGS = { ...ROOT_FLAG, ...STATE_DIR_FLAG, ...TARGET_FLAGS } as const;
type JournalFlags = FlagValues<typeof JOURNAL_FLAGS & typeof CRI_TIMEOUT_FLAG>;

/** `--root DIR --state-dir DIR` as given, for hints that rerun a command on the same target. */
function targetFlags(flags: JournalFlags): string[] {
  return (['root', 'state-dir', 'target'] as const).flatMap((f) => {
    const v = flags[f];
    return v !== undefined ? [`--${f}`, v] : [];
  });
}

/** A command to paste: `sudo` when not root (and not a disk image), every path shell-quoted. */
function hint(flags: JournalFlags, words: string[], tail: string[] = []): string {
  const sudo =
    process.getuid?.() === 0 || flags.root !== undefined || flags.target !== undefined
      ? []
      : ['sudo'];
  // Typed again the way it was started, not always `npx` (newcomer review, README item 9).
  return shellLine([...sudo, ...selfCommand(), ...words, ...targetFlags(flags), ...tail]);
}

/**
 * Where the node is: this machine (or --root), or a --target reached through a transport. What
 * reaching it holds (an ssh master, a debug pod) is released when the command is done: every
 * command runs in usingEnvironment.
 */
async function environment(flags: JournalFlags, io: Io): Promise<RepairEnvironment> {
  const target = targetOf(flags);
  if (target && target.kind !== 'local') {
    if (target.kind === 'bundle')
      throw new Error('a bundle is a recording of a node and cannot be repaired');
    if (target.kind === 'root') return localEnvironmentFor({ ...flags, root: target.dir });
    if (target.kind === 'winrm' || target.kind === 'pssession')
      throw new Error(
        'repairs through PowerShell remoting are not available in this build (scans are): run cni-doctor on the Windows node itself to repair',
      );
    if (flags['state-dir'] !== undefined)
      throw new ArgError(
        "--state-dir cannot be combined with a remote --target: the journal lives in the node's own /var/lib/cni-doctor",
      );
    const cri = criTimeoutMs(flags['cri-timeout']);
    const { targetEnvironment } = await import('../../../main/remote/repair-environment');
    return targetEnvironment(target, {
      ...targetOptions(flags, io, cri),
      ...(deps.onTransition && { onTransition: deps.onTransition }),
    });
  }
  return localEnvironmentFor(flags);
}

async function localEnvironmentFor(flags: JournalFlags): Promise<RepairEnvironment> {
  const root = flags.root;
  const stateDir = flags['state-dir'];
  const cri = criTimeoutMs(flags['cri-timeout']);
  if (root !== undefined && process.platform === 'win32')
    throw new ArgError('--root repairs a Linux node disk; it is not available on Windows');
  if (root !== undefined) {
    // A running container's /proc/PID/root is refused before recovery touches anything there.
    const { liveProcessRootProblem } = await import('../../../main/host/live-process-root');
    const live = await liveProcessRootProblem(root);
    if (live) throw new ArgError(live);
  }
  const opts: LocalEnvironmentOptions = {
    ...(root !== undefined && { root }),
    ...(stateDir !== undefined && { stateDir }),
    ...(cri !== undefined && { criDeadlineMs: cri }),
    ...(deps.onTransition && { onTransition: deps.onTransition }),
    rerunCommand: (id) => hint(flags, ['fix', id, '--yes']),
  };
  return (deps.environment ?? (await engine()).localEnvironment)(opts);
}

async function recover(env: RepairEnvironment, io: Io): Promise<void> {
  const r = await (await engine()).recoverJournal(env);
  for (const line of recoveryLines(r)) io.err(line);
}

function finish(
  r: ApplyResult,
  command: string,
  flags: JournalFlags & { json?: true },
  io: Io,
  ok: ApplyResult['status'],
): number {
  if (flags.json) io.out(JSON.stringify(r, null, 2));
  else
    io.out(
      formatApply(
        r,
        io.isTty ? ansi : plain,
        r.entry ? hint(flags, ['undo', r.entry, '--yes']) : '',
      ),
    );
  if (r.status === ok) return 0;
  io.err(visible(`cni-doctor ${command}: ${r.status}: ${r.reason}`));
  return 2;
}

export const fixCommand = defineCommand({
  name: 'fix',
  summary: 'preview a repair, or apply it with --yes (backed up, verified, rolled back on failure)',
  details: `Exit codes: 0 previewed, or applied and verified; 2 refused, rolled back or could not run,
with one reason line on stderr.`,
  operand: { name: 'REPAIR_ID', help: 'a repair id from `cni-doctor scan`' },
  flags: {
    ...YES_FLAG,
    ...JSON_FLAG,
    ...JOURNAL_FLAGS,
    bundle: { type: 'string', value: 'PATH', help: 'refused: a recording cannot be repaired' },
    'preview-token': {
      type: 'string',
      value: 'T',
      help: 'apply only if nothing changed since the preview that printed T',
    },
    ...CRI_TIMEOUT_FLAG,
  },
  async run({ operand: id, flags }, io) {
    if (flags.bundle !== undefined)
      throw new Error(
        'a bundle is a recording of a node and cannot be repaired; run fix on the node (or --root on its disk)',
      );
    const { applyRepair, prepareRepair, usingEnvironment } = await engine();
    return usingEnvironment(await environment(flags, io), async (env) => {
      await recover(env, io);
      if (!flags.yes) {
        const p = await prepareRepair(env, id);
        if (!p.ok) {
          if (flags.json)
            io.out(
              JSON.stringify(
                {
                  entry: null,
                  repair: id,
                  status: 'refused',
                  reason: p.reason,
                  verification: null,
                },
                null,
                2,
              ),
            );
          io.err(visible(`cni-doctor fix: ${p.reason}`));
          return 2;
        }
        const rerun = hint(
          flags,
          ['fix', id, '--yes'],
          ['--preview-token', p.preview.previewToken],
        );
        io.out(
          flags.json
            ? JSON.stringify(p.preview, null, 2)
            : formatPreview(p.preview, io.isTty ? ansi : plain, rerun),
        );
        return 0;
      }
      const token = flags['preview-token'];
      const r = await applyRepair(env, id, token !== undefined ? { previewToken: token } : {});
      return finish(r, 'fix', flags, io, 'applied');
    });
  },
});

export const undoCommand = defineCommand({
  name: 'undo',
  summary: "preview undoing a journal entry, or restore that entry's files with --yes",
  details: `Exit codes: 0 previewed (undo possible) or undone; 2 refused (a file changed since the
repair) or could not run, with one reason line on stderr.`,
  operand: { name: 'ENTRY_ID', help: 'a journal entry id from `cni-doctor history`' },
  flags: { ...YES_FLAG, ...JSON_FLAG, ...JOURNAL_FLAGS },
  async run({ operand: id, flags }, io) {
    const {
      depsForEntry,
      entryProblem,
      executorFor,
      JournalStore,
      previewUndo,
      undoEntry,
      usingEnvironment,
    } = await engine();
    return usingEnvironment(await environment(flags, io), async (env) => {
      await recover(env, io);
      if (!flags.yes) {
        const store = await JournalStore.open(env.stateDir, { create: false, io: env.stateIo });
        const entry = await store?.load(id).catch((e: Error) => {
          throw new Error(`cannot read the journal in ${env.stateDir}: ${e.message}`);
        });
        if (!entry) throw new Error(`no journal entry ${id} in ${env.stateDir}`);
        const invalid = entryProblem(entry, env.fs.root);
        if (invalid) throw new Error(`cannot undo ${id}: ${invalid}; nothing was done`);
        const { fs } = depsForEntry(env, entry);
        const changed: string[] = [];
        for (const js of entry.status === 'verified' ? entry.steps : []) {
          const why = await executorFor(js.step).changedSince(js.step, js, fs);
          if (why) changed.push(why);
        }
        if (entry.status !== 'verified')
          changed.push(`the entry is ${entry.status}; only a verified repair can be undone`);
        // Each file's diff from what the node holds now (what the UI's Undo preview shows).
        const { changes } = await previewUndo(env, id);
        io.out(
          flags.json
            ? JSON.stringify(
                {
                  entry: id,
                  status: entry.status,
                  files: entry.files,
                  refusedBecause: changed,
                  changes,
                },
                null,
                2,
              )
            : formatUndoPreview(entry, changed, hint(flags, ['undo', id, '--yes']), changes),
        );
        return changed.length ? 2 : 0;
      }
      const r = await undoEntry(env, id, hint(flags, ['undo', id, '--yes']));
      return finish(r, 'undo', flags, io, 'undone');
    });
  },
});

export const historyCommand = defineCommand({
  name: 'history',
  summary: 'list the repairs applied on this node, newest first',
  flags: { ...JSON_FLAG, ...JOURNAL_FLAGS },
  async run({ flags }, io) {
    const { readHistory, toHistoryEntry, usingEnvironment } = await engine();
    return usingEnvironment(await environment(flags, io), async (env) => {
      await recover(env, io);
      const { entries, damaged } = await readHistory(env.stateDir, env.stateIo).catch(
        (e: NodeJS.ErrnoException) => {
          throw new Error(
            `cannot read the journal in ${env.stateDir}: ${e.code === 'EACCES' ? 'permission denied (run as root)' : e.message}`,
          );
        },
      );
      for (const d of damaged)
        io.err(visible(`cni-doctor: warning: journal file ${d} is damaged and was skipped`));
      if (flags.json) io.out(JSON.stringify({ entries: entries.map(toHistoryEntry) }, null, 2));
      else io.out(formatHistory(entries, io.isTty ? ansi : plain));
      return 0;
    });
  },
});
