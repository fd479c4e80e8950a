/**
 * `cni-doctor` command line (cli.md). Exit codes: 0 ok, 3 findings at/above --fail-on, 2 the
 * command could not do its job — always with one clear line on stderr, never a stack trace.
 */
import { ArgError, parseArgs } from './args';
import { processIo, type Io } from './io';
import { SCAN_FLAGS, scanCommand } from './commands/scan';
import { RULES_FLAGS, rulesCommand } from './commands/rules';
import { COLLECT_FLAGS, collectCommand } from './commands/collect';
import { REPAIR_COMMANDS } from './commands/repair-commands';
import { SERVE_FLAGS, serveCommand } from './commands/serve';
import { VERSION } from './version';
import { visible } from './visible';

const USAGE = `cni-doctor ${VERSION} — why is my pod stuck in sandbox creation?

  cni-doctor scan    [--bundle PATH | --root DIR] [--json] [--fail-on error|warning|info|never]
  cni-doctor collect --out PATH.tar.gz [--root DIR] [--no-redact]
  cni-doctor fix     REPAIR_ID [--yes] [--json] [--state-dir DIR]
  cni-doctor undo    ENTRY_ID [--yes] [--state-dir DIR]
  cni-doctor history [--json] [--state-dir DIR]
  cni-doctor rules   [--json | --markdown]
  cni-doctor serve   [--port N] [--bundle PATH]
`;

type Command = {
  flags: Record<string, 'bool' | 'value'>;
  run: (a: ReturnType<typeof parseArgs>, io: Io) => Promise<number>;
};

const COMMANDS: Record<string, Command> = {
  scan: { flags: SCAN_FLAGS, run: scanCommand },
  rules: { flags: RULES_FLAGS, run: rulesCommand },
  collect: { flags: COLLECT_FLAGS, run: collectCommand },
  serve: { flags: SERVE_FLAGS, run: serveCommand },
  ...REPAIR_COMMANDS,
};

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const name = argv[0];
  if (!name) {
    // A usage error like any other (cli.md): one line on stderr, nothing on stdout.
    io.err(`cni-doctor: missing command: ${Object.keys(COMMANDS).join(', ')} (try --help)`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (name === '--version') {
    io.out(VERSION);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`cni-doctor: unknown command "${name}" (try --help)`);
    return 2;
  }
  try {
    return await cmd.run(parseArgs(argv, cmd.flags), io);
  } catch (e) {
    io.progress('');
    const msg = e instanceof ArgError ? `${e.message} (try --help)` : oneLine(e);
    io.err(`cni-doctor ${name}: ${msg}`);
    return 2;
  }
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  // Messages quote bundle entry names and paths: untrusted text on a terminal.
  return visible(m.split('\n')[0]?.slice(0, 500) ?? 'failed');
}
